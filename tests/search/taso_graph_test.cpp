// The default search (MCTS, with TASO's best graph added to its final e-graph; here with a smaller
// tree and node limit than the default's) on chains of six products sharing an input, with the
// TASO rules. Merging the products into one takes five merges
// in a row: MCTS alone, whose actions apply a rule to all its matches at once, fills the e-graph
// with combinations of partial merges and stops before the chain completes. The default search
// merges it fully, is never worse than MCTS alone or TASO alone, computes the same outputs, and is
// deterministic for a seed (also with TASO's pass and the tree search side by side on two
// threads), and its TASO pass stops at its patience.
#include <string>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/optimizer.hpp"
#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/search/strategy_records.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;
using namespace mctsat::tensor;

namespace {

// x * w_i for six weights w_i (each followed by a relu when asked), each an output.
Graph six_products(bool relu) {
  GraphBuilder b;
  const TensorRef x = b.input("x", {64, 256});
  for (int i = 0; i < 6; ++i) {
    const TensorRef product = b.matmul(x, b.weight("w" + std::to_string(i), {256, 256}));
    b.output("y" + std::to_string(i), relu ? b.relu(product) : product);
  }
  return std::move(b).finish();
}

std::size_t products(const Graph& graph) {
  const GraphStats stats = graph_stats(graph);
  const auto found = stats.by_op.find(Op::kMatmul);
  return found == stats.by_op.end() ? 0 : found->second;
}

search::OptimizeResult optimize(const Graph& graph, const std::string& taso_graph,
                                const std::string& strategy = "mcts") {
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  search::OptimizeOptions options;
  options.strategy = parse_name(search::kStrategyNames, strategy, "strategy");
  options.taso_pass.graph = parse_name(search::kTasoGraphNames, taso_graph, "taso_graph");
  options.eqsat_pass = false;     // TASO's pass and the tree search only
  options.mcts.simulations = 32;  // a smaller tree than the default's, for time
  options.mcts.node_limit = 2'000;
  options.taso.budget = 200;
  return search::optimize(graph, test_fixtures::taso_rules(), model, options);
}

}  // namespace

TEST_CASE("the default search merges a chain of six products where whole-rule actions stop") {
  REQUIRE(search::OptimizeOptions().strategy == search::StrategyKind::kMcts);
  REQUIRE(search::OptimizeOptions().taso_pass.graph == search::TasoGraph::kFinal);
  const std::string mode = "final";
  const Graph graph = six_products(false);
  const search::OptimizeResult found = optimize(graph, mode);
  CHECK(products(found.graph) == 1);
  CHECK(search_graphs::max_difference(graph, found.graph, 3) < 1e-6);

  const search::OptimizeResult alone = optimize(graph, "none");  // one rule on all its matches
  CHECK(products(alone.graph) > 1);
  CHECK(alone.optimized_cost > found.optimized_cost);
}

TEST_CASE("the default search is never worse than mcts alone or taso alone") {
  const Graph graph = six_products(true);
  const search::OptimizeResult found = optimize(graph, "final");
  const search::OptimizeResult alone = optimize(graph, "none");
  const search::OptimizeResult taso = optimize(graph, "none", "taso");
  CHECK(found.optimized_cost <= alone.optimized_cost * (1 + 1e-12));
  CHECK(found.optimized_cost <= taso.optimized_cost * (1 + 1e-12));
  CHECK(search_graphs::max_difference(graph, found.graph, 3) < 1e-6);
  // Seeding the initial e-graph instead steers the tree search elsewhere; TASO's graph still
  // bounds the result.
  const search::OptimizeResult seeded = optimize(graph, "seed");
  CHECK(seeded.optimized_cost <= taso.optimized_cost * (1 + 1e-12));
  CHECK(search_graphs::max_difference(graph, seeded.graph, 3) < 1e-6);
}

TEST_CASE("the default search is deterministic for a seed") {
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = six_products(true);
  search::OptimizeOptions options;
  options.mcts.seed = 3;
  options.mcts.simulations = 32;
  options.mcts.node_limit = 2'000;
  options.taso.budget = 20;
  const search::OptimizeResult first =
      search::optimize(graph, test_fixtures::taso_rules(), model, options);
  const search::OptimizeResult second =
      search::optimize(graph, test_fixtures::taso_rules(), model, options);
  CHECK(first.optimized_cost == second.optimized_cost);
  CHECK(strategy_records::taso(first).at("explored").get<std::size_t>() == 20);
  REQUIRE(strategy_records::mcts_steps(first).size() ==
          strategy_records::mcts_steps(second).size());
  CHECK_FALSE(strategy_records::mcts_steps(first).empty());
  for (std::size_t i = 0; i < strategy_records::mcts_steps(first).size(); ++i)
    CHECK(strategy_records::mcts_steps(first)[i].rule ==
          strategy_records::mcts_steps(second)[i].rule);
}

TEST_CASE("on two threads the taso pass runs beside the tree search, with one thread's result") {
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = six_products(true);
  search::OptimizeOptions options;
  options.mcts.simulations = 32;
  options.mcts.node_limit = 2'000;
  options.mcts.batch = 2;
  options.taso.budget = 40;
  const search::OptimizeResult one =
      search::optimize(graph, test_fixtures::taso_rules(), model, options);
  options.limits.threads = 2;
  const search::OptimizeResult two =
      search::optimize(graph, test_fixtures::taso_rules(), model, options);
  CHECK(two.optimized_cost == one.optimized_cost);
  REQUIRE(two.record.contains("taso"));
  CHECK(strategy_records::taso(two).at("explored").get<std::size_t>() ==
        strategy_records::taso(one).at("explored").get<std::size_t>());
  CHECK(strategy_records::taso(two).at("cost_ms").get<double>() ==
        strategy_records::taso(one).at("cost_ms").get<double>());
  REQUIRE(strategy_records::mcts_steps(two).size() == strategy_records::mcts_steps(one).size());
  for (std::size_t i = 0; i < strategy_records::mcts_steps(one).size(); ++i)
    CHECK(strategy_records::mcts_steps(two)[i].rule == strategy_records::mcts_steps(one)[i].rule);
  CHECK(search_graphs::max_difference(graph, two.graph, 3) < 1e-6);
}

TEST_CASE("the default search's taso pass stops at its patience; the taso strategy has none") {
  REQUIRE(search::OptimizeOptions().taso_pass.patience > 0);
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = six_products(true);
  search::OptimizeOptions options;
  options.mcts.simulations = 8;
  options.mcts.node_limit = 500;
  options.taso.budget = 30;
  options.taso_pass.patience = 1;
  const search::OptimizeResult hasty =
      search::optimize(graph, test_fixtures::taso_rules(), model, options);
  REQUIRE(hasty.record.contains("taso"));
  CHECK(strategy_records::taso(hasty).at("stop_reason") == "patience");
  CHECK(strategy_records::taso(hasty).at("explored").get<std::size_t>() ==
        strategy_records::taso(hasty).at("best_explored").get<std::size_t>() + 1);
  CHECK(search_graphs::max_difference(graph, hasty.graph, 3) < 1e-6);

  options.strategy = search::StrategyKind::kTaso;
  const search::OptimizeResult taso =
      search::optimize(graph, test_fixtures::taso_rules(), model, options);
  REQUIRE(taso.record.contains("taso"));
  CHECK(strategy_records::taso(taso).at("stop_reason") != "patience");
  CHECK(strategy_records::taso(taso).at("explored").get<std::size_t>() >
        strategy_records::taso(hasty).at("explored").get<std::size_t>());
}
