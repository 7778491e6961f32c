// `--cost onnxruntime` (study/onnxruntime_cost_model.hpp): operators timed in ONNX Runtime
// (onnxruntime-node, installed by the CTest fixture `onnxruntime`), cached in a cost table that a
// second run reads instead of measuring again. When the npm registry is unreachable the test
// prints why and exits with 77.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

// A namespace of its own: the CLI tests are compiled as a unity build.
namespace onnxruntime_cost_cli {

const fs::path kOrtDir = MCTSAT_ONNXRUNTIME_DIR;

TEST_CASE("operators are timed in ONNX Runtime once and then read from the cache") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-ort-cost");
  const std::string table = scratch.file("costs.json");
  const std::string show = "show demo --cost onnxruntime --onnxruntime '" + kOrtDir.string() +
                           "' --cost-table '" + table + "' --json";
  const json first = run_json(show);
  CHECK(first["cost"]["model"].get<std::string>().find("onnxruntime") != std::string::npos);
  const double total = first["cost"]["total_ms"].get<double>();
  CHECK(total > 0);
  std::ifstream in(table);
  const json cached = json::parse(in);
  CAPTURE(cached.dump());
  CHECK(cached["machine"].get<std::string>().find("onnxruntime-node") != std::string::npos);
  // The demo's distinct operators: three convolutions (two alike), two products, relu, tanh, adds.
  CHECK(cached["entries"].size() >= 5);
  for (const json& entry : cached["entries"]) CHECK(entry["ms"].get<double>() >= 0);
  // Read back, not measured again: the same figure to the last bit.
  CHECK(run_json(show)["cost"]["total_ms"].get<double>() == total);
}

TEST_CASE("--cost onnxruntime without ONNX Runtime is a clear error") {
  const CliResult r = run_shell("MCTSAT_ONNXRUNTIME= " + std::string(MCTSAT_BINARY) +
                                " show demo --cost onnxruntime");
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "--cost onnxruntime measures operators in ONNX Runtime"));
  CHECK(contains(r.output, "install-onnxruntime.sh"));
}

}  // namespace onnxruntime_cost_cli
