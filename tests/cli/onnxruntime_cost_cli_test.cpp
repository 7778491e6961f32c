// `--cost onnxruntime`: each operator timed once in ONNX Runtime's profiler (onnxruntime-node,
// installed by the CTest fixture `onnxruntime`), cached in a cost table that names the machine and
// the runtime, reused without timing again; a search under it; a tanh GELU timed fused, as in a
// model; clear errors when ONNX Runtime is missing. No time is compared with another. When the
// npm registry is unreachable the test prints why and exits with 77.
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

std::string ort_cost(const std::string& table) {
  return " --cost onnxruntime --onnxruntime '" + kOrtDir.string() + "' --cost-table '" + table +
         "'";
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST_CASE("show --cost onnxruntime times each operator once and reuses the table") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-onnxruntime-cost");
  const std::string table = scratch.file("costs.json");
  const json first = run_json("show demo --json" + ort_cost(table));
  CHECK(first["cost"]["total_ms"].get<double>() > 0);
  CHECK(first["cost"]["model"].get<std::string>().find("onnxruntime-node") != std::string::npos);
  const json written = read_json(table);
  CHECK(written["format"] == "mctsat-cost-table");
  CHECK(written["machine"].get<std::string>().find("onnxruntime-node") != std::string::npos);
  REQUIRE(!written["entries"].empty());
  for (const json& entry : written["entries"]) CHECK(entry["ms"].get<double>() > 0);

  // The second run prices from the table: the same total, nothing added to it.
  const json second = run_json("show demo --json" + ort_cost(table));
  CHECK(second["cost"]["total_ms"] == first["cost"]["total_ms"]);
  CHECK(read_json(table) == written);
}

TEST_CASE("a search under --cost onnxruntime prices candidates as ONNX Runtime runs them") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-onnxruntime-cost-search");
  const std::string table = scratch.file("costs.json");
  const std::string out = scratch.file("demo.onnx");
  const json report =
      run_json("optimize demo --strategy greedy --runtime-fusions onnxruntime --cost-fallback "
               "--guard off --json -o '" + out + "'" + ort_cost(table));
  CHECK(report["cost_model"].get<std::string>().find("onnxruntime-node") != std::string::npos);
  CHECK(report["optimized_cost_ms"].get<double>() <= report["original_cost_ms"].get<double>());
  CHECK(fs::exists(out));
  CHECK(!read_json(table)["entries"].empty());
}

// A graph of x [1, 64, 1024] -> gelu(approximate), read by a relu when `read`.
std::string gelu_graph(int approximate, bool read) {
  std::string nodes =
      R"({"name": "x", "op": "input", "attrs": {"shape": [1, 64, 1024]}},
         {"name": "y", "op": "gelu", "inputs": ["x"], "attrs": {"approximate": )" +
      std::to_string(approximate) + "}}";
  if (read) nodes += R"(, {"name": "z", "op": "relu", "inputs": ["y"]})";
  return R"({"format": "mctsat-graph", "version": 2, "nodes": [)" + nodes + R"(], "outputs": [")" +
         (read ? "z" : "y") + R"("]})";
}

TEST_CASE("a tanh GELU is timed as ONNX Runtime runs it in a model: fused, read by a relu") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-onnxruntime-cost-gelu");
  // ONNX Runtime fuses the tanh form into FastGelu only where its result is no graph output;
  // the timer reads it with a relu and leaves the relu's kernel out.
  auto kernels = [&](bool read, bool uncount) {
    const std::string graph = scratch.file(read ? "read.json" : "alone.json");
    const std::string model = scratch.file(read ? "read.onnx" : "alone.onnx");
    std::ofstream(graph) << gelu_graph(1, read);
    REQUIRE(run_mctsat("convert '" + graph + "' '" + model + "'").status == 0);
    json request = {{"model", model}, {"inputs", {"x=float32:1,64,1024"}}, {"warmup", 1},
                    {"runs", 2}};
    if (uncount) request["uncounted"] = {"Relu"};
    const CliResult r = run_shell("echo '" + request.dump() + "' | node '" + MCTSAT_SOURCE_DIR +
                                  "/study/ort-compare.cjs' --ort '" + kOrtDir.string() +
                                  "' --serve-op-times '" + scratch.dir.string() + "'");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const json answer = json::parse(r.output.substr(0, r.output.find('\n')));
    REQUIRE_MESSAGE(answer.contains("kernels"), r.output);
    return answer["kernels"];
  };
  CHECK_FALSE(kernels(false, false).contains("FastGelu"));
  const json read = kernels(true, true);
  CHECK(read.contains("FastGelu"));
  CHECK_FALSE(read.contains("Relu"));
  CHECK(kernels(true, false).contains("Relu"));
  // --cost onnxruntime prices it so.
  const std::string graph = scratch.file("gelu.json");
  std::ofstream(graph) << gelu_graph(1, false);
  const json shown = run_json("show '" + graph + "' --json" + ort_cost(scratch.file("costs.json")));
  CHECK(shown["cost"]["total_ms"].get<double>() > 0);
}

TEST_CASE("--cost onnxruntime without ONNX Runtime is a clear error") {
  const Scratch scratch("mctsat-onnxruntime-cost-errors");
  const std::string table = scratch.file("costs.json");
  CliResult r = run_shell("env -u MCTSAT_ONNXRUNTIME " + std::string(MCTSAT_BINARY) +
                          " show demo --cost onnxruntime --cost-table '" + table + "'");
  check_error(r, "--onnxruntime DIR or set MCTSAT_ONNXRUNTIME=DIR");
  r = run_mctsat("show demo --cost onnxruntime --onnxruntime '" + scratch.dir.string() +
                 "' --cost-table '" + table + "'");
  check_error(r, "node cannot load onnxruntime-node from");
  CHECK_FALSE(fs::exists(table));  // nothing half-written
}

}  // namespace onnxruntime_cost_cli
