// The cost-model kinds are named once (kCostModelNames): the study schema lists exactly them, every
// kind builds a model from its spec, and the study's default names and record keys follow the kind.
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "study/cost_model_factory.hpp"
#include "support/error.hpp"
#include "tensor/cost_model.hpp"

using namespace mctsat;
using nlohmann::json;

TEST_CASE("bench/configs/schema.json lists the cost-model kinds of the table") {
  std::ifstream file(std::string(MCTSAT_SOURCE_DIR) + "/bench/configs/schema.json");
  REQUIRE(file);
  const json schema = json::parse(file);
  CHECK(schema["properties"]["cost_models"]["items"]["properties"]["model"]["enum"] ==
        json(names_of(study::kCostModelNames)));
}

TEST_CASE("each kind builds its model, names it and records what it reads") {
  const study::CostModelSpec roofline;
  CHECK(roofline.kind == study::CostModelKind::kRoofline);
  CHECK(study::make_cost_model(roofline)->name() == "roofline(v100)");
  CHECK(study::default_cost_model_name(roofline) == "roofline-v100");
  CHECK(study::cost_model_spec_json(roofline) == json{{"model", "roofline"}, {"device", "v100"}});

  study::CostModelSpec table;
  table.kind = study::CostModelKind::kTable;
  CHECK_THROWS_AS(study::make_cost_model(table), Error);  // a table needs its file
  table.table = "costs/my-gpu.json";
  CHECK(study::default_cost_model_name(table) == "table-my-gpu");
  CHECK(study::cost_model_spec_json(table) ==
        json{{"model", "table"}, {"table", "costs/my-gpu.json"}, {"fallback", false}});

  study::CostModelSpec measured;
  measured.kind = study::CostModelKind::kMeasured;
  CHECK(study::default_cost_model_name(measured) == "measured");
  CHECK(study::cost_model_spec_json(measured) == json{{"model", "measured"}});

  study::CostModelSpec onnxruntime;
  onnxruntime.kind = study::CostModelKind::kOnnxRuntime;
  onnxruntime.runtime_fusions = tensor::RuntimeFusions::kOnnxRuntime;
  CHECK(study::default_cost_model_name(onnxruntime) == "onnxruntime-onnxruntime");
  CHECK(study::cost_model_spec_json(onnxruntime) ==
        json{{"model", "onnxruntime"}, {"runtime_fusions", "onnxruntime"}});

  CHECK(parse_name(study::kCostModelNames, "measured", "cost model") ==
        study::CostModelKind::kMeasured);
  try {
    parse_name(study::kCostModelNames, "gpu", "cost model");
    FAIL("an unknown kind parsed");
  } catch (const Error& e) {
    CHECK(e.message() == "unknown cost model 'gpu' (known: roofline, table, measured, onnxruntime)");
  }
}
