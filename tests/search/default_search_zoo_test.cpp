// The default search (`mctsat optimize MODEL`: MCTS with TASO's best graph added to its final
// e-graph, ILP extraction, V100 roofline) on zoo models, pinned: a change that makes it find
// worse graphs fails here. The optimized costs are those the default search found when this test
// was written; on BERT it reaches the best cost known (bench/results/best-known.md). Its TASO pass
// stops at its patience, long before its budget, having found the graph the whole budget finds.
#include <string>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "frontend/zoo.hpp"
#include "search/optimizer.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/strategy_records.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

search::OptimizeResult optimize_default(const std::string& model) {
  const dsl::RuleSet& rules = test_fixtures::taso_rules();
  const tensor::RooflineCostModel& cost_model = test_fixtures::v100_roofline();
  return search::optimize(*frontend::build_zoo_model(model), rules, cost_model,
                          search::OptimizeOptions{});
}

}  // namespace

TEST_CASE("the default search's optimized costs on BERT, NASRNN and SqueezeNet") {
  struct Pinned {
    const char* model;
    double original_ms, optimized_ms;
  };
  for (const Pinned& pinned : {Pinned{"bert", 1.4356516952866254, 0.8290899526114648},
                               Pinned{"nasrnn", 1.9918853666241991, 1.0036595016560494},
                               Pinned{"squeezenet", 0.5630495404954, 0.37606294941259727}}) {
    CAPTURE(std::string(pinned.model));
    const search::OptimizeResult result = optimize_default(pinned.model);
    CHECK(result.original_cost == doctest::Approx(pinned.original_ms).epsilon(1e-9));
    CHECK(result.optimized_cost <= pinned.optimized_ms * 1.001);
    CHECK(result.optimized_cost >= pinned.optimized_ms * 0.999);  // a gain is welcome: re-pin
    REQUIRE(result.record.contains("taso"));
    CHECK(strategy_records::taso(result).at("stop_reason") == "patience");
    if (std::string(pinned.model) == "bert") {
      // The best cost known for BERT (bench/results/best-known.md).
      const double best_known_ms = 0.8290899526114648;
      const double share =
          (result.original_cost - result.optimized_cost) / (result.original_cost - best_known_ms);
      CHECK(share >= 0.98);
    }
  }
}
