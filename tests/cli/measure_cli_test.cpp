// Real execution around the optimizer, end to end: `optimize --measure` (human and JSON), a bench
// study with "measure": true and its report, `profile --calibrate` writing a device profile that
// `--device FILE.json` loads, and clear errors for bad inputs. Fields and their consistency are
// checked, never timing thresholds.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kMeasureScratchPrefix = "mctsat-measure-cli-test";

// The timing statistics of one graph are ordered and positive.
void check_timing(const json& t, int runs) {
  CHECK(t["runs"] == runs);
  CHECK(t["primitives"].get<int>() > 0);
  CHECK(t["min_ms"].get<double>() > 0);
  CHECK(t["min_ms"].get<double>() <= t["q1_ms"].get<double>());
  CHECK(t["q1_ms"].get<double>() <= t["median_ms"].get<double>());
  CHECK(t["median_ms"].get<double>() <= t["q3_ms"].get<double>());
  CHECK(t["q3_ms"].get<double>() <= t["max_ms"].get<double>());
}

const std::string kOptimizeDemo = "optimize demo --strategy greedy --seconds 10 ";

}  // namespace

TEST_CASE("optimize --measure reports the real speedup next to the estimate") {
  const json report =
      run_json(kOptimizeDemo +
               "--measure --measure-runs 3 --measure-instances 3 --measure-threads 1 --json");
  REQUIRE(report.contains("measured"));
  const json& m = report["measured"];
  CHECK(m["engine"] == "dnnl");
  CHECK(m["threads"] == 1);
  CHECK(m["clock"] == "thread CPU time");
  CHECK(m["runs"] == 3);
  CHECK(m["warmup"] == 3);
  CHECK(m["instances"] == 3);
  check_timing(m["original"], 9);  // 3 rounds x 3 instances
  check_timing(m["optimized"], 9);
  CHECK(m["noise_floor_percent"].get<double>() >= 0);
  CHECK(std::isfinite(m["noise_floor_percent"].get<double>()));
  const double speedup = m["speedup_percent"].get<double>();
  CHECK(std::isfinite(speedup));
  CHECK(speedup == doctest::Approx(100 * (m["original"]["median_ms"].get<double>() /
                                              m["optimized"]["median_ms"].get<double>() -
                                          1)));
  CHECK(m["speedup_percent_q1"].get<double>() <= m["speedup_percent_q3"].get<double>());
  // Greedy fuses demo's operators: fewer primitives, the same outputs up to float32 rounding.
  CHECK(report["speedup_percent"].get<double>() > 0);
  CHECK(m["optimized"]["primitives"].get<int>() < m["original"]["primitives"].get<int>());
  CHECK(m["max_relative_difference"].get<double>() <= 1e-4);

  const CliResult human = run_mctsat(kOptimizeDemo + "--measure --measure-runs 2");
  REQUIRE_MESSAGE(human.status == 0, human.output);
  CHECK(contains(human.output, "measured        original"));
  CHECK(contains(human.output, "medians of 2 interleaved oneDNN runs x 2 instances each"));
  CHECK(contains(human.output, "noise floor"));
  CHECK(contains(human.output, "(estimated +"));
  CHECK(contains(human.output, "max relative output difference"));

  // Without --measure nothing is run.
  CHECK_FALSE(run_json(kOptimizeDemo + "--json").contains("measured"));
}

TEST_CASE("optimize --measure -o writes the optimized graph only when it measured faster") {
  Scratch scratch(kMeasureScratchPrefix);
  const std::string out = scratch.file("out.json");
  const json report = run_json(
      kOptimizeDemo + "--measure --measure-runs 5 --measure-threads 1 -o " + out + " --json");
  const json& m = report["measured"];
  const bool faster = m["faster"].get<bool>();
  CHECK(faster == (m["speedup_percent_q1"].get<double>() > 0));
  CHECK(report["written_graph"] == (faster ? "optimized" : "original"));
  // Greedy changes demo's operator count, so the written graph's count says which one it is.
  REQUIRE(report["optimized_operators"] != report["operators"]);
  const json written = run_json("show " + out + " --json");
  CHECK(written["operators"] == (faster ? report["optimized_operators"] : report["operators"]));
  // Without --measure, -o is the optimized graph, and the report says so.
  CHECK(run_json(kOptimizeDemo + "-o " + out + " --json")["written_graph"] == "optimized");
}

TEST_CASE("optimize --measure: clear errors for bad options and graphs oneDNN cannot run") {
  const Scratch scratch(kMeasureScratchPrefix);
  CliResult r = run_mctsat(kOptimizeDemo + "--measure --measure-runs 0");
  CHECK(r.status != 0);
  CHECK(contains(r.output, "--measure-runs"));
  r = run_mctsat(kOptimizeDemo + "--measure --measure-runs many");
  CHECK(r.status != 0);
  CHECK(contains(r.output, "--measure-runs"));
  r = run_mctsat(kOptimizeDemo + "--measure --measure-instances 0");
  CHECK(r.status != 0);
  CHECK(contains(r.output, "--measure-instances"));
  r = run_mctsat(kOptimizeDemo + "--measure-runs 3");
  CHECK(r.status != 0);
  CHECK(contains(r.output, "--measure"));

  const std::string model = scratch.file("opaque.json");
  std::ofstream(model) << R"({"format": "mctsat-graph", "version": 1, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [2, 3]}},
    {"name": "r", "op": "relu", "inputs": ["x"]},
    {"name": "norm", "op": "opaque", "type": "LRN", "inputs": ["r"],
     "output_types": [{"dtype": "f32", "shape": [2, 3]}]}],
    "outputs": ["norm"]})";
  r = run_mctsat("optimize " + model + " --strategy greedy --measure");
  CHECK(r.status != 0);
  CHECK(contains(r.output, "cannot measure the original graph"));
  CHECK(contains(r.output, "node 'norm'"));
  CHECK(contains(r.output, "LRN"));
}

