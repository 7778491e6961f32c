// `mctsat optimize` with TASO's backtracking search and with parallel MCTS on zoo models and an
// ONNX file, the live progress line (on a terminal only), and errors for bad search options.
#include <cstdlib>
#include <filesystem>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

using nlohmann::json;

namespace {
// Runs mctsat under `script`, which gives it a pseudo-terminal (stdout and stderr together).
std::string run_on_terminal(const std::string& arguments) {
  const std::string command =
      "script -qec '" + std::string(MCTSAT_BINARY) + " " + arguments + "' /dev/null";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  REQUIRE(pclose(pipe) == 0);
  return output;
}
}  // namespace

TEST_CASE("optimize --strategy taso improves the demo and bert, and the demo stays equivalent") {
  const json demo = run_json("optimize demo --strategy taso --check --json");
  CHECK(demo["strategy"] == "taso");
  CHECK(demo["speedup_percent"].get<double>() > 10);
  CHECK(demo["check"]["passed"] == true);
  CHECK(demo["stop_reason"] == "queue empty");
  CHECK(demo["iterations"].get<std::size_t>() > 1);
  const json bert = run_json("optimize bert --strategy taso --budget 30 --json");
  CHECK(bert["stop_reason"] == "budget");
  CHECK(bert["iterations"] == 30);
  CHECK(bert["speedup_percent"].get<double>() > 10);
  bool merged = false;
  for (const json& used : bert["rules_used"]) merged = merged || used["rule"] == "multi-05";
  CHECK(merged);
}

TEST_CASE("optimize --strategy taso and parallel mcts on an ONNX file write an equivalent model") {
  const std::string dir = std::filesystem::temp_directory_path() / "mctsat-strategies-test";
  std::filesystem::create_directories(dir);
  const std::string model = dir + "/demo.onnx";
  REQUIRE(run_mctsat("convert demo " + model).status == 0);
  for (const char* search : {"--strategy taso", "--threads 2 --simulations 16 --max-steps 3"}) {
    CAPTURE(std::string(search));
    const std::string out = dir + "/optimized.onnx";
    std::filesystem::remove(out);
    const json r = run_json("optimize " + model + " " + search + " --check -o " + out + " --json");
    CHECK(r["check"]["passed"] == true);
    CHECK(r["speedup_percent"].get<double>() > 0);
    // ONNX has no fused activations, so the written model may have more operators: it loads.
    CHECK(run_json("show " + out + " --json")["operators"].get<std::size_t>() >=
          r["optimized_operators"].get<std::size_t>());
  }
}

TEST_CASE("optimize --threads 2 repeats its search, and matches one thread with the same batch") {
  const std::string mcts = "optimize demo --simulations 16 --max-steps 3 --json ";
  const json two = run_json(mcts + "--threads 2");
  CHECK(two["mcts"]["steps"] == run_json(mcts + "--threads 2")["mcts"]["steps"]);
  CHECK(two["mcts"]["steps"] == run_json(mcts + "--threads 1 --batch 2")["mcts"]["steps"]);
  CHECK_FALSE(two["mcts"]["steps"].empty());
  CHECK(two["speedup_percent"].get<double>() > 0);
}

TEST_CASE("optimize shows a progress line on a terminal only") {
  const std::string on_terminal = run_on_terminal("optimize demo --strategy taso");
  CHECK(on_terminal.find("taso  taso backtracking: graph 1 (at most 1000)  best 0.1175 ms") !=
        std::string::npos);
  CHECK(on_terminal.find("speedup") != std::string::npos);
  CHECK(run_on_terminal("optimize demo --strategy taso --quiet").find("graph 1 ") ==
        std::string::npos);
  const CliResult piped = run_mctsat("optimize demo --strategy taso");
  REQUIRE(piped.status == 0);
  CHECK(piped.output.find("graph 1 ") == std::string::npos);
}

TEST_CASE("optimize rejects bad search options") {
  for (const char* bad : {"--strategy annealing", "--threads 0", "--budget 0", "--alpha 0.5"}) {
    CAPTURE(std::string(bad));
    const CliResult r = run_mctsat(std::string("optimize demo ") + bad);
    CHECK(r.status != 0);
    CHECK(r.output.find(std::string(bad).substr(0, std::string(bad).find(' '))) !=
          std::string::npos);
  }
}
