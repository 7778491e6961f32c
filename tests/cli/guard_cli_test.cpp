// The never-slower guard of `mctsat optimize -o FILE.onnx` (study/never_slower_guard.hpp), run in
// ONNX Runtime (onnxruntime-node, installed by the CTest fixture `onnxruntime`): a model that the
// V100 roofline makes slower on a CPU (SqueezeNet: its 1x1 and 3x3 expand kernels merged into one
// 3x3 convolution, nine times the 1x1 branch's work) is written as the original, a model the
// rules make much cheaper (a product chain reassociated onto a folded weight product, a
// sixtieth of the work) as the optimized one, and the report carries both figures and the
// decision. The outcomes differ by far more than any machine's noise. When the npm registry is
// unreachable the test prints why and exits with 77.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

// A namespace of its own: the CLI tests are compiled as a unity build.
namespace guard_cli {

const fs::path kOrtDir = MCTSAT_ONNXRUNTIME_DIR;

std::string ort_option() {
  return " --onnxruntime '" + kOrtDir.string() + "'";
}

int operators_of(const std::string& model) {
  return run_json("show '" + model + "' --json")["operators"].get<int>();
}

// Writes to `path` the graph (x A) B, x [rows, inner], A [inner, inner], B [inner, columns], which
// the rules rewrite to x (A B) with the weight product folded; returns `path`.
std::string chain_model(const std::string& path, int rows, int inner, int columns) {
  std::ofstream(path) << fmt::format(R"({{"format": "mctsat-graph", "version": 1, "nodes": [
    {{"name": "x", "op": "input", "attrs": {{"shape": [{0}, {1}]}}}},
    {{"name": "a", "op": "weight", "attrs": {{"shape": [{1}, {1}]}}}},
    {{"name": "b", "op": "weight", "attrs": {{"shape": [{1}, {2}]}}}},
    {{"name": "xa", "op": "matmul", "inputs": ["x", "a"], "attrs": {{"act": 0}}}},
    {{"name": "y", "op": "matmul", "inputs": ["xa", "b"], "attrs": {{"act": 0}}}}],
    "outputs": ["y"]}})",
                                     rows, inner, columns);
  return path;
}

TEST_CASE("the guard writes the original when the optimized model runs slower in ONNX Runtime") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-guard-slower");
  const std::string out = scratch.file("squeezenet.onnx");
  const json report =
      run_json("optimize squeezenet --strategy greedy -o '" + out + "' --guard onnxruntime" +
               ort_option() + " --guard-rounds 10 --json");
  CAPTURE(report["guard"].dump());
  REQUIRE(report["speedup_percent"].get<double>() > 10);  // the V100 estimate: faster
  CHECK(report["rules_used"].dump().find("groupconv-enlarge") != std::string::npos);
  CHECK(report["guard"]["baseline"] == "mctsat's export of the original graph");
  CHECK(report["guard"]["measurement"]["outputs_agree"] == true);
  CHECK(report["guard"]["measurement"]["paired_cpu_speedup_percent"]["median"].get<double>() < 0);
  CHECK(report["guard"]["decision"] == "original");
  CHECK(report["written_graph"] == "original");
  CHECK(operators_of(out) == report["operators"].get<int>());
}

TEST_CASE("the guard writes the optimized model when ONNX Runtime runs it faster") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-guard-faster");
  // (x A) B with x 64x1024, A 1024x1024, B 1024x16: x (A B) multiplies x by one folded 1024x16
  // weight product.
  const std::string model = chain_model(scratch.file("chain.json"), 64, 1024, 16);
  const std::string out = scratch.file("chain.onnx");
  const json report = run_json("optimize '" + model + "' --strategy greedy -o '" + out + "'" +
                               ort_option() + " --guard-rounds 10 --json");
  CAPTURE(report["guard"].dump());
  REQUIRE(report["speedup_percent"].get<double>() > 0);
  CHECK(report["guard"]["measurement"]["outputs_agree"] == true);
  CHECK(report["guard"]["measurement"]["paired_cpu_speedup_percent"]["q1"].get<double>() > 0);
  CHECK(report["guard"]["decision"] == "optimized");
  CHECK(report["written_graph"] == "optimized");
}

