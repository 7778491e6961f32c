// `mctsat bench` end to end on bench/configs/smoke.json: the JSON lines of a full run, a resume
// that runs nothing, two shards merged to the same set of results, the report (Markdown, CSV,
// PNG and SVG plots), and clear errors for bad configs and options.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kSmoke = std::string(MCTSAT_SOURCE_DIR) + "/bench/configs/smoke.json";

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "mctsat-bench-cli-test" / name;
  fs::remove_all(dir);
  return dir;
}

std::vector<json> lines_of(const fs::path& file) {
  std::vector<json> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) out.push_back(json::parse(line));
  return out;
}

json run_with_json(const std::string& arguments) {
  const CliResult r = run_mctsat(arguments + " --json");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  return json::parse(r.output);
}

// `bench CONFIG ...` without progress output, its summary as JSON.
json bench_json(const std::string& arguments) {
  return run_with_json("bench " + arguments + " --quiet");
}

// id -> optimized cost of every record.
std::map<std::string, double> costs_of(const std::vector<json>& records) {
  std::map<std::string, double> out;
  for (const json& r : records) out[r["id"]] = r["result"]["optimized_cost_ms"].get<double>();
  return out;
}

}  // namespace

TEST_CASE("bench runs smoke.json, resumes, shards, merges and reports") {
  const fs::path full = fresh_dir("full");
  json summary = bench_json(kSmoke + " --out " + full.string() + " --jobs 2");
  CHECK(summary["grid"] == 4);
  CHECK(summary["ran"] == 4);
  CHECK(summary["failed"] == 0);

  const auto records = lines_of(full / "runs.jsonl");
  REQUIRE(records.size() == 4);
  std::set<std::string> models, configurations;
  for (const json& r : records) {
    CHECK(r["study"] == "smoke");
    CHECK(r["status"] == "ok");
    CHECK(r["id"].get<std::string>().size() == 16);
    // The rule library inside the checkout (the working directory) is recorded relative to it.
    CHECK(r["rules"]["paths"] == json::array({"rules/taso"}));
    models.insert(r["model"].get<std::string>());
    configurations.insert(r["configuration"].get<std::string>());
    const json& result = r["result"];
    CHECK(result["original_cost_ms"].get<double>() > 0);
    CHECK(result["optimized_cost_ms"].get<double>() <= result["original_cost_ms"].get<double>());
    CHECK(result["speedup_percent"].get<double>() >= 0);
    CHECK(result["egraph"]["nodes"].get<std::size_t>() > 0);
    CHECK(result.contains("stop_reason"));
    CHECK(result["rules_used"].is_array());
    CHECK(r["parameters"]["strategy"] == result["strategy"]);
    CHECK(r["parameters"]["final_extract"] == "dag");
    CHECK(r["peak_rss_mb"].get<double>() > 0);
    CHECK(r["wall_seconds"].get<double>() > 0);
    CHECK(r["machine"]["cores"].get<int>() > 0);
    CHECK_FALSE(r["machine"]["cpu"].get<std::string>().empty());
    CHECK_FALSE(r["git_commit"].get<std::string>().empty());
    CHECK(r["limits"]["seconds"] == 60.0);
  }
  CHECK(models == std::set<std::string>{"demo", "bert"});
  CHECK(configurations == std::set<std::string>{"eqsat", "mcts"});
  // MCTS finds BERT's fused projections even in this small search.
  for (const json& r : records)
    if (r["model"] == "bert" && r["configuration"] == "mcts")
      CHECK(r["result"]["speedup_percent"].get<double>() > 10);
  CHECK(fs::exists(full / "config.json"));

  // Without --resume an existing study is not overwritten; with it, nothing runs again.
  CliResult again = run_mctsat("bench " + kSmoke + " --out " + full.string());
  CHECK(again.status != 0);
  CHECK(again.output.find("--resume") != std::string::npos);
  summary = bench_json(kSmoke + " --out " + full.string() + " --resume");
  CHECK(summary["ran"] == 0);
  CHECK(summary["skipped"] == 4);
  CHECK(lines_of(full / "runs.jsonl").size() == 4);

  // Two shards, merged, give the same runs with the same results (runs are deterministic).
  const fs::path shard0 = fresh_dir("shard0"), shard1 = fresh_dir("shard1"),
                 merged = fresh_dir("merged");
  CHECK(bench_json(kSmoke + " --out " + shard0.string() + " --shard 0/2")["ran"] == 2);
  CHECK(bench_json(kSmoke + " --out " + shard1.string() + " --shard 1/2")["ran"] == 2);
  CHECK(fs::exists(shard1 / "runs.shard-1-of-2.jsonl"));
  CHECK(run_with_json("bench merge " + merged.string() + " " + shard0.string() + " " +
                      shard1.string())["records"] == 4);
  CHECK(costs_of(lines_of(merged / "runs.jsonl")) == costs_of(records));

  // The report: Markdown table, CSV files and plots.
  const CliResult report = run_mctsat("bench report " + merged.string());
  REQUIRE_MESSAGE(report.status == 0, report.output);
  CHECK(report.output.find("| model | eqsat | mcts |") != std::string::npos);
  CHECK(report.output.find("| bert |") != std::string::npos);
  for (const char* file : {"report.md", "summary.csv", "runs.csv", "plots/speedup.png",
                           "plots/speedup.svg", "plots/time.png", "plots/time.svg",
                           "plots/rules.png", "plots/rules.svg", "plots/speedup.gp"}) {
    CAPTURE(file);
    CHECK(fs::file_size(merged / file) > 0);
  }
  std::ifstream csv(merged / "summary.csv");
  std::string header, row;
  std::getline(csv, header);
  CHECK(header.rfind("model,variant,configuration,ok,failed,speedup_mean", 0) == 0);
  std::size_t rows = 0;
  while (std::getline(csv, row)) ++rows;
  CHECK(rows == 4);
  // Every plot names the study, what it shows and the cost model, and labels its axes.
  for (const char* script : {"plots/speedup.gp", "plots/time.gp", "plots/rules.gp"}) {
    CAPTURE(script);
    std::ifstream in(merged / script);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    CHECK(text.find("set title \"study smoke: ") != std::string::npos);
    CHECK(text.find("(cost model roofline(v100))") != std::string::npos);
    CHECK(text.find("set xlabel ") != std::string::npos);
    CHECK(text.find("set ylabel ") != std::string::npos);
  }
  std::ifstream svg(merged / "plots/speedup.svg");
  std::string svg_head(200, '\0');
  svg.read(svg_head.data(), 200);
  CHECK(svg_head.find("<svg") != std::string::npos);
}

