// examples/: every command of the walkthrough (examples/README.md) runs, and the examples do what
// the walkthrough says: the user rules fuse ReLUs into products and merge the two products, and
// the example study runs its whole grid; `mctsat examples` copies them and the rule library, and
// never overwrites.
#include <filesystem>
#include <fstream>
#include <set>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"
#include "tests/cli/doc_commands.hpp"

using nlohmann::json;

namespace {

std::set<std::string> rules_used(const json& report) {
  std::set<std::string> names;
  for (const auto& used : report["rules_used"]) names.insert(used["rule"].get<std::string>());
  return names;
}

}  // namespace

TEST_CASE("every command of examples/README.md runs") {
  CHECK(check_page_commands("examples/README.md") >= 15);
}

TEST_CASE("mctsat examples copies the examples and the rule library, and overwrites nothing") {
  namespace fs = std::filesystem;
  Scratch scratch("mctsat-examples-copy");
  const CliResult copied = run_mctsat("examples " + scratch.file("tour"));
  REQUIRE_MESSAGE(copied.status == 0, copied.output);
  CHECK(fs::is_regular_file(scratch.dir / "tour/examples/study.json"));
  CHECK(fs::is_regular_file(scratch.dir / "tour/examples/rules/fusion.rules"));
  CHECK(fs::is_regular_file(scratch.dir / "tour/rules/taso/multi.rules"));
  std::size_t entries = 0;  // no staging folder left behind
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(scratch.dir / "tour")) ++entries;
  CHECK(entries == 2);

  // A second copy into the same place is refused, naming what exists, and changes nothing.
  std::ofstream(scratch.dir / "tour/examples/study.json") << "mine";
  const CliResult again = run_mctsat("examples " + scratch.file("tour"));
  CHECK(again.status == 1);
  CHECK_MESSAGE(contains(again.output, (scratch.dir / "tour/examples").string() + ": error: "),
                again.output);
  std::ifstream kept(scratch.dir / "tour/examples/study.json");
  CHECK(std::string(std::istreambuf_iterator<char>(kept), {}) == "mine");

  // --path names the checkout's examples for the binary in its build tree.
  const CliResult path = run_mctsat("examples --path");
  REQUIRE(path.status == 0);
  CHECK(path.output == (fs::path(MCTSAT_SOURCE_DIR) / "examples").string() + "\n");
}

TEST_CASE("the example rules fuse ReLUs and merge the products of one input") {
  const std::string model = example_file("models/mlp.json");
  const json shipped = run_json("optimize " + model + " --strategy eqsat --json");
  const json mine = run_json("optimize " + model + " --rules " + example_file("rules") +
                             " --strategy eqsat --json");
  const auto used = rules_used(mine);
  CHECK(used.count("matmul-relu-fuse") == 1);
  CHECK(used.count("matmul-share-input") == 1);
  // Both libraries together find more than the shipped one alone (the walkthrough's +78.9%).
  const json both = run_json("optimize " + model + " --rules " + MCTSAT_SOURCE_DIR +
                             "/rules/taso " + example_file("rules") + " --strategy eqsat --json");
  CHECK(both["speedup_percent"].get<double>() > shipped["speedup_percent"].get<double>());
  CHECK(rules_used(both).count("matmul-relu-fuse") == 1);
  // The include brought merge.rules' rule into the including file's ruleset.
  const json selected = run_json("optimize " + model + " --rules " + example_file("rules") +
                                 " --ruleset mine --rule matmul-share-input --strategy eqsat "
                                 "--json");
  CHECK(rules_used(selected) == std::set<std::string>{"matmul-share-input"});
}

TEST_CASE("the example study runs 2 models x 2 rule sets x 2 strategies") {
  Scratch scratch("mctsat-example-study");
  const json summary = run_json("bench " + example_file("study.json") + " --out " +
                                scratch.file("out") + " --jobs 2 --quiet --json");
  CHECK(summary["ran"] == 8);
  CHECK(summary["failed"] == 0);
  std::ifstream records(summary["results"].get<std::string>());
  std::set<std::string> rule_sets;
  for (std::string line; std::getline(records, line);) {
    const json record = json::parse(line);
    CHECK(record["status"] == "ok");
    rule_sets.insert(record["rules"]["name"].get<std::string>());
  }
  CHECK(rule_sets == std::set<std::string>{"mine", "taso"});
}
