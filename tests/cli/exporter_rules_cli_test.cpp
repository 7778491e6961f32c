// rules/exporters on graphs as PyTorch writes them: three linear projections of one rank-3
// activation ([batch, seq, hidden], each a matmul by a rank-2 weight plus a rank-1 bias, as
// attention's Q, K and V) merge into one product and one bias add whose result is split, and the
// optimized graph computes the same outputs. TASO's rank-2 rules alone find nothing here.
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

// A namespace of its own: the CLI tests are compiled as a unity build.
namespace exporter_rules_cli {

const std::string kRules = std::string(MCTSAT_SOURCE_DIR) + "/rules/";

std::string projections_model(const Scratch& scratch) {
  std::string nodes = R"({"name": "x", "op": "input", "attrs": {"shape": [2, 8, 16]}})";
  for (const char* p : {"q", "k", "v"})
    nodes += fmt::format(
        R"(, {{"name": "w{0}", "op": "weight", "attrs": {{"shape": [16, 16]}}}},
        {{"name": "b{0}", "op": "weight", "attrs": {{"shape": [16]}}}},
        {{"name": "m{0}", "op": "matmul", "inputs": ["x", "w{0}"], "attrs": {{"act": 0}}}},
        {{"name": "{0}", "op": "ewadd", "inputs": ["m{0}", "b{0}"]}})",
        p);
  const std::string path = scratch.file("projections.json");
  std::ofstream(path) << R"({"format": "mctsat-graph", "version": 1, "nodes": [)" << nodes
                      << R"(], "outputs": ["q", "k", "v"]})";
  return path;
}

TEST_CASE("rank-3 projections of one input merge with their biases") {
  const Scratch scratch("mctsat-exporter-rules");
  const std::string model = projections_model(scratch);
  const std::string common = " --strategy greedy --check --json";
  const nlohmann::json taso =
      run_json("optimize '" + model + "' --rules " + kRules + "taso" + common);
  CHECK(taso["speedup_percent"].get<double>() == 0);

  const std::string out = scratch.file("merged.json");
  const nlohmann::json both = run_json("optimize '" + model + "' --rules " + kRules + "taso " +
                                       kRules + "exporters -o '" + out + "'" + common);
  CAPTURE(both["rules_used"].dump());
  CHECK(both["speedup_percent"].get<double>() > 0);
  CHECK(both["check"]["passed"] == true);
  CHECK(both["rules_used"].dump().find("proj-bias-merge-3") != std::string::npos);
  // One product and one bias add remain (the weights have no values here, so their
  // concatenations stay in the graph).
  const nlohmann::json ops = run_json("show '" + out + "' --json")["operator_counts"];
  CAPTURE(ops.dump());
  CHECK(ops["matmul"] == 1);
  CHECK(ops["ewadd"] == 1);
}

}  // namespace exporter_rules_cli
