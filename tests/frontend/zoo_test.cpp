// The built-in models build, validate and have the sizes their sources report.
#include <map>

#include <doctest/doctest.h>

#include "frontend/model_io.hpp"
#include "frontend/zoo.hpp"
#include "support/error.hpp"

using namespace mctsat;
using namespace mctsat::tensor;

namespace {
std::map<Op, int> operator_counts(const Graph& graph) {
  std::map<Op, int> counts;
  for (const Node& node : graph.nodes()) {
    if (node.op != Op::kInput && node.op != Op::kWeight) ++counts[node.op];
  }
  return counts;
}
}  // namespace

TEST_CASE("bert has TENSAT's 113 operators") {
  const Graph bert = *frontend::build_zoo_model("bert");
  const auto counts = operator_counts(bert);
  int total = 0;
  for (const auto& [op, n] : counts) total += n;
  CHECK(total == 113);
  CHECK(counts.at(Op::kMatmul) == 8 * 6);
  CHECK(counts.at(Op::kReshape) == 8 * 4);
  CHECK(counts.at(Op::kTranspose) == 8 * 4);
  CHECK(counts.at(Op::kRelu) == 1);
  CHECK(bert.outputs().size() == 8);
  CHECK(bert.type_of(bert.outputs()[7].tensor).shape == Shape{64, 1024});
}

TEST_CASE("demo builds and every zoo name loads through load_model") {
  for (const auto& entry : frontend::zoo_models()) {
    CAPTURE(entry.name);
    CHECK(frontend::load_model(std::string(entry.name)).size() > 0);
  }
  CHECK_FALSE(frontend::build_zoo_model("no-such-model"));
}

TEST_CASE("load_model explains unknown names and formats") {
  try {
    frontend::load_model("no-such-model");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "'no-such-model' is neither a file nor a zoo model (zoo: demo, bert)");
  }
  try {
    frontend::load_model(MCTSAT_SOURCE_DIR "/README.md");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "unsupported model format '.md' (supported: .json)");
  }
}
