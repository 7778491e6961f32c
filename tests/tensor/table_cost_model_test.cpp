// The table cost model: canonical keys, hits, misses (error or fallback), views without lookup,
// save/load round trips, and errors for malformed tables.
#include "tensor/table_cost_model.hpp"

#include <unistd.h>

#include <filesystem>
#include <limits>
#include <memory>

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/shape_inference.hpp"

#include "tests/tensor/op_instances.hpp"

namespace mctsat::tensor {
namespace table_cost_model_test {

using testing::f32;
using testing::Instance;
using testing::make;

Instance conv() {
  return make(Op::kConv2d, {f32({1, 64, 56, 56}), f32({64, 64, 3, 3})},
              {std::int64_t{1}, std::int64_t{1}, std::int64_t{0}, std::int64_t{2}});
}

struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("mctsat_table_cost_model_test_" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

Error parse_error(const std::string& text) {
  try {
    CostTable::parse(text, "table.json");
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for: " << text);
  return Error("");
}

TEST_CASE("cost_key: op name | attributes | input types") {
  CHECK(cost_key(conv().get()) == "conv2d|1,1,0,2|f32[1x64x56x56],f32[64x64x3x3]");
  CHECK(cost_key(make(Op::kRelu, {f32({1, 64, 56, 56})}, {}).get()) == "relu||f32[1x64x56x56]");
  CHECK(
      cost_key(make(Op::kTranspose, {f32({64, 1024})}, {std::vector<std::int64_t>{1, 0}}).get()) ==
      "transpose|[1,0]|f32[64x1024]");
  CHECK(cost_key(make(Op::kClip, {TensorType{{8}, DType::kFloat16}}, {0.0, 6.5}).get()) ==
        "clip|0,6.5|f16[8]");
  CHECK(cost_key(make(Op::kConcat, {f32({2, 3}), f32({2, 5})}, {std::int64_t{1}, std::int64_t{2}})
                     .get()) == "concat|1,2|f32[2x3],f32[2x5]");
  // Keys tell apart what the cost depends on.
  CHECK(cost_key(make(Op::kRelu, {f32({1, 64})}, {}).get()) !=
        cost_key(make(Op::kRelu, {f32({64, 1})}, {}).get()));
}

TEST_CASE("a hit returns the table's time; views cost 0 without lookup") {
  CostTable table("test machine");
  table.set(cost_key(conv().get()), 0.123);
  const TableCostModel model(table);
  CHECK(model.cost(conv().get()) == 0.123);
  CHECK(model.name() == "table(test machine)");
  CHECK(model.fallback() == nullptr);
  CHECK(model.cost(make(Op::kReshape, {f32({4, 6})}, {Shape{24}}).get()) == 0);
  CHECK(
      model.cost(make(Op::kSplit, {f32({4, 6})}, {std::int64_t{0}, std::vector<std::int64_t>{1, 3}})
                     .get()) == 0);
}

TEST_CASE("a miss is an error naming the key, located at the node by graph_cost") {
  const TableCostModel model(CostTable("m"));
  try {
    model.cost(conv().get());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("'conv2d|1,1,0,2|f32[1x64x56x56],f32[64x64x3x3]'") !=
          std::string::npos);
  }

  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 8});
  b.output("y", b.add1(Op::kRelu, {x}, {}, "act"));
  const Graph graph = std::move(b).finish();
  try {
    graph_cost(graph, model);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.where().node == "act");
    CHECK(e.message().find("relu||f32[4x8]") != std::string::npos);
  }
}

TEST_CASE("a miss falls back to the fallback model when there is one") {
  auto roofline = std::make_shared<RooflineCostModel>(builtin_profile("v100"));
  CostTable table("m");
  table.set(cost_key(conv().get()), 0.5);
  const TableCostModel model(table, roofline);
  CHECK(model.name() == "table(m) else roofline(v100)");
  CHECK(model.cost(conv().get()) == 0.5);  // hit: the table wins
  const Instance relu = make(Op::kRelu, {f32({1, 64, 56, 56})}, {});
  CHECK(model.cost(relu.get()) == roofline->cost(relu.get()));
  CHECK(model.cost(relu.get()) > 0);
}

TEST_CASE("save and load round-trip exactly, leaving no temporary file") {
  const TempDir dir;
  CostTable table("2-core x86-64, oneDNN 2.7");
  table.set(cost_key(conv().get()), 0.1 + 1.0 / 3.0);
  table.set("relu||f32[1x64x56x56]", 0.0075);
  table.set("ewadd||f32[1],f32[1]", 0);
  table.set("relu||f32[1x64x56x56]", 0.008);  // replaces
  CHECK(table.size() == 3);
  const std::string path = (dir.path / "costs.json").string();
  table.save(path);
  const CostTable loaded = CostTable::load(path);
  CHECK(loaded == table);
  CHECK(loaded.machine() == "2-core x86-64, oneDNN 2.7");
  CHECK(loaded.find("relu||f32[1x64x56x56]") == 0.008);
  CHECK(loaded.find(cost_key(conv().get())) == 0.1 + 1.0 / 3.0);
  CHECK_FALSE(loaded.find("relu||f32[1]").has_value());
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path)) ++files;
  CHECK(files == 1);

  // The written text follows the documented format.
  const std::string text = table.to_json_text();
  CHECK(text.find("\"format\": \"mctsat-cost-table\"") != std::string::npos);
  CHECK(text.find("\"version\": 1") != std::string::npos);
  CHECK(text.find("\"unit\": \"ms\"") != std::string::npos);
  CHECK(CostTable::parse(text, "x.json") == table);

  // Saving over an existing table replaces it.
  CostTable other("other");
  other.save(path);
  CHECK(CostTable::load(path) == other);
  CHECK_THROWS_AS(CostTable::load((dir.path / "missing.json").string()), Error);
}

