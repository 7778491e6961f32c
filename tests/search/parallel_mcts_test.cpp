// Parallel MCTS: for a seed and a wave size the search is the same whatever the thread count (also
// a wave of one simulation, whose reward extractions and candidate rules run as tasks beside it),
// and the same seed with the same thread count gives the same committed actions (on TASO's rules).
#include <doctest/doctest.h>

#include <string>

#include "dsl/rule_library.hpp"
#include "search/optimizer.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;
using namespace mctsat::tensor;
using search_graphs::projections;

namespace {

struct Run {
  std::vector<std::string> rules;  // the committed rules' names
  std::vector<double> costs;
  std::size_t simulations = 0;
  double original_cost = 0, optimized_cost = 0;
  // CPU time of the simulations, of their spans and their estimated time on 2, 4 and 8 threads
  // (not compared: timings)
  double simulation_seconds = 0, critical_seconds = 0;
  std::vector<std::pair<std::size_t, double>> scheduled_seconds;
  bool operator==(const Run& other) const {
    return rules == other.rules && costs == other.costs && simulations == other.simulations &&
           original_cost == other.original_cost && optimized_cost == other.optimized_cost;
  }
};

Run run(const dsl::RuleSet& rules, std::size_t threads, std::size_t batch) {
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  search::OptimizeOptions options;
  options.extract = extract::ExtractorKind::kDag;
  options.final_extract = extract::ExtractorKind::kDag;
  options.mcts.simulations = 24;
  options.mcts.max_steps = 4;
  options.mcts.rollout_depth = 4;
  options.mcts.seed = 3;
  options.limits.threads = threads;
  options.mcts.batch = batch;
  options.taso_pass.graph = search::TasoGraph::kNone;  // the tree search alone
  options.eqsat_pass = false;
  const search::OptimizeResult result = search::optimize(projections(), rules, model, options);
  Run r;
  const nlohmann::json& mcts = result.record.at("mcts");
  for (const auto& step : mcts["steps"]) {
    r.rules.push_back(step["rule"].get<std::string>());
    r.costs.push_back(step["cost_ms"].get<double>());
  }
  r.simulations = mcts["simulations"].get<std::size_t>();
  r.original_cost = result.original_cost;
  r.optimized_cost = result.optimized_cost;
  r.simulation_seconds = mcts["simulation_cpu_seconds"].get<double>();
  r.critical_seconds = mcts["critical_cpu_seconds"].get<double>();
  for (const auto& [threads, seconds] : mcts["scheduled_cpu_seconds"].items())
    r.scheduled_seconds.emplace_back(std::stoul(threads), seconds.get<double>());
  return r;
}

}  // namespace

TEST_CASE("parallel mcts is deterministic and independent of the thread count for a wave size") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const Run sequential = run(rules, 1, 1);
  CHECK_FALSE(sequential.rules.empty());
  const Run two = run(rules, 2, 0);  // 2 in flight
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
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  // One simulation in flight: before the pipeline, the critical path was the simulation's
  // whole CPU time; now a rollout's extractions run beside its rule applications.
  const Run sequential = run(rules, 1, 1);
  CHECK(sequential.simulation_seconds > 0);
  CHECK(sequential.critical_seconds < sequential.simulation_seconds);
}

TEST_CASE("the simulations' estimated time on T threads follows the window of the batch") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  // One in flight: each simulation waits for the one before, whatever the threads.
  const Run sequential = run(rules, 1, 1);
  REQUIRE(sequential.scheduled_seconds.size() == 3);
  for (const auto& [threads, seconds] : sequential.scheduled_seconds)
    CHECK(seconds == doctest::Approx(sequential.simulation_seconds));
  // Four in flight: two threads take at least half the work and at most all of it; eight
  // threads gain nothing over four.
  const Run four = run(rules, 1, 4);
  REQUIRE(four.scheduled_seconds.size() == 3);
  CHECK(four.scheduled_seconds[0].first == 2);
  CHECK(four.scheduled_seconds[0].second >= four.simulation_seconds / 2 * 0.999);
  CHECK(four.scheduled_seconds[0].second <= four.simulation_seconds * 1.001);
  CHECK(four.scheduled_seconds[1].second <= four.scheduled_seconds[0].second);
  CHECK(four.scheduled_seconds[2].second == four.scheduled_seconds[1].second);
}
