// The default pipeline's saturation pass (search/eqsat_pass.hpp): TENSAT's saturation from the
// input graph, whose extracted graph joins the final e-graph. On BERT with TASO's rules, with a
// tree search that cannot act (a node limit below the input's e-graph) and without TASO's pass,
// the result is the pass's graph, where without the pass it is the input; the pass's record
// reports it with the rules saturation applied (the report's rules_used counts only the rules the
// pipeline chose); the pass alone is deterministic. (The optimized graphs' outputs are checked by
// the CLI's --check in bench/results/2026-12-06-eqsat-pass.)
#include <doctest/doctest.h>

#include "frontend/zoo.hpp"
#include "search/eqsat_pass.hpp"
#include "search/optimizer.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

search::OptimizeResult optimize_idle_tree(const tensor::Graph& graph, bool eqsat_pass) {
  search::OptimizeOptions options;
  options.mcts.node_limit = 1;  // the root is terminal: the tree search commits nothing
  options.taso_pass.graph = search::TasoGraph::kNone;
  options.eqsat_pass = eqsat_pass;
  return search::optimize(graph, test_fixtures::taso_rules(), test_fixtures::v100_roofline(),
                          options);
}

}  // namespace

TEST_CASE("the saturation pass's graph joins the final e-graph") {
  REQUIRE(search::OptimizeOptions().eqsat_pass);
  const auto bert = frontend::build_zoo_model("bert");
  const search::OptimizeResult without = optimize_idle_tree(*bert, false);
  CHECK(without.kept_original);
  CHECK_FALSE(without.record.contains("eqsat_pass"));

  const search::OptimizeResult with = optimize_idle_tree(*bert, true);
  REQUIRE(with.record.contains("eqsat_pass"));
  const nlohmann::json& pass = with.record.at("eqsat_pass");
  CHECK(pass.at("stop_reason") == "saturated");
  CHECK(pass.at("nodes").get<std::size_t>() > 0);
  CHECK_FALSE(with.kept_original);
  CHECK(with.optimized_cost < with.original_cost * 0.9);  // TENSAT's saturation: +17% on BERT
  CHECK(with.optimized_cost <= pass.at("cost_ms").get<double>() * (1 + 1e-9));
  CHECK(with.nodes > without.nodes);  // the pass's graph is in the final e-graph
  // The tree search committed nothing and TASO's pass did not run: rules_used is empty, and the
  // pass's record counts the rules saturation applied.
  CHECK(with.rules_used.empty());
  REQUIRE(pass.contains("rules_used"));
  REQUIRE_FALSE(pass.at("rules_used").empty());
  for (const nlohmann::json& used : pass.at("rules_used")) {
    CHECK(used.at("rule").get<std::string>() != "");
    CHECK(used.at("count").get<std::size_t>() > 0);
  }
}

TEST_CASE("the saturation pass is deterministic") {
  const auto bert = frontend::build_zoo_model("bert");
  const search::EqsatOptions options;
  const search::SearchLimits limits;
  const search::EqsatPassResult first = search::run_eqsat_pass(
      *bert, test_fixtures::taso_rules(), test_fixtures::v100_roofline(), options, limits);
  const search::EqsatPassResult second = search::run_eqsat_pass(
      *bert, test_fixtures::taso_rules(), test_fixtures::v100_roofline(), options, limits);
  REQUIRE(first.graph);
  REQUIRE(second.graph);
  CHECK(first.cost == second.cost);
  CHECK(first.record.at("nodes") == second.record.at("nodes"));
  CHECK(first.cost == doctest::Approx(first.record.at("cost_ms").get<double>()));
}
