// `mctsat optimize` end to end: zoo models and JSON files, the report (human and JSON), writing
// the optimized graph, the numeric check, and clear errors for bad options.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "support/files.hpp"
#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
fs::path optimize_scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "mctsat-optimize-test";
  fs::create_directories(dir);
  return dir / name;
}
}  // namespace

TEST_CASE("optimize bert with the default strategy finds the fused projections") {
  const json r = run_json("optimize bert --json");
  CHECK(r["strategy"] == "mcts");
  CHECK(r["final_extract"] == "ilp");
  CHECK(r["optimized_cost_ms"].get<double>() < r["original_cost_ms"].get<double>());
  CHECK(r["speedup_percent"].get<double>() > 10);
  CHECK(r["extraction"]["status"] == "optimal");
  CHECK_FALSE(r["rules_used"].empty());
  // Each rule used by name, with its operators at a glance (what a study's heat map shows).
  for (const auto& used : r["rules_used"])
    if (used["rule"] == "multi-05")
      CHECK(used["sketch"] == "matmul, matmul -> split(matmul(concat))");
  CHECK(r["rules_used"][0].contains("sketch"));
}

TEST_CASE("optimize prints a report for a person") {
  const CliResult r = run_mctsat("optimize demo --strategy eqsat");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  for (const char* line : {"original cost", "optimized cost", "speedup", "exploration", "e-graph",
                           "rules used", "extraction"})
    CHECK(r.output.find(line) != std::string::npos);
}

TEST_CASE("optimize writes the optimized graph and a report, and checks equivalence") {
  const fs::path out = optimize_scratch("demo-opt.json"), report = optimize_scratch("report.json");
  fs::remove(out);
  fs::remove(report);
  const CliResult r = run_mctsat("optimize demo --strategy eqsat --check -o " + out.string() +
                                 " --report " + report.string());
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK(r.output.find("check           passed") != std::string::npos);
  const json written = json::parse(std::ifstream(report));
  CHECK(written["check"]["passed"] == true);
  // The written graph loads and costs what the report says.
  const json shown = run_json("show " + out.string() + " --json");
  CHECK(shown["cost"]["total_ms"].get<double>() ==
        doctest::Approx(written["optimized_cost_ms"].get<double>()));
  // A JSON graph file optimizes too.
  CHECK(run_mctsat("optimize " + out.string() + " --strategy eqsat --quiet").status == 0);
}

TEST_CASE("rule selection, strategies and extractors are options") {
  const json tags = run_json("optimize demo --strategy eqsat --tags activation --json");
  for (const auto& used : tags["rules_used"])
    CHECK(used["rule"].get<std::string>().rfind("activation-", 0) == 0);
  const json greedy = run_json(
      "optimize demo --strategy mcts --extract greedy --final-extract dag --simulations 8 --json");
  CHECK(greedy["final_extract"] == "dag");
  CHECK(greedy["mcts"]["simulations"].get<std::size_t>() > 0);
  CHECK(greedy["mcts"]["tie_break"] == "visits");
  CHECK(greedy["mcts"]["stop_without_gain"] == true);
  const json fair = run_json(
      "optimize demo --extract greedy --final-extract dag --simulations 8 --continue-without-gain "
      "--tie-break fair --max-steps 2 --json");
  CHECK(fair["mcts"]["tie_break"] == "fair");
  CHECK(fair["mcts"]["stop_without_gain"] == false);
}

TEST_CASE("bad options give clear errors") {
  CliResult r = run_mctsat("optimize demo --strategy annealing");
  CHECK(r.status != 0);
  CHECK(r.output.find("annealing") != std::string::npos);
  r = run_mctsat("optimize demo --final-extract magic");
  CHECK(r.status != 0);
  r = run_mctsat("optimize demo --tie-break coin");
  CHECK(r.status != 0);
  CHECK(r.output.find("--tie-break") != std::string::npos);
  r = run_mctsat("optimize demo --tags no-such-tag");
  CHECK(r.status == 1);
  CHECK(r.output.find("no loaded rule has tag 'no-such-tag'") != std::string::npos);
  r = run_mctsat("optimize demo --rules /nonexistent/rules");
  CHECK(r.status == 1);
  r = run_mctsat("optimize demo --gamma 2");
  CHECK(r.status != 0);
  // Numbers out of range or not numbers at all: the option and the reason, not CLI11's bounds.
  r = run_mctsat("optimize demo --max-steps 0");
  CHECK(r.status != 0);
  CHECK(r.output.find("--max-steps: 0 is out of range (>= 1)") != std::string::npos);
  r = run_mctsat("optimize demo --max-steps many");
  CHECK(r.status != 0);
  CHECK(r.output.find("--max-steps: 'many' is not a non-negative integer") != std::string::npos);
  r = run_mctsat("run demo --runs -1");
  CHECK(r.status != 0);
  CHECK(r.output.find("--runs: must not be negative, got -1") != std::string::npos);
}

