// The bottom-up fixpoint shared by the greedy extractors (greedy, paper, and dag's first phase):
// every class holds the value of its best node so far; a node is evaluated once all its children
// have a value, and again whenever one of them improves; a class takes a node whose value is
// strictly lower than its own. A FIFO worklist, seeded with the leaves in node order, makes the
// result deterministic. With values that never fall below a child's value (tree costs) the
// chosen nodes form no cycle; the other extractors guard against cycles themselves.
#pragma once

#include <cmath>
#include <cstddef>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

struct FixpointStats {
  std::size_t evaluations = 0;
  std::size_t improvements = 0;
};

// `evaluate(node)` returns the node's value from its children's current state (+infinity to
// reject it); `commit(node, value)` is called when the node becomes its class's best, before
// `value` and `choice` are updated and its class's parents queued.
//
// `value` and `choice` come in initialized, one entry per class: a class with a finite value is
// fixed (its nodes are never evaluated, its value and choice never change; fixed classes must
// only depend on fixed classes); the others start at +infinity.
template <class Evaluate, class Commit>
FixpointStats bottom_up_fixpoint(const Problem& problem, std::vector<double>& value, Choice& choice,
                                 Evaluate&& evaluate, Commit&& commit) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  const std::size_t classes = problem.num_classes(), nodes = problem.num_nodes();
  MCTSAT_ASSERT(value.size() == classes && choice.size() == classes);
  // Per node: children classes still without a value; whether it waits in the queue.
  std::vector<std::uint32_t> missing(nodes, 0);
  std::vector<std::uint8_t> queued(nodes, 0);
  std::deque<Index> queue;
  for (Index eclass = 0; eclass < classes; ++eclass) {
    if (value[eclass] != kInf) continue;
    for (Index node : problem.candidates(eclass)) {
      std::uint32_t count = 0;
      for (Index child : problem.unique_children(node)) count += value[child] == kInf ? 1 : 0;
      missing[node] = count;
      if (count == 0) {
        queue.push_back(node);
        queued[node] = 1;
      }
    }
  }
  FixpointStats stats;
  while (!queue.empty()) {
    const Index node = queue.front();
    queue.pop_front();
    queued[node] = 0;
    ++stats.evaluations;
    const Index eclass = problem.node_class(node);
    const double v = evaluate(node);
    MCTSAT_ASSERT(!std::isnan(v));
    if (!(v < value[eclass])) continue;
    commit(node, v);
    const bool first = value[eclass] == kInf;
    value[eclass] = v;
    choice[eclass] = node;
    ++stats.improvements;
    for (Index parent : problem.parents(eclass)) {
      if (first && --missing[parent] != 0) continue;
      if (!first && missing[parent] != 0) continue;
      if (!queued[parent]) {
        queued[parent] = 1;
        queue.push_back(parent);
      }
    }
  }
  return stats;
}

// The same values in Knuth's order (Dijkstra's algorithm generalized to superior functions), for
// values that never fall below a child's: the class of lowest tentative value is finalized next,
// and a node is evaluated once, when its last child class is finalized. Each node is evaluated at
// most once, and a class's chosen node only uses classes finalized before it, so the choice is
// acyclic (a node on a cycle of unfinalized classes is never evaluated). `value` and `choice`
// come in as for bottom_up_fixpoint, every class at +infinity.
template <class Evaluate, class Commit>
FixpointStats ordered_fixpoint(const Problem& problem, std::vector<double>& value, Choice& choice,
                               Evaluate&& evaluate, Commit&& commit) {
  const std::size_t classes = problem.num_classes(), nodes = problem.num_nodes();
  MCTSAT_ASSERT(value.size() == classes && choice.size() == classes);
  std::vector<std::uint32_t> missing(nodes, 0);  // per node: children classes not finalized
  std::vector<std::uint8_t> final(classes, 0);
  using Entry = std::pair<double, Index>;  // tentative value, class (ties: lower class first)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  FixpointStats stats;
  auto offer = [&](Index node) {
    ++stats.evaluations;
    const Index eclass = problem.node_class(node);
    const double v = evaluate(node);
    MCTSAT_ASSERT(!std::isnan(v));
    if (!(v < value[eclass])) return;
    commit(node, v);
    value[eclass] = v;
    choice[eclass] = node;
    ++stats.improvements;
    heap.push({v, eclass});
  };
  for (Index eclass = 0; eclass < classes; ++eclass) {
    MCTSAT_ASSERT(std::isinf(value[eclass]));
    for (Index node : problem.candidates(eclass)) {
      missing[node] = static_cast<std::uint32_t>(problem.unique_children(node).size());
      if (missing[node] == 0) offer(node);
    }
  }
  while (!heap.empty()) {
    const auto [v, eclass] = heap.top();
    heap.pop();
    if (final[eclass] || v != value[eclass]) continue;
    final[eclass] = 1;
    for (Index parent : problem.parents(eclass))
      if (--missing[parent] == 0 && !final[problem.node_class(parent)]) offer(parent);
  }
  return stats;
}

// Every class at +infinity, no choice.
inline void fresh_fixpoint_state(const Problem& problem, std::vector<double>& value,
                                 Choice& choice) {
  value.assign(problem.num_classes(), std::numeric_limits<double>::infinity());
  choice.assign(problem.num_classes(), kNone);
}

}  // namespace mctsat::extract
