// `mctsat optimize --export-egraph FILE`: the e-graph the final extractor saw, written in the
// egraph-serialize format with the run's costs, is the same extraction problem (`mctsat extract
// FILE --extractor ilp` finds the optimized cost); strategies without an e-graph are refused
// before any search, and a failed write leaves no file.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// The ILP optimum of an exported file, which must be proven.
double ilp_cost(const std::string& file) {
  const json r = run_json("extract " + file + " --extractor ilp --json");
  REQUIRE(r["results"].size() == 1);
  CHECK(r["results"][0]["status"] == "optimal");
  return r["results"][0]["dag_cost"].get<double>();
}
}  // namespace

TEST_CASE("optimize --export-egraph writes the final e-graph with its costs") {
  const Scratch scratch("mctsat-export-egraph");
  SUBCASE("eqsat") {
    const std::string file = scratch.file("demo-eqsat.json");
    const json report =
        run_json("optimize demo --strategy eqsat --export-egraph " + file + " --json");
    REQUIRE(report["extraction"]["status"] == "optimal");
    CHECK_FALSE(report["kept_original"].get<bool>());
    CHECK(ilp_cost(file) == doctest::Approx(report["optimized_cost_ms"].get<double>()));
    // Every live e-node of the saturated e-graph is there (none is blacklisted on the demo).
    const json written = json::parse(std::ifstream(file));
    CHECK(written["nodes"].size() == report["egraph"]["nodes"].get<std::size_t>());
    CHECK(written["root_eclasses"].size() > 0);
  }
  SUBCASE("mcts and greedy grow an e-graph too") {
    for (const char* strategy : {"mcts --simulations 8", "greedy"}) {
      CAPTURE(std::string(strategy));
      const std::string file = scratch.file("demo-search.json");
      const json report = run_json(std::string("optimize demo --strategy ") + strategy +
                                   " --export-egraph " + file + " --json");
      REQUIRE(report["extraction"]["status"] == "optimal");
      CHECK(ilp_cost(file) == doctest::Approx(report["optimized_cost_ms"].get<double>()));
    }
  }
}

TEST_CASE("optimize --export-egraph refuses taso and leaves nothing behind on failure") {
  const Scratch scratch("mctsat-export-egraph-errors");
  const std::string file = scratch.file("taso.json");
  CliResult r = run_mctsat("optimize demo --strategy taso --export-egraph " + file);
  CHECK(r.status != 0);
  CHECK(r.output.find("--export-egraph: strategy taso") != std::string::npos);
  CHECK_FALSE(fs::exists(file));
  const std::string missing = scratch.file("no-such-dir/demo.json");
  r = run_mctsat("optimize demo --strategy eqsat --quiet --export-egraph " + missing);
  CHECK(r.status != 0);
  CHECK(r.output.find(missing) != std::string::npos);
  CHECK(fs::is_empty(scratch.dir));
}
