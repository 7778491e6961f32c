// The DAG-aware greedy with bitset cost sets, and the `dag` extractor around it.
#include "extract/dag_extractor.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "extract/acyclic_repair.hpp"
#include "extract/fixpoint.hpp"
#include "extract/greedy_extractor.hpp"
#include "extract/local_search.hpp"

namespace mctsat::extract {

DagGreedyValues dag_greedy_values(const Problem& problem, std::size_t max_set_bytes) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  DagGreedyValues out;
  const std::size_t classes = problem.num_classes();
  const std::size_t words = (classes + 63) / 64;
  if (words * 8 * classes > max_set_bytes) return out;

  std::vector<std::vector<std::uint64_t>> sets(classes);  // by class, allocated on first value
  std::vector<double> own(classes, 0);                    // by class: its chosen node's own cost
  std::vector<std::uint64_t> scratch(words);
  auto has = [](const std::vector<std::uint64_t>& set, Index eclass) {
    return ((set[eclass >> 6] >> (eclass & 63)) & 1) != 0;
  };
  fresh_fixpoint_state(problem, out.value, out.choice);
  const FixpointStats stats = bottom_up_fixpoint(
      problem, out.value, out.choice,
      [&](Index node) {
        const Index eclass = problem.node_class(node);
        const std::span<const Index> children = problem.unique_children(node);
        const double cost = problem.node_cost(node);
        if (children.empty()) {
          std::fill(scratch.begin(), scratch.end(), 0);
          scratch[eclass >> 6] |= std::uint64_t{1} << (eclass & 63);
          return cost;
        }
        // The child of greatest value counts in full; its value bounds the node's from below.
        Index base = children[0];
        for (Index child : children)
          if (out.value[child] > out.value[base]) base = child;
        double total = out.value[base];
        if (!(cost + total < out.value[eclass])) return kInf;
        if (has(sets[base], eclass)) return kInf;
        scratch = sets[base];
        for (Index child : children) {
          if (child == base) continue;
          const std::vector<std::uint64_t>& set = sets[child];
          for (std::size_t w = 0; w < words; ++w) {
            std::uint64_t fresh = set[w] & ~scratch[w];
            scratch[w] |= fresh;
            while (fresh != 0) {
              const auto bit = static_cast<Index>(std::countr_zero(fresh));
              total += own[static_cast<Index>(w * 64) + bit];
              fresh &= fresh - 1;
            }
          }
        }
        if (has(scratch, eclass)) return kInf;
        scratch[eclass >> 6] |= std::uint64_t{1} << (eclass & 63);
        return cost + total;
      },
      [&](Index node, double) {
        const Index eclass = problem.node_class(node);
        sets[eclass].swap(scratch);
        if (scratch.size() != words) scratch.assign(words, 0);
        own[eclass] = problem.node_cost(node);
      });
  out.evaluations = stats.evaluations;
  out.improvements = stats.improvements;
  return out;
}

void DagExtractor::solve(const Problem& problem, Result& result) const {
  TreeCosts tree = tree_costs(problem);
  result.evaluations = tree.stats.evaluations;
  result.improvements = tree.stats.improvements;
  for (Index root : problem.roots()) {
    if (tree.choice[root] == kNone) {
      result.status = Status::kInfeasible;  // no acyclic extraction at all
      return;
    }
  }
  const double tree_cost = dag_cost(problem, tree.choice);
  auto improve = [&](Choice& choice) {
    if (!options_.improve) return;
    const ImproveStats stats = improve_choice(problem, choice, options_.max_passes);
    result.evaluations += stats.moves_tried;
    result.improvements += stats.moves_taken;
  };

  // The DAG-aware greedy's extraction (repaired where stale sets left it cyclic; classes it left
  // without a node take the tree-cost choice as their default), improved.
  Choice choice;
  double cost = std::numeric_limits<double>::infinity();
  DagGreedyValues greedy = dag_greedy_values(problem, options_.max_set_bytes);
  if (greedy.value.empty()) {
    result.detail = "cost sets too large: started from the tree-cost greedy";
  } else {
    result.evaluations += greedy.evaluations;
    result.improvements += greedy.improvements;
    double estimate = 0;
    for (Index root : problem.roots()) estimate += greedy.value[root];
    result.estimate = estimate;
    repair_choice(problem, greedy.choice);
    for (Index eclass = 0; eclass < problem.num_classes(); ++eclass)
      if (greedy.choice[eclass] == kNone) greedy.choice[eclass] = tree.choice[eclass];
    choice = std::move(greedy.choice);
    improve(choice);
    cost = dag_cost(problem, choice);
  }
  // The tree-cost greedy's extraction, improved, when the above does not beat it (so `dag` is
  // never worse than `greedy`).
  if (!(cost < tree_cost)) {
    Choice from_tree = tree.choice;
    improve(from_tree);
    const double tree_improved = dag_cost(problem, from_tree);
    if (tree_improved < cost) {
      choice = std::move(from_tree);
      cost = tree_improved;
    }
  }
  if (std::isnan(result.estimate)) result.estimate = tree_cost;
  result.status = Status::kHeuristic;
  result.choice = std::move(choice);
}

}  // namespace mctsat::extract