TEST_CASE("a bench study with \"measure\": true records and reports measured speedups") {
  const Scratch scratch(kMeasureScratchPrefix);
  const std::string config = scratch.file("measured.json");
  std::ofstream(config) << R"({"name": "measured", "models": ["demo"],
    "configurations": [{"name": "greedy", "strategy": "greedy", "search_seconds": 10}],
    "measure": {"runs": 2, "warmup": 1}})";
  const std::string out = scratch.file("out");
  const json summary = run_json("bench " + config + " --out " + out + " --quiet --json");
  CHECK(summary["ran"] == 1);
  CHECK(summary["failed"] == 0);
  std::ifstream lines(fs::path(out) / "runs.jsonl");
  std::string line;
  REQUIRE(std::getline(lines, line));
  const json record = json::parse(line);
  REQUIRE(record["status"] == "ok");
  const json& m = record["result"]["measured"];
  CHECK(m["runs"] == 2);
  CHECK(m["threads"] == 1);
  CHECK(m["instances"] == 2);          // the default
  check_timing(m["original"], 2 * 2);  // rounds x instances
  CHECK(std::isfinite(m["speedup_percent"].get<double>()));
  CHECK(m["max_relative_difference"].get<double>() <= 1e-4);

  const CliResult report = run_mctsat("bench report " + out + " --no-plots");
  REQUIRE_MESSAGE(report.status == 0, report.output);
  CHECK(contains(report.output, "Estimated / measured speedup"));
  std::ifstream csv(fs::path(out) / "summary.csv");
  std::string header;
  std::getline(csv, header);
  CHECK(contains(header, "measured_speedup_mean"));
}

TEST_CASE("profile --calibrate writes a device profile that --device loads") {
  const Scratch scratch(kMeasureScratchPrefix);
  const std::string profile = scratch.file("this-cpu.json");
  const std::string cache = scratch.file("cache.json");
  const json report =
      run_json("profile demo --json --cost-table " + cache + " --calibrate " + profile);
  REQUIRE(report.contains("calibration"));
  const json& c = report["calibration"];
  CHECK(c["file"] == profile);
  CHECK(c["profile"]["name"] == "this-cpu");
  CHECK(c["operators"].get<int>() >= 3);
  CHECK(c["compute_bound"].get<int>() + c["memory_bound"].get<int>() == c["operators"]);
  CHECK(c["error_factor"].get<double>() >= 1.0);
  for (const char* field :
       {"peak_flops", "memory_bandwidth", "launch_overhead_s", "saturation_elements"}) {
    CAPTURE(field);
    const double value = c["profile"][field].get<double>();
    CHECK(std::isfinite(value));
    CHECK(value > 0);
  }
  CHECK(c["before"]["profile"] == "cpu-2core");
  CHECK(c["after"]["profile"] == "this-cpu");
  for (const char* which : {"before", "after"}) {
    CAPTURE(which);
    CHECK(std::abs(c[which]["rank_correlation"].get<double>()) <= 1.0);
    CHECK(std::isfinite(c[which]["total_error_percent"].get<double>()));
    CHECK(c[which]["median_operator_error_percent"].get<double>() >= 0);
  }
  // The profile file loads wherever a device is taken and prices the model.
  const json shown = run_json("show demo --json --device " + profile);
  const double total = shown["cost"]["total_ms"].get<double>();
  CHECK(std::isfinite(total));
  CHECK(total > 0);
  CHECK(total == doctest::Approx(c["after"]["predicted_ms"].get<double>()));
  const json optimized = run_json(kOptimizeDemo + "--json --device " + profile);
  CHECK(optimized["cost_model"] == "roofline(this-cpu)");
  CHECK(optimized["optimized_cost_ms"].get<double>() > 0);

  const CliResult human =
      run_mctsat("profile demo --cost-table " + cache + " --calibrate " + profile);
  REQUIRE_MESSAGE(human.status == 0, human.output);
  CHECK(contains(human.output, "calibrated profile 'this-cpu' written to"));
  CHECK(contains(human.output, "rank correlation"));
}

TEST_CASE("unreadable and malformed profile files and unwritable outputs are clear errors") {
  const Scratch scratch(kMeasureScratchPrefix);
  const std::string missing = scratch.file("missing.json");
  CliResult r = run_mctsat("show demo --device " + missing);
  CHECK(r.status != 0);
  CHECK(contains(r.output, missing));

  const std::string broken = scratch.file("broken.json");
  std::ofstream(broken) << "{\"name\": \"x\",\n \"peak_flops\": }";
  r = run_mctsat("optimize demo --strategy greedy --device " + broken);
  CHECK(r.status != 0);
  CHECK(contains(r.output, broken + ":2:"));

  const std::string negative = scratch.file("negative.json");
  std::ofstream(negative) << R"({"name": "x", "description": "d", "peak_flops": -1,
    "memory_bandwidth": 1e9, "launch_overhead_s": 1e-6, "saturation_elements": 10})";
  r = run_mctsat("show demo --device " + negative);
  CHECK(r.status != 0);
  CHECK(contains(r.output, "peak_flops"));
  CHECK(contains(r.output, negative));

  const std::string unwritable = scratch.file("no/such/dir/profile.json");
  r = run_mctsat("profile demo --cost-table " + scratch.file("cache.json") + " --calibrate " +
                 unwritable);
  CHECK(r.status != 0);
  CHECK(contains(r.output, unwritable));
}
