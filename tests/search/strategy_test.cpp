// The Strategy interface: a strategy outside the built-in table (a toy: one iteration of
// saturation) runs through optimize() with no switch touched, and its traits and record reach the
// report; the built-in table's traits agree with the strategies' own and with their names.
#include <string>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/eqsat.hpp"
#include "search/optimize_report.hpp"
#include "search/optimizer.hpp"
#include "search/strategies.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

// Every rule for one iteration: the e-graph TENSAT's first iteration grows.
class OneIteration final : public search::Strategy {
 public:
  static constexpr search::StrategyTraits kTraits{
      .name = "one-iteration", .iteration = "pass", .commits_rules = false};
  const search::StrategyTraits& traits() const override { return kTraits; }

  search::StrategyResult run(const tensor::Graph& graph,
                             const search::SearchContext& context) const override {
    search::StrategyResult result;
    result.state = tensor::to_egraph(graph);
    search::EqsatOptions options;
    options.iterations = 1;
    const egraph::RunReport report =
        search::run_eqsat(result.state, context.rules, options, context.limits);
    result.stop = search::from_runner(report.stop);
    result.iterations = report.iterations.size();
    result.record["one_iteration"] = {{"nodes", result.state.egraph.num_nodes()}};
    return result;
  }
};

}  // namespace

TEST_CASE("a strategy outside the table runs through optimize and reports itself") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::Graph graph = search_graphs::projections();
  search::OptimizeOptions options;
  options.final_extract = extract::ExtractorKind::kDag;
  search::OptimizeReport report;
  report.result = search::optimize(graph, rules, model, options, OneIteration());
  report.options = options;
  const search::OptimizeResult& result = report.result;
  CHECK(result.strategy.name == "one-iteration");
  CHECK(result.iterations == 1);
  CHECK(result.optimized_cost < result.original_cost);  // the shared input's products merge
  CHECK(search_graphs::max_difference(graph, result.graph, 3) < 1e-6);

  const nlohmann::json json = report.to_json();
  CHECK(json.at("strategy") == "one-iteration");
  CHECK(json.at("iteration_name") == "pass");
  CHECK(json.at("iterations") == 1);
  CHECK(json.at("one_iteration").at("nodes") == result.nodes);
  CHECK_FALSE(json.contains("mcts"));
}

TEST_CASE("the built-in strategies' traits are their own and carry their names") {
  for (const auto& [kind, name] : search::kStrategyNames) {
    CAPTURE(std::string(name));
    search::OptimizeOptions options;
    options.strategy = kind;
    const auto strategy = search::make_strategy(options);
    CHECK(&strategy->traits() == &search::strategy_traits(kind));
    CHECK(strategy->traits().name == name);
  }
  CHECK(search::strategy_names_where(&search::StrategyTraits::builds_egraph) ==
        "eqsat, mcts, greedy");
  CHECK(search::strategy_names_where(&search::StrategyTraits::seeded) == "mcts");
}