TEST_CASE("off a terminal, optimize prints a progress line every --progress-interval seconds") {
  // run_mctsat reads stderr through a pipe, as a log or a cluster job's output would. The lines
  // come from a clock (tests/cli/progress_line_test.cpp), so their count depends on the machine:
  // TASO's pass over 100 graphs at the shortest interval (10 ms) gives about 30 lines on the 2-core
  // VM; at least one holds with a wide margin.
  const CliResult r =
      run_mctsat("optimize squeezenet --strategy taso --budget 100 --progress-interval 0.01");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  std::size_t lines = 0;
  const std::string line = "taso  taso backtracking: graph ";
  for (std::size_t at = r.output.find(line); at != std::string::npos;
       at = r.output.find(line, at + 1)) {
    CHECK(r.output.find('\n', at) != std::string::npos);  // whole lines, not redrawn in place
    ++lines;
  }
  CHECK(lines >= 1);
  CHECK(r.output.find('\r') == std::string::npos);
  // With --json nothing but the report is printed (whatever the search's duration).
  const CliResult quiet =
      run_mctsat("optimize squeezenet --strategy taso --budget 30 --progress-interval 0.05 --json");
  REQUIRE_MESSAGE(quiet.status == 0, quiet.output);
  CHECK(quiet.output.find("taso  ") == std::string::npos);
  CHECK(nlohmann::json::accept(quiet.output));
}

TEST_CASE("an ONNX output computing merged kernels from weights without values gets a warning") {
  // The zoo's BERT has no weight values: its projections' merged kernel is a Concat of graph
  // inputs that ONNX Runtime would run at every inference.
  const std::string out = optimize_scratch("bert-unvalued.onnx").string();
  const json r = run_json("optimize bert --strategy greedy --guard off -o '" + out + "' --json");
  REQUIRE(r["written_graph"] == "optimized");
  REQUIRE(r["warnings"].size() == 1);
  CHECK(r["warnings"][0].get<std::string>().find(
            "from weights without values at every inference") != std::string::npos);
  const CliResult human =
      run_mctsat("optimize bert --strategy greedy --guard off -o '" + out + "'");
  CHECK(human.status == 0);
  CHECK(human.output.find("warning: the output computes") != std::string::npos);
  // A JSON graph output is not run by ONNX Runtime: no warning.
  const json plain = run_json("optimize bert --strategy greedy -o '" +
                              optimize_scratch("bert.json").string() + "' --json");
  CHECK_FALSE(plain.contains("warnings"));
}

TEST_CASE("priced as ONNX Runtime runs it, fusing relus into convolutions gains nothing") {
  // SqueezeNet's relus, priced one by one on the CPU profile, are what the search saves by fusing
  // them into the convolutions; ONNX Runtime fuses them itself, so as it runs the graph the
  // result is no cheaper and the input is kept.
  const json by_operator =
      run_json("optimize squeezenet --device cpu-2core --strategy greedy --json");
  CHECK(by_operator["speedup_percent"].get<double>() > 5);
  CHECK_FALSE(by_operator["kept_original"].get<bool>());
  const json as_run = run_json(
      "optimize squeezenet --device cpu-2core --runtime-fusions onnxruntime --strategy greedy "
      "--json");
  CHECK(as_run["cost_model"] == "roofline(cpu-2core) as onnxruntime runs it");
  CHECK(as_run["kept_original"].get<bool>());
  CHECK(as_run["speedup_percent"].get<double>() == 0);
  CHECK(as_run["original_cost_ms"].get<double>() < by_operator["original_cost_ms"].get<double>());
  // show prices the same way and counts what the runtime fuses.
  const json shown =
      run_json("show squeezenet --device cpu-2core --runtime-fusions onnxruntime --json");
  CHECK(shown["cost"]["total_ms"].get<double>() ==
        doctest::Approx(as_run["original_cost_ms"].get<double>()));
  CHECK(shown["cost"]["fused_operators"].get<std::size_t>() == 26);
  check_usage_error(run_mctsat("show squeezenet --runtime-fusions tvm"), "tvm");
}

TEST_CASE("an ONNX model in which the search finds nothing cheaper is written byte for byte") {
  // An optimized file is mctsat's export, not the exporter's: written for a graph the search left
  // as it was, it ran 4% slower in ONNX Runtime (inception-v3 under --cost onnxruntime).
  const std::string model = optimize_scratch("relu.json").string();
  std::ofstream(model) << R"({"format": "mctsat-graph", "version": 1, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [4, 8]}},
    {"name": "y", "op": "relu", "inputs": ["x"]}], "outputs": ["y"]})";
  const std::string input = optimize_scratch("relu.onnx").string();
  REQUIRE(run_mctsat("convert '" + model + "' '" + input + "'").status == 0);
  // A doc_string (ModelProto field 6) appended, which mctsat's export does not write: the output
  // is this file only if it is copied.
  { std::ofstream(input, std::ios::app | std::ios::binary) << std::string("\x32\x04mine", 6); }
  const std::string out = optimize_scratch("relu-out.onnx").string();
  const json r = run_json("optimize '" + input + "' --guard off -o '" + out + "' --json");
  CHECK(r["kept_original"] == true);
  CHECK(r["written_graph"] == "original");
  CHECK(mctsat::read_text_file(out) == mctsat::read_text_file(input));
}
