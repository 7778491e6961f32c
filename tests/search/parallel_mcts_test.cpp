// Parallel MCTS: for a seed and a wave size the search is the same whatever the thread count (also
// a wave of one simulation, whose reward extractions and candidate rules run as tasks beside it),
// and the same seed with the same thread count gives the same committed actions (on TASO's rules).
#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/optimizer.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"

using namespace mctsat;
using namespace mctsat::tensor;
using search_graphs::projections;

namespace {

struct Run {
  std::vector<std::size_t> rules;
  std::vector<double> costs;
  std::size_t simulations = 0;
  double original_cost = 0, optimized_cost = 0;
  // CPU time of the simulations and of their spans (not compared: timings)
  double simulation_seconds = 0, critical_seconds = 0;
  bool operator==(const Run& other) const {
    return rules == other.rules && costs == other.costs && simulations == other.simulations &&
           original_cost == other.original_cost && optimized_cost == other.optimized_cost;
  }
};

Run run(const dsl::RuleSet& rules, std::size_t threads, std::size_t batch) {
  const RooflineCostModel model(builtin_profile("v100"));
  search::OptimizeOptions options;
  options.extract = extract::ExtractorKind::kDag;
  options.final_extract = extract::ExtractorKind::kDag;
  options.mcts.simulations = 24;
  options.mcts.max_steps = 4;
  options.mcts.rollout_depth = 4;
  options.mcts.seed = 3;
  options.limits.threads = threads;
  options.mcts.batch = batch;
  options.taso_graph = search::TasoGraph::kNone;  // the tree search alone
  const search::OptimizeResult result = search::optimize(projections(), rules, model, options);
  Run r;
  for (const auto& step : result.mcts->steps) {
    r.rules.push_back(step.rule);
    r.costs.push_back(step.cost);
  }
  r.simulations = result.mcts->simulations;
  r.original_cost = result.original_cost;
  r.optimized_cost = result.optimized_cost;
  r.simulation_seconds = result.mcts->simulation_cpu_seconds;
  r.critical_seconds = result.mcts->critical_cpu_seconds;
  return r;
}

}  // namespace

TEST_CASE("parallel mcts is deterministic and independent of the thread count for a wave size") {
  const dsl::RuleLibrary library =
      dsl::load_rules_or_throw({std::string(MCTSAT_SOURCE_DIR) + "/rules/taso"});
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const Run sequential = run(rules, 1, 1);
  CHECK_FALSE(sequential.rules.empty());
  const Run two = run(rules, 2, 0);  // waves of 2
  CHECK(two == run(rules, 2, 0));
  CHECK(two == run(rules, 1, 2));
  CHECK_FALSE(two.rules.empty());
  CHECK(two.optimized_cost < two.original_cost);
  CHECK(sequential.optimized_cost < sequential.original_cost);
  CHECK(run(rules, 2, 1) == sequential);
  const Run four = run(rules, 2, 4);
  CHECK(four == run(rules, 1, 4));
  CHECK(four.simulations == sequential.simulations);
}

TEST_CASE(
    "a simulation's span overlaps each reward extraction with the search for the next state") {
  const dsl::RuleLibrary library =
      dsl::load_rules_or_throw({std::string(MCTSAT_SOURCE_DIR) + "/rules/taso"});
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  // One simulation per wave: before the pipeline, the wave's critical path was the simulation's
  // whole CPU time; now a rollout's extractions run beside its rule applications.
  const Run sequential = run(rules, 1, 1);
  CHECK(sequential.simulation_seconds > 0);
  CHECK(sequential.critical_seconds < sequential.simulation_seconds);
}
