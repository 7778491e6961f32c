// The mctsat executable end to end: commands on built-in and file models, JSON output, errors
// that say where, determinism of seeded runs.
#include <filesystem>
#include <fstream>
#include <iterator>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "mctsat-cli-test";
  fs::create_directories(dir);
  return dir / name;
}

fs::path write_scratch(const std::string& name, const std::string& contents) {
  const fs::path path = scratch(name);
  std::ofstream(path) << contents;
  return path;
}

}  // namespace

TEST_CASE("help lists the commands") {
  const CliResult r = run_mctsat("--help");
  CHECK(r.status == 0);
  for (const char* command : {"show", "convert", "run", "zoo", "devices"})
    CHECK(r.output.find(command) != std::string::npos);
  CHECK(run_mctsat("no-such-command").status != 0);
}

TEST_CASE("show summarizes the demo model with its roofline cost") {
  const CliResult r = run_mctsat("show demo");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("model demo: 10 operators, 2 inputs, 5 weights") != std::string::npos);
  CHECK(r.output.find("cost (roofline(v100)):") != std::string::npos);
  CHECK(r.output.find("costliest operators:") != std::string::npos);

  const json report = run_json("show demo --json");
  CHECK(report["operators"] == 10);
  CHECK(report["operator_counts"]["conv2d"] == 3);
  CHECK(report["operator_counts"]["matmul"] == 2);
  CHECK(report["cost"]["total_ms"].get<double>() > 0);
  CHECK(report["outputs"][0]["type"] == "f32[1x64x56x56]");
}

TEST_CASE("the device changes the estimate, and a profile file can be given") {
  const double v100 = run_json("show bert --json")["cost"]["total_ms"];
  const double h100 = run_json("show bert --json --device h100")["cost"]["total_ms"];
  CHECK(h100 < v100);
  const fs::path profile =
      write_scratch("slow.json", R"({"name": "slow", "description": "a slow device",
    "peak_flops": 1e12, "memory_bandwidth": 1e11, "launch_overhead_s": 1e-5, "saturation_elements": 1000})");
  const double slow = run_json("show bert --json --device " + profile.string())["cost"]["total_ms"];
  CHECK(slow > v100);
}

TEST_CASE("convert writes JSON that loads back to the same model, and DOT") {
  const fs::path json_path = scratch("demo.json"), dot_path = scratch("demo.dot");
  fs::remove(json_path);
  fs::remove(dot_path);
  CHECK(run_mctsat("convert demo " + json_path.string()).status == 0);
  CHECK(run_mctsat("convert demo " + dot_path.string()).status == 0);
  CHECK(fs::file_size(dot_path) > 0);
  const json original = run_json("show demo --json");
  json reloaded = run_json("show " + json_path.string() + " --json");
  CHECK(reloaded["cost"]["total_ms"] == original["cost"]["total_ms"]);
  CHECK(reloaded["operator_counts"] == original["operator_counts"]);
}

std::string read_scratch(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("show --dot/--svg and convert to .svg draw the model with Graphviz") {
  const fs::path dot_path = scratch("drawn.dot"), svg_path = scratch("drawn.svg"),
                 converted = scratch("converted.svg");
  for (const auto& path : {dot_path, svg_path, converted}) fs::remove(path);
  const CliResult r =
      run_mctsat("show demo --dot " + dot_path.string() + " --svg " + svg_path.string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("operators:") != std::string::npos);  // the summary is still printed
  CHECK(read_scratch(dot_path).find("digraph") != std::string::npos);
  const std::string svg = read_scratch(svg_path);
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("conv2d") != std::string::npos);  // operator boxes are labelled
  REQUIRE(run_mctsat("convert squeezenet " + converted.string()).status == 0);
  CHECK(read_scratch(converted).find("</svg>") != std::string::npos);
  // An unwritable destination is an error naming it, and no file appears.
  const CliResult bad = run_mctsat("show demo --svg /nonexistent-dir/x.svg");
  CHECK(bad.status != 0);
  CHECK(bad.output.find("/nonexistent-dir/x.svg") != std::string::npos);
}

TEST_CASE("convert --check loads the output back and compares its outputs") {
  const fs::path onnx_path = scratch("check-demo.onnx"), json_path = scratch("check-bert.json");
  fs::remove(onnx_path);
  fs::remove(json_path);
  CliResult r = run_mctsat("convert demo " + onnx_path.string() + " --check");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("check passed (max relative difference") != std::string::npos);
  r = run_mctsat("convert bert " + json_path.string() + " --check");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("check passed") != std::string::npos);
  // A format that does not load back cannot be checked.
  r = run_mctsat("convert demo " + scratch("check-demo.dot").string() + " --check");
  CHECK(r.status == 1);
  CHECK(r.output.find("--check needs an output that loads back") != std::string::npos);
}

