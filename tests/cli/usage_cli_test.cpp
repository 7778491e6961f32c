// The command line talks to a person: `mctsat` alone prints the help, mistyped commands, flags,
// choices and operators get a "did you mean", --help uses one vocabulary of value labels (no
// CLI11 composites such as "TEXT:UINT" or "UINT:[0 - 18446744073709551615]"), a negated flag's
// help says what the flag does, and `ops` says what mode codes mean.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

TEST_CASE("mctsat alone prints the help") {
  const CliResult r = run_mctsat("");
  CHECK(r.status == 0);
  CHECK(contains(r.output, "Subcommands:"));
  CHECK(contains(r.output, "optimize"));
}

TEST_CASE("a mistyped command, flag, choice or operator gets a suggestion") {
  CliResult r = run_mctsat("optimze demo");
  CHECK(r.status >= 100);  // a malformed command line
  CHECK_MESSAGE(
      contains(r.output, "error: unknown command 'optimze' of mctsat (did you mean 'optimize'?)"),
      r.output);
  CHECK_FALSE(contains(r.output, "A subcommand is required"));  // CLI11's words for it
  r = run_mctsat("rules chek x.rules");
  CHECK(r.status >= 100);
  CHECK_MESSAGE(
      contains(r.output, "unknown command 'chek' of mctsat rules (did you mean 'check'?)"),
      r.output);
  r = run_mctsat("optimize demo --sed 3");
  CHECK(r.status >= 100);
  CHECK_MESSAGE(contains(r.output, "did you mean '--seed'?"), r.output);
  r = run_mctsat("optimize demo --strategy mtcs");
  CHECK(r.status >= 100);
  CHECK_MESSAGE(contains(r.output, "did you mean 'mcts'?"), r.output);
  r = run_mctsat("ops conv2x");
  CHECK(r.status == 1);
  CHECK_MESSAGE(contains(r.output, "did you mean 'conv2d'?"), r.output);
  // Nothing close: no suggestion.
  r = run_mctsat("frobnicate");
  CHECK(r.status >= 100);
  CHECK_MESSAGE(contains(r.output, "unknown command 'frobnicate' of mctsat\n"), r.output);
  CHECK_FALSE(contains(r.output, "did you mean"));

  Scratch scratch("mctsat-typo-rules");
  std::ofstream(scratch.file("typo.rules")) << "rule r: (rleu ?x) => ?x\n";
  r = run_mctsat("rules check " + scratch.file("typo.rules"));
  CHECK(r.status == 1);
  CHECK_MESSAGE(contains(r.output, "unknown operator 'rleu' (did you mean 'relu'?)"), r.output);
}

TEST_CASE("--help labels values with one vocabulary across commands") {
  std::set<std::string> labels;
  static const std::regex option(R"(^  (?:-\w,)?--[a-z][a-z0-9-]*(?:,[^ ]+)? ([^ =]+))");
  for (const char* command :
       {"optimize", "run", "extract", "verify", "bench", "show", "rules synthesize", "profile"}) {
    const CliResult r = run_mctsat(std::string(command) + " --help");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK_FALSE(contains(r.output, "TEXT:"));
    CHECK_FALSE(contains(r.output, "18446744073709551615"));
    CHECK_FALSE(contains(r.output, "INT:"));
    CHECK_FALSE(contains(r.output, "FLOAT"));
    CHECK_FALSE(contains(r.output, "{false}"));
    std::istringstream in(r.output);
    for (std::string line; std::getline(in, line);) {
      std::smatch m;
      if (std::regex_search(line, m, option)) labels.insert(m[1]);
    }
  }
  // --seed is a UINT wherever it appears.
  CHECK(std::regex_search(run_mctsat("optimize --help").output, std::regex(R"(--seed UINT=1)")));
  CHECK(std::regex_search(run_mctsat("run --help").output, std::regex(R"(--seed UINT=1)")));
  // A count is a UINT in every command (no option takes a negative integer).
  const CliResult all = run_mctsat("--help-all");
  CHECK(contains(all.output, "--guard-rounds UINT=20"));
  CHECK_FALSE(std::regex_search(all.output, std::regex(R"( INT[=:\s])")));
  for (const std::string& label : labels) {
    CAPTURE(label);
    CHECK(std::regex_match(
        label, std::regex(R"((UINT|INT|NUMBER|TEXT|FILE|DIR|PATH)(:\[.*\])?|\{.*\}|\.\.\.)")));
  }
}

TEST_CASE("a negated flag's help says what the flag does") {
  const CliResult r = run_mctsat("optimize --help");
  REQUIRE(r.status == 0);
  const auto at = r.output.find("--continue-without-gain");
  REQUIRE(at != std::string::npos);
  const std::string text = r.output.substr(at, r.output.find("\n  -", at) - at);
  CHECK_MESSAGE(contains(text, "Turns off mcts.stop_without_gain (on by default)"), text);
}

TEST_CASE("ops says what the codes of pad and act mean") {
  const CliResult r = run_mctsat("ops conv2d");
  REQUIRE(r.status == 0);
  CHECK(contains(r.output, "pad: integer 0..2 (0 SAME, 1 VALID, 2 SAME_LOWER)"));
  CHECK(contains(r.output, "act: integer 0..3 (0 none, 1 sigmoid, 2 relu, 3 tanh)"));
  const auto json = run_json("ops conv2d --json");
  bool found = false;
  for (const auto& param : json[0]["params"])
    if (param["name"] == "pad") {
      CHECK(param["values"] == "0 SAME, 1 VALID, 2 SAME_LOWER");
      found = true;
    }
  CHECK(found);
}