TEST_CASE("the documented example table parses") {
  const CostTable table =
      CostTable::parse(R"({"format": "mctsat-cost-table", "version": 1, "machine": "v100",
    "unit": "ms", "entries": [{"key": "conv2d|1,1,0,2|f32[1x64x56x56],f32[64x64x3x3]", "ms": 0.123}]})",
                       "example.json");
  CHECK(table.machine() == "v100");
  CHECK(TableCostModel(table).cost(conv().get()) == 0.123);
}

TEST_CASE("malformed tables: file:line:col for JSON, the entry index for bad entries") {
  const Error syntax =
      parse_error("{\"format\": \"mctsat-cost-table\",\n  \"version\": 1\n  \"entries\": []}");
  CHECK(syntax.where().file == "table.json");
  // A comma is missing before line 3's "entries": the parser stops at the end of that unexpected
  // token (its closing quote, column 11).
  CHECK(syntax.where().line == 3);
  CHECK(syntax.where().column == 11);

  const std::string head = "{\"format\": \"mctsat-cost-table\", \"version\": 1, \"entries\": [\n";
  SUBCASE("missing ms, located at the entry's key") {
    const Error e = parse_error(head + "  {\"key\": \"a\", \"ms\": 1},\n  {\"key\": \"b\"}\n]}");
    CHECK(e.message().find("entry 1") != std::string::npos);
    CHECK(e.where().line == 3);
    CHECK(e.where().column == 4);
  }
  SUBCASE("negative ms") {
    const Error e = parse_error(head + "  {\"key\": \"a\", \"ms\": -1}\n]}");
    CHECK(e.message().find("entry 0") != std::string::npos);
    CHECK(e.message().find("\"ms\" -1 is negative") != std::string::npos);
  }
  SUBCASE("ms outside 0 or 1e-10 to 1e9: a denormal, 1e308") {
    // A denormal made the ILP's scale infinite; 1e308 summed to infinity.
    CHECK(parse_error(head + "  {\"key\": \"a\", \"ms\": 5e-324}\n]}")
              .message()
              .find("is neither 0 nor at least 1e-10 ms") != std::string::npos);
    CHECK(parse_error(head + "  {\"key\": \"a\", \"ms\": 1e308}\n]}")
              .message()
              .find("is more than 1e+09 ms") != std::string::npos);
  }
  SUBCASE("not an object, no key, empty key, unknown field") {
    CHECK(parse_error(head + "  [1]\n]}").message().find("entry 0") != std::string::npos);
    CHECK(parse_error(head + "  {\"ms\": 1}\n]}").message().find("entry 0") != std::string::npos);
    CHECK(parse_error(head + "  {\"key\": \"a\", \"ms\": 1}, {\"key\": \"\", \"ms\": 1}\n]}")
              .message()
              .find("entry 1") != std::string::npos);
    CHECK(parse_error(head + "  {\"key\": \"a\", \"ms\": 1, \"runs\": 3}\n]}")
              .message()
              .find("'runs'") != std::string::npos);
  }
  SUBCASE("a repeated key") {
    const Error e =
        parse_error(head + "  {\"key\": \"a\", \"ms\": 1},\n  {\"key\": \"a\", \"ms\": 2}\n]}");
    CHECK(e.message().find("entry 1") != std::string::npos);
    CHECK(e.message().find("entry 0") != std::string::npos);
  }
  SUBCASE("wrong format, version, unit, entries") {
    CHECK(
        parse_error(R"({"format": "x", "version": 1, "entries": []})").message().find("'format'") !=
        std::string::npos);
    CHECK(parse_error(R"({"format": "mctsat-cost-table", "version": 2, "entries": []})")
              .message()
              .find("'version'") != std::string::npos);
    CHECK(
        parse_error(R"({"format": "mctsat-cost-table", "version": 1, "unit": "us", "entries": []})")
            .message()
            .find("'unit'") != std::string::npos);
    CHECK(parse_error(R"({"format": "mctsat-cost-table", "version": 1})")
              .message()
              .find("'entries'") != std::string::npos);
  }
}

TEST_CASE("set rejects empty keys and bad times") {
  CostTable table;
  CHECK_THROWS_AS(table.set("", 1), Error);
  CHECK_THROWS_AS(table.set("k", -0.5), Error);
  CHECK_THROWS_AS(table.set("k", std::numeric_limits<double>::quiet_NaN()), Error);
  CHECK(table.size() == 0);
}

}  // namespace table_cost_model_test
}  // namespace mctsat::tensor