TEST_CASE("run is deterministic for a seed and changes with it") {
  const json a = run_json("run demo --seed 7 --json");
  const json b = run_json("run demo --seed 7 --json");
  const json c = run_json("run demo --seed 8 --json");
  CHECK(a["outputs"] == b["outputs"]);
  CHECK(a["outputs"] != c["outputs"]);
  REQUIRE(a["outputs"].size() == 2);
  CHECK(a["outputs"][1]["shape"] == json::array({64, 512}));
}

TEST_CASE("zoo and devices list what is built in") {
  const json zoo = run_json("zoo --json");
  CHECK(zoo.size() >= 2);
  CHECK(run_json("models --json") == zoo);  // `models` is another name for `zoo`
  CHECK(zoo[0]["name"] == "demo");
  // The demo as `show demo` describes it: 10 operators, its parameters and roofline cost.
  const json demo = run_json("show demo --json");
  CHECK(zoo[0]["operators"] == 10);
  CHECK(zoo[0]["parameters"].get<std::int64_t>() > 0);
  CHECK(zoo[0]["cost_ms"].get<double>() == doctest::Approx(demo["cost"]["total_ms"].get<double>()));
  CHECK(zoo[0]["cost_model"] == "roofline(v100)");
  const CliResult table = run_mctsat("zoo");
  REQUIRE_MESSAGE(table.status == 0, table.output);
  CHECK(table.output.find("operators") != std::string::npos);
  CHECK(table.output.find("parameters") != std::string::npos);
  CHECK(table.output.find("cost ms") != std::string::npos);
  CHECK(table.output.find("bert") != std::string::npos);
  CHECK(run_json("zoo --json --device h100")[0]["cost_ms"].get<double>() <
        zoo[0]["cost_ms"].get<double>());
  const json devices = run_json("devices --json");
  std::vector<std::string> names;
  for (const auto& d : devices) names.push_back(d["name"]);
  for (const char* expected : {"a100", "cpu-2core", "h100", "h200", "t4", "v100"})
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
}

TEST_CASE("bad input gives a located error and a non-zero exit") {
  CliResult r = run_mctsat("show no-such-model");
  CHECK(r.status == 1);
  CHECK(r.output.find("error: 'no-such-model' is neither a file nor a zoo model") !=
        std::string::npos);

  const fs::path broken =
      write_scratch("broken.json", "{\n  \"format\": \"mctsat-graph\",\n  \"nodes\": [}\n");
  r = run_mctsat("show " + broken.string());
  CHECK(r.status == 1);
  CHECK(r.output.find(broken.string() + ":3:") != std::string::npos);

  const fs::path cyclic =
      write_scratch("cyclic.json", R"({"format": "mctsat-graph", "version": 1, "nodes": [
    {"name": "a", "op": "relu", "inputs": ["b"]},
    {"name": "b", "op": "relu", "inputs": ["a"]}], "outputs": ["a"]})");
  r = run_mctsat("show " + cyclic.string());
  CHECK(r.status == 1);
  CHECK(r.output.find("the graph has a cycle through this node") != std::string::npos);
  CHECK(r.output.find("(node '") != std::string::npos);

  r = run_mctsat("show demo --device quantum");
  CHECK(r.status == 1);
  CHECK(r.output.find("v100") != std::string::npos);

  r = run_mctsat("show demo --cost nonsense");
  CHECK(r.status != 0);
  r = run_mctsat("show demo --cost table");
  CHECK(r.status == 1);
  CHECK(r.output.find("--cost table needs --cost-table FILE") != std::string::npos);
}

TEST_CASE("--input-shape is checked and applies to ONNX models only") {
  const CliResult zoo = run_mctsat("show demo --input-shape x=1,4");
  CHECK(zoo.status != 0);
  CHECK(zoo.output.find("--input-shape applies to ONNX models only, not to 'demo'") !=
        std::string::npos);
  const CliResult malformed = run_mctsat("show demo --input-shape x=1,0");
  CHECK(malformed.status != 0);
  CHECK(malformed.output.find("--input-shape 'x=1,0': '0' is not a positive dimension") !=
        std::string::npos);
  const CliResult no_name = run_mctsat("run demo --input-shape 1,2");
  CHECK(no_name.status != 0);
  CHECK(no_name.output.find("expected NAME=d1,d2,...") != std::string::npos);
}
