// The tree-cost greedy extractor.
#include "extract/greedy_extractor.hpp"

#include <cmath>

namespace mctsat::extract {

TreeCosts tree_costs(const Problem& problem) {
  TreeCosts result;
  std::vector<double>& cost = result.cost;
  fresh_fixpoint_state(problem, cost, result.choice);
  result.stats = bottom_up_fixpoint(
      problem, cost, result.choice,
      [&](Index node) {
        double sum = problem.node_cost(node);
        for (Index child : problem.children(node)) sum += cost[child];
        return sum;
      },
      [](Index, double) {});
  return result;
}

void GreedyExtractor::solve(const Problem& problem, Result& result) const {
  TreeCosts tree = tree_costs(problem);
  result.evaluations = tree.stats.evaluations;
  result.improvements = tree.stats.improvements;
  double estimate = 0;
  for (Index root : problem.roots()) estimate += tree.cost[root];
  if (std::isinf(estimate)) {
    result.status = Status::kInfeasible;
    return;
  }
  result.estimate = estimate;
  result.status = Status::kHeuristic;
  result.choice = std::move(tree.choice);
}

}  // namespace mctsat::extract
