// examples/: every command of the walkthrough (examples/README.md) runs, and the examples do what
// the walkthrough says: the user rules fuse ReLUs into products and merge the two products, and
// the example study runs its whole grid.
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
