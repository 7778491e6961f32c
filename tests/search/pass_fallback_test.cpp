// The default pipeline's fallback (search/mcts_with_taso.hpp): the result is never dearer than the
// tree search's own graph, its final state's dag extraction. With a final extractor that does
// worse than the dag extractor on that state (greedy, which prices a shared subgraph once per
// use), the result is the state's dag extraction, where the final extraction alone is dearer.
#include <doctest/doctest.h>

#include "extract/extractor.hpp"
#include "extract/tensor_problem.hpp"
#include "frontend/zoo.hpp"
#include "search/extracted_graph.hpp"
#include "search/optimizer.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

TEST_CASE("the result is never dearer than the tree search's own extraction") {
  const auto bert = frontend::build_zoo_model("bert");
  const auto& model = test_fixtures::v100_roofline();
  search::OptimizeOptions options;
  options.taso_pass.graph = search::TasoGraph::kNone;  // the final e-graph: the tree's state
  options.eqsat_pass = false;
  options.final_extract = extract::ExtractorKind::kGreedy;
  double tree_cost = 0, greedy_cost = 0;
  options.final_egraph = [&](const tensor::TensorEGraph& state) {
    const auto tree =
        search::dag_extracted_graph(state, model, search::SearchLimits{}.memory_bytes);
    REQUIRE(tree);
    tree_cost = tree->cost;
    greedy_cost = extract::make_extractor(extract::ExtractorKind::kGreedy)
                      ->extract(extract::problem_from_tensor(state, model))
                      .dag_cost;
  };
  const search::OptimizeResult result =
      search::optimize(*bert, test_fixtures::taso_rules(), model, options);
  REQUIRE(greedy_cost > tree_cost * (1 + 1e-6));  // the premise: greedy does worse here
  CHECK(result.kept_fallback);
  CHECK(result.record.at("fallback") == "tree");
  CHECK(result.optimized_cost == doctest::Approx(tree_cost).epsilon(1e-9));
}
