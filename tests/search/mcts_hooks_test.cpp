// MCTS's hooks (search/mcts.hpp): the step hook sees every committed step and stops the search
// when it returns false; the reward function replaces max(parent cost - cost, 0).
#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/optimizer.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/search/strategy_records.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

search::OptimizeOptions small_search() {
  search::OptimizeOptions options;
  options.final_extract = extract::ExtractorKind::kDag;
  options.mcts.simulations = 16;
  options.mcts.max_steps = 4;
  options.mcts.rollout_depth = 4;
  options.taso_pass.graph = search::TasoGraph::kNone;
  return options;
}

}  // namespace

TEST_CASE("the step hook sees each committed step and can stop the search") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::Graph graph = search_graphs::projections();

  search::OptimizeOptions options = small_search();
  std::vector<std::pair<std::size_t, std::string>> seen;  // step number, rule name
  options.mcts.on_step = [&](const search::MctsStep& step, std::size_t number) {
    seen.emplace_back(number, step.rule_name);
    return true;
  };
  const search::OptimizeResult all = search::optimize(graph, rules, model, options);
  REQUIRE(strategy_records::mcts_steps(all).size() >= 2);
  REQUIRE(seen.size() == strategy_records::mcts_steps(all).size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    CHECK(seen[i].first == i + 1);
    CHECK(seen[i].second == strategy_records::mcts_steps(all)[i].rule);
  }

  options.mcts.on_step = [](const search::MctsStep&, std::size_t number) { return number < 1; };
  const search::OptimizeResult stopped = search::optimize(graph, rules, model, options);
  CHECK(strategy_records::mcts_steps(stopped).size() == 1);
  CHECK(stopped.stop == search::StopReason::kStopped);
  CHECK(strategy_records::mcts_steps(stopped)[0].rule == strategy_records::mcts_steps(all)[0].rule);
}

TEST_CASE("the reward function replaces the default reward") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::Graph graph = search_graphs::projections();

  const search::OptimizeResult default_reward =
      search::optimize(graph, rules, model, small_search());
  REQUIRE_FALSE(strategy_records::mcts_steps(default_reward).empty());

  search::OptimizeOptions options = small_search();
  options.mcts.reward = [](double parent_cost, double cost) {
    return 3 * std::max(parent_cost - cost, 0.0);
  };
  const search::OptimizeResult tripled = search::optimize(graph, rules, model, options);
  REQUIRE(strategy_records::mcts_steps(tripled).size() ==
          strategy_records::mcts_steps(default_reward).size());
  CHECK(strategy_records::mcts_steps(tripled)[0].rule ==
        strategy_records::mcts_steps(default_reward)[0].rule);
  CHECK(strategy_records::mcts_steps(tripled)[0].mean_value ==
        doctest::Approx(3 * strategy_records::mcts_steps(default_reward)[0].mean_value));

  options.mcts.reward = [](double, double) { return 0.0; };  // nothing ever pays
  const search::OptimizeResult nothing = search::optimize(graph, rules, model, options);
  CHECK(strategy_records::mcts_steps(nothing).empty());
  CHECK(nothing.stop == search::StopReason::kNoImprovement);
}
