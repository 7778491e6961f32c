// Cycle filtering before a rewrite applies (TENSAT's pre-check), usable as ApplyOptions::filter.
// A match is rejected when one of its root classes is reachable from a class bound to one of its
// variables (any bound variable, conservatively; a path of length zero counts): the right-hand
// side's new e-nodes would point down at that class, so merging them into the root would close a
// cycle. Reachability goes down through the children of live, non-blacklisted e-nodes.
//
// `prepare` snapshots the e-graph once per iteration, on the clean e-graph right before the apply
// phase: class-to-child edges and a level per class, the height of its strongly connected
// component in the condensation (0 for components that reach no other). Every edge goes from a
// class to one of no greater level, and to a strictly smaller one unless both share a component,
// so a root whose level exceeds every variable's is answered without a search; otherwise a
// depth-first search from the variables, pruned below the lowest root level and marking visits
// with a per-check generation stamp (no clearing), decides.
//
// Checks see the e-graph as prepared: cycles closed only by several matches of one iteration
// together, or by right-hand sides that are a variable or an existing descendant of the root
// (e.g. (g (f ?x)) => ?x, which makes the class reachable from itself by the rule's own meaning),
// are left to the post-iteration pass of cycles.hpp. `use_cycle_filtering` wires both into a
// Runner.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "egraph/cycles.hpp"
#include "egraph/egraph.hpp"
#include "egraph/runner.hpp"
#include "support/error.hpp"

namespace mctsat::egraph {

template <class Analysis>
class CycleFilter {
 public:
  // Snapshots the (clean) e-graph: edges, strongly connected components and levels.
  void prepare(const EGraph<Analysis>& egraph) {
    MCTSAT_ASSERT(egraph.clean());
    build_edges(egraph);
    compute_levels(egraph);
    prepared_ = true;
  }

  // The filter: true keeps the match (no root reachable from a bound variable).
  bool operator()(const EGraph<Analysis>&, std::span<const Id> roots, std::span<const Id> subst) {
    return !reaches(subst, roots);
  }

  // Whether some target class is reachable (by a path of length >= 0) from some source class in
  // the prepared e-graph; kNoId entries are ignored. For callers that know a right-hand side and
  // can pass exactly the classes its new e-nodes point at.
  bool reaches(std::span<const Id> sources, std::span<const Id> targets) {
    MCTSAT_ASSERT(prepared_ && "CycleFilter::prepare must run before the apply phase");
    ++checks_;
    next_generation();
    std::uint32_t min_level = std::numeric_limits<std::uint32_t>::max();
    for (Id target : targets) {
      if (target == kNoId) continue;
      const Id t = snapshot_class(target);
      target_stamp_[t] = generation_;
      min_level = std::min(min_level, level_[t]);
    }
    // Fast path: a class reaches only classes of no greater level.
    stack_.clear();
    for (Id source : sources) {
      // Classes created after prepare() (e.g. literal classes a rule's binder added during this
      // apply phase) have no prepared edges; the post-iteration pass covers what they close.
      if (source == kNoId || source >= canonical_.size()) continue;
      const Id s = snapshot_class(source);
      if (target_stamp_[s] == generation_) return true;
      if (level_[s] < min_level || visit_stamp_[s] == generation_) continue;
      visit_stamp_[s] = generation_;
      stack_.push_back(s);
    }
    if (stack_.empty()) return false;
    ++searches_;
    while (!stack_.empty()) {
      const Id eclass = stack_.back();
      stack_.pop_back();
      for (std::uint32_t e = edge_begin_[eclass]; e < edge_begin_[eclass + 1]; ++e) {
        const Id child = edges_[e];
        if (target_stamp_[child] == generation_) return true;
        if (level_[child] < min_level || visit_stamp_[child] == generation_) continue;
        visit_stamp_[child] = generation_;
        stack_.push_back(child);
      }
    }
    return false;
  }

  bool prepared() const { return prepared_; }
  // The prepared level of a class (see above) and its strongly connected component; classes of
  // one component reach each other, so a component of two or more classes (or a class with an
  // edge to itself) is a cycle.
  std::uint32_t level(Id eclass) const { return level_[snapshot_class(eclass)]; }
  std::uint32_t component(Id eclass) const { return component_[snapshot_class(eclass)]; }
  // The prepared classes a class points at through its live, non-blacklisted e-nodes (each once).
  std::span<const Id> children(Id eclass) const {
    const Id c = snapshot_class(eclass);
    return {edges_.data() + edge_begin_[c], edges_.data() + edge_begin_[c + 1]};
  }
  // Counters since construction: checks made, and checks that needed a search.
  std::size_t checks() const { return checks_; }
  std::size_t searches() const { return searches_; }

 private:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

  Id snapshot_class(Id id) const {
    MCTSAT_ASSERT(id < canonical_.size() && "a class the CycleFilter was not prepared for");
    return canonical_[id];
  }

  void next_generation() {
    if (++generation_ == 0) {  // wrapped: forget every stamp once
      std::fill(visit_stamp_.begin(), visit_stamp_.end(), 0);
      std::fill(target_stamp_.begin(), target_stamp_.end(), 0);
      generation_ = 1;
    }
  }

