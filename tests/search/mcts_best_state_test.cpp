// MCTS's best_state: the search is the same, and it returns the committed state with the lowest
// reward cost (the earliest of equals) instead of the last one. A reward that first falls, then
// rises with the e-graph's size makes the last committed state worse than an earlier one.
#include <cstdlib>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/mcts.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

search::MctsResult run(bool best_state) {
  const dsl::RuleSet& rules = test_fixtures::taso_rules();
  const tensor::TensorEGraph initial = tensor::to_egraph(search_graphs::projections());
  const double target = static_cast<double>(initial.egraph.num_nodes()) + 40;
  // Lowest at `target` e-nodes: growing past it costs again.
  const search::StateCost cost = [target](const tensor::TensorEGraph& state) {
    return std::abs(static_cast<double>(state.egraph.num_nodes()) - target);
  };
  search::MctsOptions options;
  options.simulations = 8;
  options.rollout_depth = 2;
  options.max_steps = 8;
  options.stop_without_gain = false;  // keep committing past the cheapest state
  options.seed = 5;
  options.best_state = best_state;
  return search::run_mcts(initial, rules, cost, options, search::SearchLimits{});
}

}  // namespace

TEST_CASE("mcts with best_state returns the cheapest committed state, the search unchanged") {
  const search::MctsResult last = run(false);
  const search::MctsResult best = run(true);
  REQUIRE(last.steps.size() == best.steps.size());
  for (std::size_t i = 0; i < last.steps.size(); ++i) {
    CHECK(last.steps[i].rule == best.steps[i].rule);
    CHECK(last.steps[i].cost == best.steps[i].cost);
  }
  CHECK(last.state_steps == last.steps.size());
  CHECK(last.state.egraph.num_nodes() == last.steps.back().nodes);

  // The earliest committed state with the lowest cost (0: the initial state).
  std::size_t cheapest = 0;
  double cheapest_cost = best.initial_cost;
  for (std::size_t i = 0; i < best.steps.size(); ++i)
    if (best.steps[i].cost < cheapest_cost) {
      cheapest_cost = best.steps[i].cost;
      cheapest = i + 1;
    }
  REQUIRE(cheapest > 0);
  REQUIRE(cheapest < best.steps.size());  // a later step costs more: the two differ
  CHECK(best.state_steps == cheapest);
  CHECK(best.state.egraph.num_nodes() == best.steps[cheapest - 1].nodes);
  CHECK(best.state.egraph.num_nodes() < last.state.egraph.num_nodes());
}
