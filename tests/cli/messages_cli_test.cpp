// What commands tell a person while and after they work: a "wrote FILE" line for every file
// written (never inside --json output), verify's per-rule progress on stderr, bench's progress
// lines naming the rule set, option help that names enum values and their default, and `run`
// refusing options that only the timed oneDNN executor reads.
#include <filesystem>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {}  // namespace

TEST_CASE("optimize and show say which files they wrote") {
  Scratch scratch("mctsat-messages");
  const std::string svg = scratch.file("demo.svg"), report = scratch.file("report.json");
  const CliResult optimize =
      run_mctsat("optimize demo --strategy eqsat -o " + svg + " --report " + report);
  REQUIRE_MESSAGE(optimize.status == 0, optimize.output);
  CHECK(fs::exists(svg));
  CHECK(contains(optimize.output, "wrote           " + svg + "\n"));
  CHECK(contains(optimize.output, "wrote           " + report + "\n"));
  // --json prints the report alone.
  CHECK(
      run_json("optimize demo --strategy eqsat -o " + svg + " --json").contains("speedup_percent"));

  const std::string dot = scratch.file("demo.dot");
  const CliResult show = run_mctsat("show demo --svg " + svg + " --dot " + dot);
  REQUIRE_MESSAGE(show.status == 0, show.output);
  CHECK(contains(show.output, "wrote " + dot + "\n"));
  CHECK(contains(show.output, "wrote " + svg + "\n"));
  CHECK_FALSE(contains(run_mctsat("show demo").output, "wrote"));
}

TEST_CASE("verify reports each rule on stderr as it finishes, but not with --json") {
  Scratch scratch("mctsat-verify-progress");
  const std::string rules = example_file("rules/fusion.rules");
  const CliResult r = run_mctsat("verify " + rules + " --cache-dir " + scratch.file("cache"));
  REQUIRE_MESSAGE(r.status == 0, r.output);
  for (int done = 1; done <= 5; ++done)
    CHECK(contains(r.output, "[" + std::to_string(done) + "/5] "));
  CHECK(contains(r.output, "matmul-relu-fuse: shape pass, axioms "));
  // The JSON output stays parseable with stderr mixed in: there is no progress then.
  const json report = run_json("verify " + rules + " --json --cache-dir " + scratch.file("cache"));
  CHECK(report["summary"]["rules"] == 5);
}

TEST_CASE("bench progress lines name the model, rule set, configuration, cost model and seed") {
  Scratch scratch("mctsat-bench-progress");
  const CliResult r = run_mctsat("bench " + example_file("study.json") + " --out " +
                                 scratch.file("out") + " --jobs 2");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK_MESSAGE(contains(r.output, "] mlp / mine / eqsat / roofline-v100 / seed 1: "), r.output);
  CHECK(contains(r.output, "] demo / taso / mcts / "));
}

TEST_CASE("enum options list their names and default, not CLI11's integer codes") {
  const CliResult help = run_mctsat("optimize --help");
  REQUIRE(help.status == 0);
  CHECK_MESSAGE(contains(help.output, "--tie-break {visits,random,fair}=visits"), help.output);
  CHECK(contains(help.output, "--policy {random,heavy,lookahead}=random"));
  CHECK_FALSE(contains(help.output, "->0"));
  CHECK(run_mctsat("optimize demo --tie-break fair --policy heavy --strategy eqsat").status == 0);
  CHECK(run_mctsat("optimize demo --tie-break 2").status != 0);
}

TEST_CASE("run refuses the timed executor's options without --engine dnnl") {
  for (const char* option : {"--runs 3", "--warmup 1", "--threads 2", "--compare demo"}) {
    const CliResult r = run_mctsat(std::string("run demo ") + option);
    CHECK_MESSAGE(r.status != 0, option);
    CHECK_MESSAGE(contains(r.output, "add --engine dnnl"), r.output);
  }
  CHECK(run_mctsat("run demo --seed 2").status == 0);
}