TEST_CASE("the guard's rounds last --guard-round-ms per model, one run each with 0") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-guard-round-ms");
  // A product chain of a few microseconds a run: a round of 100 ms holds many runs on any
  // machine; with 0 a round is one run of each model.
  const std::string model = chain_model(scratch.file("chain.json"), 4, 8, 2);
  for (const int round_ms : {0, 100}) {
    CAPTURE(round_ms);
    const std::string out = scratch.file("chain-" + std::to_string(round_ms) + ".onnx");
    const json report = run_json("optimize '" + model + "' --strategy greedy -o '" + out + "'" +
                                 ort_option() + " --guard-rounds 3 --guard-round-ms " +
                                 std::to_string(round_ms) + " --json");
    const json& measurement = report["guard"]["measurement"];
    CAPTURE(measurement.dump());
    CHECK(measurement["round_ms"].get<double>() == round_ms);
    CHECK(measurement["rounds"] == 3);
    if (round_ms == 0)
      CHECK(measurement["batch"] == 1);
    else
      CHECK(measurement["batch"].get<int>() > 1);
  }
}

TEST_CASE("the guard's mode is checked before the search") {
  const Scratch scratch("mctsat-guard-usage");
  const auto fails_with = [](const CliResult& r, int status, const std::string& part) {
    CAPTURE(r.output);
    CHECK(r.status == status);
    CHECK(contains(r.output, part));
  };
  fails_with(run_mctsat("optimize demo -o '" + scratch.file("d.json") + "' --guard onnxruntime"), 1,
             "--guard onnxruntime: the guard checks an ONNX output");
  fails_with(run_shell("MCTSAT_ONNXRUNTIME= " + std::string(MCTSAT_BINARY) + " optimize demo -o '" +
                       scratch.file("d.onnx") + "' --guard onnxruntime"),
             1, "no folder holding node_modules/onnxruntime-node");
  const CliResult unknown = run_mctsat("optimize demo --guard sometimes");
  CHECK(unknown.status >= 100);
  CHECK(contains(unknown.output, "--guard"));
  // Off: nothing measured, the optimized graph written.
  const json off = run_json("optimize demo --simulations 4 -o '" + scratch.file("d.onnx") +
                            "' --guard off --json");
  CHECK_FALSE(off.contains("guard"));
  CHECK(off["written_graph"] == "optimized");
}

TEST_CASE("a broken onnxruntime-node package is a located error, with nothing written") {
  // One that printed gigabytes while it loaded grew mctsat by as much (4 GB in the hostile
  // campaign); its output is now cut off and the program stopped.
  const Scratch scratch("mctsat-guard-broken");
  const fs::path package = fs::path(scratch.file("ort")) / "node_modules" / "onnxruntime-node";
  fs::create_directories(package);
  std::ofstream(package / "package.json") << R"({"name": "onnxruntime-node", "main": "index.js"})";
  const std::string out = scratch.file("d.onnx");
  const std::string optimize = "optimize demo --strategy greedy --max-steps 2 -o '" + out +
                               "' --guard onnxruntime --onnxruntime '" + scratch.file("ort") + "'";
  for (const std::string& body :
       {std::string("const b = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 3000; ++i) "
                    "require('fs').writeSync(1, b);"),
        std::string("throw new Error('broken on purpose');")}) {
    std::ofstream(package / "index.js") << body;
    const CliResult r = run_mctsat(optimize);
    CAPTURE(r.output);
    CHECK(r.status == 1);
    CHECK(contains(r.output, "onnxruntime-node"));
    CHECK(contains(r.output, "error"));
    CHECK_FALSE(fs::exists(out));
    const double mb = peak_rss_mb(optimize);
    CHECK(mb > 0);
    CHECK(mb < 1000);  // the process's own, not what node printed (3 GB)
  }
}

}  // namespace guard_cli
