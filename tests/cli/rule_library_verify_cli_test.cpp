// The shipped rule libraries verify completely: every rule (rules/taso's 139, rules/exporters' 5)
// passes the shape check and is proved from the axioms or passes the numeric test, and every
// axiom passes its checks (slow: minutes of Z3 and numeric tests without the cache).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

TEST_CASE("verify passes all 139 rules of rules/taso") {
  const CliResult r =
      run_mctsat("verify " + std::string(MCTSAT_SOURCE_DIR) + "/rules/taso --no-cache --json");
  CAPTURE(r.output.substr(0, 4000));
  REQUIRE(r.status == 0);
  const auto summary = nlohmann::json::parse(r.output)["summary"];
  CHECK(summary["rules"] == 139);
  CHECK(summary["failed"] == 0);
  CHECK(summary["rule_shape"]["pass"] == 139);
}

TEST_CASE("verify passes every rule of rules/exporters") {
  const CliResult r =
      run_mctsat("verify " + std::string(MCTSAT_SOURCE_DIR) + "/rules/exporters --no-cache --json");
  CAPTURE(r.output.substr(0, 4000));
  REQUIRE(r.status == 0);
  const auto summary = nlohmann::json::parse(r.output)["summary"];
  CHECK(summary["rules"] == 5);
  CHECK(summary["failed"] == 0);
  CHECK(summary["rule_shape"]["pass"] == 5);
}
