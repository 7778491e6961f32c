// `mctsat extract` on an egraph-serialize file: the DAG-aware extractors find the shared optimum
// the tree-cost greedy misses; bad files give located errors.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {
// Root h(A, B); A = f(x) or p, B = g(x) or q, x shared. Tree costs prefer p and q (4 < 1 + 5),
// total 9; sharing x gives 1 + 1 + 1 + 5 = 8.
const char* kEGraph = R"({
  "nodes": {
    "x":  {"op": "x", "children": [], "eclass": "X", "cost": 5},
    "a1": {"op": "f", "children": ["x"], "eclass": "A", "cost": 1},
    "a2": {"op": "p", "children": [], "eclass": "A", "cost": 4},
    "b1": {"op": "g", "children": ["x"], "eclass": "B", "cost": 1},
    "b2": {"op": "q", "children": [], "eclass": "B", "cost": 4},
    "r":  {"op": "h", "children": ["a1", "b1"], "eclass": "R", "cost": 1}
  },
  "root_eclasses": ["R"]
})";
}  // namespace

TEST_CASE("extract reports each extractor's exact DAG cost") {
  const fs::path path = fs::temp_directory_path() / "mctsat-extract-test.json";
  std::ofstream(path) << kEGraph;
  const CliResult r = run_mctsat("extract " + path.string() + " --json");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const auto report = nlohmann::json::parse(r.output);
  CHECK(report["classes"] == 4);
  std::map<std::string, double> cost;
  for (const auto& result : report["results"]) cost[result["extractor"]] = result["dag_cost"];
  CHECK(cost.at("greedy") == 9);
  CHECK(cost.at("dag") == 8);
  CHECK(cost.at("ilp") == 8);
  const CliResult text = run_mctsat("extract " + path.string() + " --extractor dag");
  CHECK(text.output.find("dag") != std::string::npos);
}

TEST_CASE("extract --dag-restarts runs the dag extractor's seeded restarts") {
  const fs::path path = fs::temp_directory_path() / "mctsat-extract-restarts.json";
  std::ofstream(path) << kEGraph;
  const CliResult r =
      run_mctsat("extract " + path.string() + " --extractor dag --dag-restarts 8 --json");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const auto result = nlohmann::json::parse(r.output)["results"][0];
  CHECK(result["dag_cost"] == 8);
  // One local optimum: the first two restarts end there and the rest are skipped.
  CHECK(result["detail"] == "2 restarts (converged), 0 improved (from 8 to 8)");
  CHECK(run_mctsat("extract " + path.string() + " --dag-restarts -3").status != 0);
}

namespace {
// chain_moves_test.cpp's ring of six gates as an egraph-serialize document: `dag` without its
// chain moves stays at 157 (every gate fused), with them it reaches the optimum 139 (every gate on
// shared pairs).
std::string ring_egraph() {
  nlohmann::json nodes;
  const auto node = [&](const std::string& id, const std::string& eclass, double cost,
                        std::vector<std::string> children) {
    nodes[id] = {{"op", id}, {"eclass", eclass}, {"cost", cost}, {"children", children}};
  };
  node("in", "I", 0, {});
  for (int k = 0; k < 3; ++k) {
    node("xp" + std::to_string(k), "XP" + std::to_string(k), 17, {"in"});
    node("hp" + std::to_string(k), "HP" + std::to_string(k), 17, {"in"});
  }
  std::vector<std::string> gates;
  for (int i = 0; i < 6; ++i) {
    const std::string n = std::to_string(i);
    node("fused" + n, "G" + n, 26, {"in"});
    node("add" + n, "G" + n, 6, {"xplain" + n, "hplain" + n});
    node("xplain" + n, "X" + n, 16, {"in"});
    node("xproj" + n, "X" + n, 0, {"xp" + std::to_string(i / 2)});
    node("hplain" + n, "H" + n, 16, {"in"});
    node("hproj" + n, "H" + n, 0, {"hp" + std::to_string((i + 5) % 6 / 2)});
    gates.push_back("fused" + n);
  }
  node("root", "R", 1, gates);
  return nlohmann::json{{"nodes", nodes}, {"root_eclasses", {"R"}}}.dump();
}
}  // namespace

TEST_CASE("the dag extractor's chain moves run by default; --no-dag-chains turns them off") {
  const fs::path path = fs::temp_directory_path() / "mctsat-extract-ring.json";
  std::ofstream(path) << ring_egraph();
  const auto dag_cost = [&](const std::string& flags) {
    const CliResult r = run_mctsat("extract " + path.string() + " --extractor dag --json " + flags);
    REQUIRE_MESSAGE(r.status == 0, r.output);
    return nlohmann::json::parse(r.output)["results"][0]["dag_cost"].get<double>();
  };
  CHECK(dag_cost("") == 139);
  CHECK(dag_cost("--dag-chains") == 139);
  CHECK(dag_cost("--no-dag-chains") == 157);
  const CliResult ilp = run_mctsat("extract " + path.string() + " --extractor ilp --json");
  REQUIRE_MESSAGE(ilp.status == 0, ilp.output);
  CHECK(nlohmann::json::parse(ilp.output)["results"][0]["dag_cost"] == 139);
}

TEST_CASE("a malformed e-graph file is a located error") {
  const fs::path path = fs::temp_directory_path() / "mctsat-extract-bad.json";
  std::ofstream(path) << "{\n  \"nodes\": {\n    \"x\": {\"op\": \"x\", \"children\": "
                         "[\"missing\"], \"eclass\": \"X\"}\n  },"
                         "\n  \"root_eclasses\": [\"X\"]\n}\n";
  const CliResult r = run_mctsat("extract " + path.string());
  CHECK(r.status == 1);
  CHECK(r.output.find(path.string()) != std::string::npos);
  CHECK(r.output.find("missing") != std::string::npos);
  CHECK(run_mctsat("extract " + path.string() + " --extractor magic").status != 0);
}

TEST_CASE("an e-graph whose root has no acyclic extraction fails with exit 1") {
  // The root's only e-node needs its own class: every extraction is a cycle.
  const fs::path path = fs::temp_directory_path() / "mctsat-extract-cyclic.json";
  std::ofstream(path) << R"({"nodes": {
    "r": {"op": "f", "children": ["r"], "eclass": "R", "cost": 1}}, "root_eclasses": ["R"]})";
  for (const char* format : {"", " --json"}) {
    const CliResult r = run_mctsat("extract " + path.string() + " --extractor greedy" + format);
    CAPTURE(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("infeasible") != std::string::npos);
  }
  fs::remove(path);
}

TEST_CASE("the paper extractor's histories are held to the memory budget") {
  // A chain of 20000 classes: each class's history holds every class below it, 200 million
  // entries (3.2 GB) in all; under a 1.5 GB address-space limit that is a clear error.
  const fs::path path = fs::temp_directory_path() / "mctsat-extract-chain.json";
  {
    std::ofstream out(path);
    out << R"({"nodes": {"n0": {"op": "x", "children": [], "eclass": "c0", "cost": 1})";
    for (int i = 1; i < 20000; ++i)
      out << ",\n\"n" << i << R"(": {"op": "f", "children": ["n)" << i - 1 << R"("], "eclass": "c)"
          << i << R"(", "cost": 1})";
    out << R"(}, "root_eclasses": ["c19999"]})";
  }
  const std::string command = "ulimit -v 1500000; " + std::string(MCTSAT_BINARY) + " extract " +
                              path.string() + " --extractor paper 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  CAPTURE(output);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(output.find("the paper extractor's histories need") != std::string::npos);
  fs::remove(path);
}
