// Cycles of an e-graph and the post-iteration pass that breaks them, as in TENSAT: an e-class is
// on a cycle when it can reach itself by going down from a class to the children of its live,
// non-blacklisted e-nodes. Extraction cannot produce a finite term through such a cycle, so
// `remove_cycles` blacklists the most recently added e-node (the largest id) on each cycle found,
// until no cycle is reachable from the given root classes. Both walks are iterative depth-first
// searches (e-graphs can be far deeper than the call stack) over a clean e-graph.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "egraph/egraph.hpp"
#include "support/error.hpp"

namespace mctsat::egraph {
namespace detail {

inline constexpr std::size_t kStopCycleSearch = std::numeric_limits<std::size_t>::max();

// Depth-first search from `roots` that calls `on_cycle(nodes)` for every cycle it meets, with the
// e-nodes of the cycle in path order (the first one is in the class the cycle returns to). The
// callback returns the position of an e-node it blacklisted, from which the search resumes, or
// kStopCycleSearch to stop.
//
// Invariant: a finished ("black") class reaches only finished classes and no cycle. When a cycle
// is broken at position j, the classes above j on the path are still unfinished and go back to
// unvisited, and the class at j moves on to its next e-node; edges only disappear, so the
// invariant holds and every cycle that remains is found later.
template <class Analysis, class OnCycle>
void search_cycles(const EGraph<Analysis>& egraph, std::span<const Id> roots, OnCycle&& on_cycle) {
  MCTSAT_ASSERT(egraph.clean());
  constexpr std::uint32_t kUnvisited = std::numeric_limits<std::uint32_t>::max();
  constexpr std::uint32_t kFinished = kUnvisited - 1;
  // Per class: kUnvisited, kFinished, or its position on the path.
  std::vector<std::uint32_t> mark(egraph.num_ids(), kUnvisited);
  struct Frame {
    Id eclass;
    std::uint32_t node_index = 0;   // position in nodes_of(eclass) of the e-node being walked
    std::uint32_t child_index = 0;  // its next child
  };
  std::vector<Frame> path;
  std::vector<Id> cycle;
  auto enter = [&](Id eclass) {
    mark[eclass] = static_cast<std::uint32_t>(path.size());
    path.push_back(Frame{eclass});
  };

  for (Id root : roots) {
    root = egraph.find(root);
    if (mark[root] != kUnvisited) continue;
    enter(root);
    while (!path.empty()) {
      Frame& top = path.back();
      const std::span<const Id> nodes = egraph.nodes_of(top.eclass);
      if (top.node_index == nodes.size()) {
        mark[top.eclass] = kFinished;
        path.pop_back();
        continue;
      }
      const Id node = nodes[top.node_index];
      const std::span<const Id> children = egraph.node(node).children;
      if (egraph.blacklisted(node) || top.child_index == children.size()) {
        ++top.node_index;
        top.child_index = 0;
        continue;
      }
      const Id child = egraph.find(children[top.child_index++]);
      if (mark[child] == kFinished) continue;
      if (mark[child] == kUnvisited) {
        enter(child);
        continue;
      }
      // A class on the path: the e-nodes walked from it down to here form a cycle.
      const std::uint32_t base = mark[child];
      cycle.clear();
      for (std::size_t i = base; i < path.size(); ++i)
        cycle.push_back(egraph.nodes_of(path[i].eclass)[path[i].node_index]);
      const std::size_t broken = on_cycle(std::span<const Id>(cycle));
      if (broken == kStopCycleSearch) return;
      MCTSAT_ASSERT(broken < cycle.size() && egraph.blacklisted(cycle[broken]));
      while (path.size() > base + broken + 1) {
        mark[path.back().eclass] = kUnvisited;
        path.pop_back();
      }
    }
  }
}

}  // namespace detail

// The e-nodes of one cycle reachable from `roots` (in path order; each e-node's class holds the
// previous e-node's child), or an empty vector when there is none. The e-graph must be clean.
template <class Analysis>
std::vector<Id> find_cycle(const EGraph<Analysis>& egraph, std::span<const Id> roots) {
  std::vector<Id> found;
  detail::search_cycles(egraph, roots, [&](std::span<const Id> cycle) {
    found.assign(cycle.begin(), cycle.end());
    return detail::kStopCycleSearch;
  });
  return found;
}

// Whether any cycle is reachable from any class.
template <class Analysis>
bool has_cycle(const EGraph<Analysis>& egraph) {
  return !find_cycle(egraph, egraph.classes()).empty();
}

// Blacklists the newest e-node (the largest id) of each cycle reachable from `roots` until none
// remains; returns how many e-nodes it blacklisted. The e-graph must be clean and stays clean.
template <class Analysis>
std::size_t remove_cycles(EGraph<Analysis>& egraph, std::span<const Id> roots) {
  std::size_t removed = 0;
  detail::search_cycles(egraph, roots, [&](std::span<const Id> cycle) {
    const auto newest = std::max_element(cycle.begin(), cycle.end());
    egraph.blacklist(*newest);
    ++removed;
    return static_cast<std::size_t>(newest - cycle.begin());
  });
  return removed;
}

// The same, from every class.
template <class Analysis>
std::size_t remove_cycles(EGraph<Analysis>& egraph) {
  return remove_cycles(egraph, egraph.classes());
}

}  // namespace mctsat::egraph
