// The paper's OCF extraction: history maps as sorted vectors of (class, cumulative cost).
#include "extract/paper_extractor.hpp"

#include <algorithm>
#include <cmath>

#include "extract/acyclic_repair.hpp"
#include "extract/fixpoint.hpp"
#include "tensor/memory_budget.hpp"

namespace mctsat::extract {
namespace {

using History = std::vector<std::pair<Index, double>>;

bool contains(const History& history, Index eclass) {
  const auto it = std::lower_bound(history.begin(), history.end(), eclass,
                                   [](const auto& entry, Index c) { return entry.first < c; });
  return it != history.end() && it->first == eclass;
}

}  // namespace

OcfValues ocf_values(const Problem& problem) {
  OcfValues ocf;
  ocf.history.resize(problem.num_classes());
  // The histories grow with the square of a chain's length (each class's history holds every
  // class below it): their total is held to the memory budget, a clear error instead of the OOM
  // killer.
  const std::uint64_t budget = tensor::memory_budget_bytes();  // once: sysconf and getrlimit
  std::uint64_t history_bytes = 0;
  fresh_fixpoint_state(problem, ocf.value, ocf.choice);
  History scratch, merged;  // the history of the node being evaluated
  const FixpointStats stats = bottom_up_fixpoint(
      problem, ocf.value, ocf.choice,
      [&](Index node) {
        const std::span<const Index> children = problem.children(node);
        const Index eclass = problem.node_class(node);
        double total = 0;
        scratch.clear();
        for (std::size_t i = 0; i < children.size(); ++i) {
          const Index child = children[i];
          const History& child_history = ocf.history[child];
          if (i == 0) {
            total = ocf.value[child];
            scratch = child_history;
            continue;
          }
          if (contains(scratch, child)) continue;
          // One merge pass finds the overlap (classes in both) and builds the union.
          double overlap = 0;
          merged.clear();
          auto a = scratch.begin();
          auto b = child_history.begin();
          while (a != scratch.end() || b != child_history.end()) {
            if (b == child_history.end() || (a != scratch.end() && a->first < b->first)) {
              merged.push_back(*a++);
            } else if (a == scratch.end() || b->first < a->first) {
              merged.push_back(*b++);
            } else {
              overlap = std::max(overlap, b->second);
              merged.push_back(*a++);
              ++b;
            }
          }
          total += std::max(ocf.value[child] - overlap, 0.0);
          std::swap(scratch, merged);
        }
        if (contains(scratch, eclass)) return std::numeric_limits<double>::infinity();
        const double value = problem.node_cost(node) + total;
        const auto at =
            std::lower_bound(scratch.begin(), scratch.end(), eclass,
                             [](const auto& entry, Index c) { return entry.first < c; });
        scratch.insert(at, {eclass, value});
        return value;
      },
      [&](Index node, double) {
        History& kept = ocf.history[problem.node_class(node)];
        constexpr std::uint64_t kEntry = sizeof(History::value_type);
        history_bytes = history_bytes + scratch.capacity() * kEntry - kept.capacity() * kEntry;
        // Twice the histories: the merges copy them.
        if (2 * history_bytes > budget)
          tensor::check_memory_budget(2 * history_bytes, "the paper extractor's histories", {});
        std::swap(kept, scratch);
      });
  ocf.evaluations = stats.evaluations;
  ocf.improvements = stats.improvements;
  return ocf;
}

void PaperExtractor::solve(const Problem& problem, Result& result) const {
  OcfValues ocf = ocf_values(problem);
  result.evaluations = ocf.evaluations;
  result.improvements = ocf.improvements;
  double estimate = 0;
  for (Index root : problem.roots()) estimate += ocf.value[root];
  Choice choice = std::move(ocf.choice);
  repair_choice(problem, choice);
  for (Index root : problem.roots()) {
    if (choice[root] == kNone) {
      result.status = Status::kInfeasible;
      return;
    }
  }
  result.estimate = estimate;
  result.status = Status::kHeuristic;
  result.choice = std::move(choice);
}

}  // namespace mctsat::extract