TEST_CASE("bench reports bad configs and options clearly") {
  const fs::path dir = fresh_dir("bad");
  fs::create_directories(dir);
  const fs::path config = dir / "bad.json";
  std::ofstream(config) << R"({"name": "bad", "models": ["demo"],
    "configurations": [{"name": "a", "mcts": {"simulations": "many"}}]})";
  CliResult r = run_mctsat("bench " + config.string());
  CHECK(r.status == 1);
  CHECK(r.output.find(config.string()) != std::string::npos);
  CHECK(r.output.find("/configurations/0/mcts/simulations") != std::string::npos);
  r = run_mctsat("bench " + (dir / "missing.json").string());
  CHECK(r.status == 1);
  CHECK(r.output.find("missing.json") != std::string::npos);
  r = run_mctsat("bench " + kSmoke + " --shard 2/2");
  CHECK(r.status == 1);
  CHECK(r.output.find("--shard") != std::string::npos);
  r = run_mctsat("bench report " + (dir / "nothing").string());
  CHECK(r.status == 1);
  r = run_mctsat("bench");  // no config: a malformed command line, CLI11's usage status
  CHECK(r.status == 106);
  CHECK(r.output.find("bench: expected a config file") != std::string::npos);
}

TEST_CASE("bench --list prints the grid without running it") {
  const json runs = bench_json(kSmoke + " --list");
  REQUIRE(runs.size() == 4);
  CHECK(runs[0]["model"] == "demo");
  CHECK(runs[0]["parameters"].contains("mcts.node_limit"));
}

TEST_CASE("bench --verify-rules refuses a rule set with an unsound rule, naming it") {
  const fs::path dir = fresh_dir("verify-rules");
  fs::create_directories(dir);
  const std::string unsound =
      std::string(MCTSAT_SOURCE_DIR) + "/tests/verify/unsound/relu-dropped.rules";
  const fs::path config = dir / "study.json";
  std::ofstream(config) << R"({"name": "unsound", "models": ["demo"],
    "rules": [{"name": "bad", "paths": [")"
                        << unsound << R"("]}],
    "configurations": [{"name": "eqsat", "strategy": "eqsat"}], "seeds": [1]})";
  ::setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);  // keep the verifier's cache here
  const CliResult r = run_mctsat("bench " + config.string() + " --out " + (dir / "out").string() +
                                 " --verify-rules --quiet");
  CAPTURE(r.output);
  CHECK(r.status != 0);
  CHECK(r.output.find("rule set 'bad': --verify-rules: 1 of 1 rules failed verification") !=
        std::string::npos);
  CHECK(r.output.find("rule relu-dropped: the sides differ") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out" / "runs.jsonl"));
}
