// Rule libraries by name (`--rules taso,extended`, rules/extended: synthesized rules that earn
// their place) and rules' verification levels: a zoo model optimized with both libraries beyond
// the best graph TASO's rules alone give, its output passing --check; an unknown library name
// refused with the list; `verify` checking a rule's @verified level and writing it
// (--write-levels); a sample of rules/extended verified at the levels it states.
#include <fstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace {
// Equality saturation, as the rule-synthesis studies ran it: quick on SqueezeNet.
const std::string kEqsat =
    " --strategy eqsat --eqsat-node-limit 20000 --iterations 10 --final-extract dag --json";
// The cheapest SqueezeNet known with rules/taso alone (bench/results/best-known.md: +49.72%).
constexpr double kTasoBestKnownMs = 0.376063;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST_CASE("--rules taso,extended optimizes SqueezeNet beyond TASO's rules, output checked") {
  Scratch scratch("mctsat-extended");
  const std::string graph = scratch.file("squeezenet.json");
  const auto both =
      run_json("optimize squeezenet --rules taso,extended --check -o " + graph + kEqsat);
  CHECK(both["check"]["passed"] == true);
  CHECK(both["optimized_cost_ms"].get<double>() < kTasoBestKnownMs * 0.99);
  bool synthesized = false;
  for (const auto& used : both["rules_used"])
    synthesized |= used["rule"].get<std::string>().starts_with("synthesized-");
  CHECK(synthesized);
  // The written graph computes what the model does.
  const CliResult rerun = run_mctsat("optimize " + graph + " --strategy eqsat --check --json");
  REQUIRE_MESSAGE(rerun.status == 0, rerun.output);
  CHECK(nlohmann::json::parse(rerun.output)["check"]["passed"] == true);

  // The same names, given as two options or two words, load the same rules.
  const auto separate = run_json("optimize squeezenet --rules taso extended" + kEqsat);
  CHECK(separate["optimized_cost_ms"] == both["optimized_cost_ms"]);
  // TASO's library alone stays at its best known.
  const auto taso = run_json("optimize squeezenet --rules taso" + kEqsat);
  CHECK(taso["optimized_cost_ms"].get<double>() >= kTasoBestKnownMs * 0.999);
}

TEST_CASE("an unknown rule library name is refused with the libraries there are") {
  const CliResult r = run_mctsat("optimize squeezenet --rules taso,extnded");
  CHECK(r.status != 0);
  CHECK_MESSAGE(contains(r.output, "no rule file, directory or rule library named 'extnded'"),
                r.output);
  CHECK_MESSAGE(contains(r.output, "exporters, extended, taso"), r.output);
}

TEST_CASE("verify checks a rule's @verified level and --write-levels writes it") {
  Scratch scratch("mctsat-levels");
  const std::string file = scratch.file("levels.rules");
  // ewadd-comm follows from the axioms: its level is axioms, not the samples it claims.
  std::ofstream(file) << "# a comment\n@tags(t)\n@verified(samples)\nrule comm: (ewadd ?x ?y) "
                         "=> (ewadd ?y ?x)\n\nrule relu2: (relu (relu ?x)) => (relu ?x)\n";
  const std::string cache = " --cache-dir " + scratch.file("cache");
  const CliResult unmet = run_mctsat("verify " + file + cache + " --json");
  REQUIRE(unmet.status != 0);
  const auto json = nlohmann::json::parse(unmet.output.substr(0, unmet.output.rfind("}\n") + 1));
  CHECK(json["summary"]["claims_unmet"] == 1);
  CHECK(json["results"][0]["claimed_level"] == "samples");
  CHECK(json["results"][0]["level"] == "axioms");
  CHECK(json["results"][1]["claimed_level"].is_null());

  const CliResult write = run_mctsat("verify " + file + cache + " --write-levels");
  REQUIRE_MESSAGE(write.status == 0, write.output);
  CHECK_MESSAGE(contains(write.output, "wrote 2 @verified annotations"), write.output);
  const std::string text = read_file(file);
  CHECK_MESSAGE(contains(text, "# a comment\n@tags(t)\n@verified(axioms)\nrule comm:"), text);
  CHECK_MESSAGE(contains(text, "\n\n@verified("), text);
  CHECK_MESSAGE(contains(text, ")\nrule relu2:"), text);
  const auto again = run_json("verify " + file + cache + " --json");
  CHECK(again["summary"]["claims_unmet"] == 0);
  CHECK(again["summary"]["levels_written"] == 0);
}

// Two rules at each level per file, both directions of a `<=>` rule (marked "<=>" here), without
// the cache: the whole library takes minutes (bench/results/2026-12-05-extended-rules).
TEST_CASE("a sample of rules/extended is at the level its @verified states") {
  std::string only;
  for (std::string name :
       {"conv-3-001", "conv-3-002<=>", "conv-3-006<=>", "conv-3-007<=>", "convpairs-1-001",
        "convpairs-1-002<=>", "convpairs-1-010<=>", "convpairs-1-011<=>", "matrix-3-001<=>",
        "matrix-3-002<=>", "matrix-3-005", "matrix-3-006", "matrixpairs-1-001<=>",
        "matrixpairs-1-002<=>", "matrixpairs-1-004<=>", "matrixpairs-1-006<=>"}) {
    const bool both = name.ends_with("<=>");
    if (both) name.resize(name.size() - 3);
    only += " synthesized-" + name + (both ? " synthesized-" + name + "-reverse" : "");
  }
  const auto r = run_json("verify extended --no-cache --json --only" + only);
  CHECK(r["summary"]["rules"] == 28);
  CHECK(r["summary"]["failed"] == 0);
  CHECK(r["summary"]["claims_unmet"] == 0);
  CHECK(r["summary"]["rule_levels"]["axioms"] == 16);
  CHECK(r["summary"]["rule_levels"]["shapes"] == 12);
}
