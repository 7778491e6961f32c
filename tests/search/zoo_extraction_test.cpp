// Extraction on a real saturated e-graph: NASRNN saturated with the TASO rules in TENSAT's
// configuration (as `mctsat optimize nasrnn --strategy eqsat` does), where the optimum switches
// whole rings of gates onto shared merged matmuls. `dag`'s chain moves (on by default) reach the
// ILP's proven optimum; without them `dag` stays at a local optimum 18.7% above it
// (bench/results/extraction.md).
#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "extract/extractor.hpp"
#include "extract/tensor_problem.hpp"
#include "frontend/zoo.hpp"
#include "search/eqsat.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

TEST_CASE("dag's chain moves reach the ILP optimum of NASRNN's saturated e-graph") {
  tensor::TensorEGraph teg = tensor::to_egraph(*frontend::build_zoo_model("nasrnn"));
  const dsl::RuleSet& rules = test_fixtures::taso_rules();
  search::run_eqsat(teg, rules, search::EqsatOptions{}, search::SearchLimits{});
  const tensor::RooflineCostModel& cost_model = test_fixtures::v100_roofline();
  const extract::Problem problem = extract::problem_from_tensor(teg, cost_model);

  extract::ExtractorOptions options;
  const extract::Result dag = extract::make_extractor("dag", options)->extract(problem);
  options.time_limit_seconds = 120;
  const extract::Result ilp = extract::make_extractor("ilp", options)->extract(problem);
  REQUIRE(ilp.status == extract::Status::kOptimal);
  CHECK(dag.dag_cost == doctest::Approx(ilp.dag_cost).epsilon(1e-9));

  options.dag_chains = false;
  const extract::Result plain = extract::make_extractor("dag", options)->extract(problem);
  CHECK(plain.dag_cost > 1.15 * ilp.dag_cost);
}
