// The oneDNN commands end to end: `run --engine dnnl` (timed runs, agreement with the reference
// interpreter, --compare against an optimized graph), `profile` (filling and reusing the cache),
// `--cost measured`, and clear errors. No timing is compared.
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

constexpr const char* kDnnlScratchPrefix = "mctsat-dnnl-cli-test";

}  // namespace

TEST_CASE("run --engine dnnl times runs and agrees with the reference interpreter") {
  const json dnnl = run_json("run demo --engine dnnl --runs 3 --warmup 1 --threads 1 --json");
  const json reference = run_json("run demo --json");
  CHECK(dnnl["engine"] == "dnnl");
  CHECK(dnnl["threads"] == 1);
  CHECK(dnnl["clock"] == "thread CPU time");  // one thread: the scheduler's gaps are not timed
  CHECK(dnnl["primitives"].get<int>() > 0);
  CHECK(dnnl["timing"]["runs"] == 3);
  CHECK(dnnl["timing"]["min_ms"].get<double>() <= dnnl["timing"]["median_ms"].get<double>());
  REQUIRE(dnnl["outputs"].size() == reference["outputs"].size());
  for (std::size_t i = 0; i < dnnl["outputs"].size(); ++i) {
    const json &a = dnnl["outputs"][i], &b = reference["outputs"][i];
    CHECK(a["shape"] == b["shape"]);
    for (const char* field : {"min", "max"}) {
      const double scale =
          std::max(std::abs(b["min"].get<double>()), std::abs(b["max"].get<double>()));
      CHECK(std::abs(a[field].get<double>() - b[field].get<double>()) <= 1e-4 * scale);
    }
  }
}

TEST_CASE("run --engine dnnl times several oneDNN threads by the wall clock") {
  const json dnnl = run_json("run demo --engine dnnl --runs 1 --warmup 0 --threads 2 --json");
  CHECK(dnnl["threads"] == 2);
  CHECK(dnnl["clock"] == "wall time");
}

TEST_CASE("run --compare runs an optimized graph on the same inputs") {
  const Scratch scratch(kDnnlScratchPrefix);
  const std::string optimized = scratch.file("demo-optimized.json");
  const CliResult optimize =
      run_mctsat("optimize demo --strategy greedy -o " + optimized + " --seconds 5");
  REQUIRE_MESSAGE(optimize.status == 0, optimize.output);
  const json report =
      run_json("run demo --engine dnnl --runs 2 --compare " + optimized + " --json");
  CHECK(report["compare"]["model"] == optimized);
  CHECK(report["compare"]["timing"]["runs"] == 2);
  CHECK(std::isfinite(report["compare"]["speedup"].get<double>()));
  CHECK(report["compare"]["max_relative_difference"].get<double>() <= 1e-4);

  // The same graph against itself: identical outputs.
  const json same = run_json("run demo --engine dnnl --compare demo --json");
  CHECK(same["compare"]["max_relative_difference"] == 0.0);
  CHECK_FALSE(same["compare"].contains("speedup"));
}

TEST_CASE("profile fills the cache that --cost measured reuses") {
  const Scratch scratch(kDnnlScratchPrefix);
  const std::string cache = scratch.file("cache.json");
  const json first = run_json("profile demo --top 3 --json --cost-table " + cache);
  CHECK(first["newly_measured"].get<int>() > 0);
  CHECK(first["slowest"].size() == 3);
  CHECK(first["measured_ms"].get<double>() > 0);
  CHECK(std::abs(first["rank_correlation"].get<double>()) <= 1.0);
  CHECK(fs::exists(cache));
  const json second = run_json("profile demo --json --cost-table " + cache);
  CHECK(second["newly_measured"] == 0);
  CHECK(second["measured_ms"] == first["measured_ms"]);

  // The same cache prices the model without measuring again.
  const json shown = run_json("show demo --cost measured --json --cost-table " + cache);
  CHECK(shown["cost"]["total_ms"] == first["measured_ms"]);
}

TEST_CASE("clear errors: reference timing, opaque operators, bad thread counts") {
  const Scratch scratch(kDnnlScratchPrefix);
  CliResult r = run_mctsat("run demo --runs 3");
  CHECK(r.status != 0);
  CHECK(r.output.find("--engine dnnl") != std::string::npos);

  const std::string model = scratch.file("opaque.json");
  std::ofstream(model) << R"({"format": "mctsat-graph", "version": 1, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [2, 3]}},
    {"name": "norm", "op": "opaque", "type": "LRN", "inputs": ["x"],
     "output_types": [{"dtype": "f32", "shape": [2, 3]}]}],
    "outputs": ["norm"]})";
  r = run_mctsat("run " + model + " --engine dnnl");
  CHECK(r.status != 0);
  CHECK(r.output.find("node 'norm'") != std::string::npos);
  CHECK(r.output.find("LRN") != std::string::npos);

  CHECK(run_mctsat("run demo --engine dnnl --threads 0").status != 0);
}
