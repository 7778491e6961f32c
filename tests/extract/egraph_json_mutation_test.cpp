// Mutated e-graph JSON (egraph-serialize, what `mctsat extract` reads) never crashes the reader
// or the extractors: seeded mutants of an exported tensor e-graph either load and extract or fail
// with an mctsat::Error naming the file.
#include <string>

#include <doctest/doctest.h>

#include "egraph/serialize.hpp"
#include "extract/extractor.hpp"
#include "extract/serialized_problem.hpp"
#include "extract/tensor_export.hpp"
#include "frontend/model_io.hpp"
#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/json_mutations.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

TEST_CASE("mutated e-graph JSON loads and extracts, or fails with an error naming the file") {
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::TensorEGraph state = tensor::to_egraph(frontend::load_model("demo"));
  const nlohmann::json original =
      nlohmann::json::parse(egraph::to_json(extract::export_tensor_egraph(state, model)));
  SplitMix64 random(0x65677261706821);
  std::size_t loaded = 0, refused = 0;
  for (int mutant = 0; mutant < 1500; ++mutant) {
    CAPTURE(mutant);
    const std::string text =
        testing::mutate_json(original, random, 1 + static_cast<int>(random.below(3))).dump();
    try {
      const extract::Problem problem =
          extract::problem_from_serialized(egraph::from_json(text, "mutant.json"));
      for (const char* extractor : {"greedy", "dag"})
        (void)extract::make_extractor(extractor)->extract(problem);
      ++loaded;
    } catch (const Error& e) {
      CHECK_MESSAGE(std::string(e.what()).find("mutant.json") != std::string::npos,
                    std::string(e.what()));
      ++refused;
    }
  }
  CHECK(loaded > 0);
  CHECK(refused > 0);
}