  // Compressed adjacency by class id: the distinct child classes of each class's live,
  // non-blacklisted e-nodes.
  void build_edges(const EGraph<Analysis>& egraph) {
    const std::size_t ids = egraph.num_ids();
    canonical_.resize(ids);
    for (Id id = 0; id < ids; ++id) canonical_[id] = egraph.find(id);
    edge_begin_.assign(ids + 1, 0);
    edges_.clear();
    // Generation stamps dedupe children; resetting them keeps the stamps of earlier checks valid.
    visit_stamp_.assign(ids, 0);
    target_stamp_.assign(ids, 0);
    generation_ = 0;
    std::vector<std::uint32_t>& seen = visit_stamp_;
    std::uint32_t stamp = 0;
    Id next = 0;
    for (Id eclass : egraph.classes()) {
      for (; next <= eclass; ++next) edge_begin_[next] = static_cast<std::uint32_t>(edges_.size());
      ++stamp;
      for (Id node : egraph.nodes_of(eclass)) {
        if (egraph.blacklisted(node)) continue;
        for (Id child : egraph.node(node).children) {
          const Id c = canonical_[child];
          if (seen[c] == stamp) continue;
          seen[c] = stamp;
          edges_.push_back(c);
        }
      }
    }
    for (; next <= ids; ++next) edge_begin_[next] = static_cast<std::uint32_t>(edges_.size());
    std::fill(seen.begin(), seen.end(), 0);
  }

  // Tarjan's strongly connected components, iteratively. A component completes only after every
  // component it reaches, so its level is known from its members' edges when it completes.
  void compute_levels(const EGraph<Analysis>& egraph) {
    const std::size_t ids = canonical_.size();
    index_.assign(ids, kNone);
    low_.assign(ids, 0);
    component_.assign(ids, kNone);
    level_.assign(ids, 0);
    on_stack_.assign(ids, 0);
    members_.clear();
    struct Frame {
      Id eclass;
      std::uint32_t edge;
    };
    std::vector<Frame> calls;
    std::uint32_t counter = 0, components = 0;
    auto open = [&](Id c) {
      index_[c] = low_[c] = counter++;
      members_.push_back(c);
      on_stack_[c] = 1;
      calls.push_back({c, edge_begin_[c]});
    };
    for (Id start : egraph.classes()) {
      if (index_[start] != kNone) continue;
      open(start);
      while (!calls.empty()) {
        Frame& frame = calls.back();
        const Id c = frame.eclass;
        if (frame.edge < edge_begin_[c + 1]) {
          const Id w = edges_[frame.edge++];
          if (index_[w] == kNone) {
            open(w);
          } else if (on_stack_[w]) {
            low_[c] = std::min(low_[c], index_[w]);
          }
          continue;
        }
        calls.pop_back();
        if (!calls.empty())
          low_[calls.back().eclass] = std::min(low_[calls.back().eclass], low_[c]);
        if (low_[c] != index_[c]) continue;
        // c roots a component: its members are on top of the member stack.
        const auto first = std::find(members_.rbegin(), members_.rend(), c).base() - 1;
        for (auto it = first; it != members_.end(); ++it) {
          component_[*it] = components;
          on_stack_[*it] = 0;
        }
        std::uint32_t level = 0;
        for (auto it = first; it != members_.end(); ++it)
          for (std::uint32_t e = edge_begin_[*it]; e < edge_begin_[*it + 1]; ++e)
            if (component_[edges_[e]] != components) level = std::max(level, level_[edges_[e]] + 1);
        for (auto it = first; it != members_.end(); ++it) level_[*it] = level;
        members_.erase(first, members_.end());
        ++components;
      }
    }
  }

  bool prepared_ = false;
  std::vector<Id> canonical_;  // by id: its class when prepared
  std::vector<std::uint32_t> edge_begin_;
  std::vector<Id> edges_;
  std::vector<std::uint32_t> level_, component_;
  std::vector<std::uint32_t> index_, low_;  // Tarjan's, by class
  std::vector<std::uint8_t> on_stack_;
  std::vector<Id> members_;  // Tarjan's component stack
  std::vector<std::uint32_t> visit_stamp_, target_stamp_;
  std::uint32_t generation_ = 0;
  std::vector<Id> stack_;
  std::size_t checks_ = 0, searches_ = 0;
};

// Cycle filtering for a Runner: the filter prepared before every apply phase, and after every
// rebuild the newest e-node of each cycle reachable from `roots` (e.g. the graph's outputs; every
// class when empty) blacklisted. Returns the filter (shared with the options) for its counters.
template <class Analysis>
std::shared_ptr<CycleFilter<Analysis>> use_cycle_filtering(RunnerOptions<Analysis>& options,
                                                           std::vector<Id> roots) {
  auto filter = std::make_shared<CycleFilter<Analysis>>();
  options.before_apply = [filter](const EGraph<Analysis>& egraph) { filter->prepare(egraph); };
  options.apply.filter = [filter](const EGraph<Analysis>& egraph, std::span<const Id> matched,
                                  std::span<const Id> subst) {
    return (*filter)(egraph, matched, subst);
  };
  options.after_rebuild = [roots = std::move(roots)](EGraph<Analysis>& egraph) {
    if (roots.empty()) {
      remove_cycles(egraph);
    } else {
      remove_cycles(egraph, roots);
    }
  };
  return filter;
}

}  // namespace mctsat::egraph
