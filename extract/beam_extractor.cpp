// The `beam` extractor: `dag` for an upper bound, then the frontier search.
#include "extract/beam_extractor.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "extract/dag_extractor.hpp"
#include "extract/frontier_search.hpp"

namespace mctsat::extract {

void BeamExtractor::solve(const Problem& problem, Result& result) const {
  const Result warm = DagExtractor(options_).extract(problem);
  if (warm.status == Status::kInfeasible) {
    result.status = Status::kInfeasible;
    return;
  }
  FrontierSearch search(problem);
  search.bound_classes(options_.beam_class_width, options_.beam_horizon);
  const FrontierSearch::Outcome outcome = search.search(options_.beam_width, warm.dag_cost);
  const bool found = search.exact() && outcome.cost < warm.dag_cost;
  result.choice = found ? outcome.choice : warm.choice;
  const double cost = found ? outcome.cost : warm.dag_cost;
  result.estimate = cost;
  result.evaluations = outcome.states;
  result.warm_start_kept = !found;
  // The bound can exceed the cost by rounding only.
  result.lower_bound = std::min(std::max(outcome.lower_bound, search.root_bound()), cost);
  result.status = result.lower_bound >= cost * (1 - 1e-12) ? Status::kOptimal : Status::kHeuristic;
  result.detail =
      fmt::format("{} frontiers{}, dag {:.6g}, class bound {:.6g}", outcome.states,
                  outcome.complete ? " (none dropped)" : "", warm.dag_cost, search.root_bound());
}

}  // namespace mctsat::extract
