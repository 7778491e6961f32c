// The cost-model kinds are named once (kCostModelNames): the study schema lists exactly them, every
// kind builds a model from its spec, and the study's default names and record keys follow the kind.
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "runtime/cost_model_factory.hpp"
#include "support/error.hpp"

using namespace mctsat;
using nlohmann::json;

TEST_CASE("bench/configs/schema.json lists the cost-model kinds of the table") {
  std::ifstream file(std::string(MCTSAT_SOURCE_DIR) + "/bench/configs/schema.json");
  REQUIRE(file);
  const json schema = json::parse(file);
  CHECK(schema["properties"]["cost_models"]["items"]["properties"]["model"]["enum"] ==
        json(names_of(runtime::kCostModelNames)));
}

TEST_CASE("each kind builds its model, names it and records what it reads") {
  const runtime::CostModelSpec roofline;
  CHECK(roofline.kind == runtime::CostModelKind::kRoofline);
  CHECK(runtime::make_cost_model(roofline)->name() == "roofline(v100)");
  CHECK(runtime::default_cost_model_name(roofline) == "roofline-v100");
  CHECK(runtime::cost_model_spec_json(roofline) == json{{"model", "roofline"}, {"device", "v100"}});

  runtime::CostModelSpec table;
  table.kind = runtime::CostModelKind::kTable;
  CHECK_THROWS_AS(runtime::make_cost_model(table), Error);  // a table needs its file
  table.table = "costs/my-gpu.json";
  CHECK(runtime::default_cost_model_name(table) == "table-my-gpu");
  CHECK(runtime::cost_model_spec_json(table) ==
        json{{"model", "table"}, {"table", "costs/my-gpu.json"}, {"fallback", false}});

  runtime::CostModelSpec measured;
  measured.kind = runtime::CostModelKind::kMeasured;
  CHECK(runtime::default_cost_model_name(measured) == "measured");
  CHECK(runtime::cost_model_spec_json(measured) == json{{"model", "measured"}});

  CHECK(parse_name(runtime::kCostModelNames, "measured", "cost model") ==
        runtime::CostModelKind::kMeasured);
  try {
    parse_name(runtime::kCostModelNames, "gpu", "cost model");
    FAIL("an unknown kind parsed");
  } catch (const Error& e) {
    CHECK(e.message() == "unknown cost model 'gpu' (known: roofline, table, measured)");
  }
}
