// `mctsat verify` end to end: a per-rule table and summary, JSON output, a non-zero exit with the
// counterexample (values, location with column, printed once) for an unsound rule, the cache, and
// clear errors for bad arguments.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace {

const std::string kSourceDir = MCTSAT_SOURCE_DIR;

std::string fresh_cache() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mctsat-verify-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

}  // namespace

TEST_CASE("verify passes sound TASO rules and caches the results") {
  const std::string cache = fresh_cache();
  const std::string args = "verify " + kSourceDir +
                           "/rules/taso --only concat-02 multi-01 ewadd-comm --cache-dir " + cache;
  const CliResult first = run_mctsat(args);
  CAPTURE(first.output);
  CHECK(first.status == 0);
  CHECK(first.output.find("concat-02") != std::string::npos);
  CHECK(first.output.find("2 rules: shape 2 pass, 0 fail, 0 unknown") != std::string::npos);
  CHECK(first.output.find("(0 from the cache)") != std::string::npos);

  const CliResult second = run_mctsat(args + " --json");
  CAPTURE(second.output);
  REQUIRE(second.status == 0);
  const auto json = nlohmann::json::parse(second.output);
  CHECK(json["summary"]["cached"] == 3);
  CHECK(json["summary"]["failed"] == 0);
  CHECK(json["summary"]["rule_proof"]["pass"] == 2);  // both follow from the axioms
  for (const auto& r : json["results"]) CHECK(r["numeric"]["verdict"] == "pass");
  std::filesystem::remove_all(cache);
}

TEST_CASE("verify fails an unsound rule and prints its counterexample") {
  const CliResult r =
      run_mctsat("verify " + kSourceDir + "/tests/verify/unsound/matmul-commutes.rules --no-cache");
  CAPTURE(r.output);
  CHECK(r.status != 0);
  CHECK(r.output.find("matmul-commutes") != std::string::npos);
  CHECK(r.output.find("shape fail: the two sides have different shapes for ?a: [") !=
        std::string::npos);
  CHECK(r.output.find("1 of 1 rules and axioms failed verification") != std::string::npos);
  // The numeric counterexample: where (with a column), the element that differs with both
  // sides' values, printed once (the "not verified" line refers to it without repeating it).
  const std::string at = "matmul-commutes.rules:3:";
  const auto numeric = r.output.find(": numeric fail: the sides differ for ?a: [");
  REQUIRE(numeric != std::string::npos);
  const std::string line =
      r.output.substr(r.output.rfind('\n', numeric) + 1,
                      r.output.find('\n', numeric) - r.output.rfind('\n', numeric) - 1);
  CHECK(std::regex_search(line, std::regex(R"(matmul-commutes\.rules:3:[0-9]+: numeric fail)")));
  CHECK(std::regex_search(
      line,
      std::regex(
          R"(output 0 element \[[0-9, ]+\] is -?[0-9.e+-]+ on the left, -?[0-9.e+-]+ on the right)")));
  std::size_t mentions = 0;
  for (auto p = r.output.find("the sides differ"); p != std::string::npos;
       p = r.output.find("the sides differ", p + 1))
    ++mentions;
  CHECK(mentions == 1);
  CHECK(r.output.find("numeric test (fail) shows") != std::string::npos);
}

TEST_CASE("a counterexample small enough shows its inputs' values") {
  const CliResult r =
      run_mctsat("verify " + kSourceDir + "/tests/verify/unsound/relu-dropped.rules --no-cache");
  CAPTURE(r.output);
  CHECK(r.status != 0);
  CHECK(std::regex_search(r.output, std::regex(R"(; inputs \?x = \[)")));
}

TEST_CASE("optimize --verify-rules refuses a rule that fails, naming it") {
  const std::string cache = fresh_cache();
  ::setenv("XDG_CACHE_HOME", cache.c_str(), 1);  // the default cache, kept out of $HOME
  const CliResult r = run_mctsat("optimize demo --verify-rules --rules " + kSourceDir +
                                 "/tests/verify/unsound/relu-dropped.rules");
  CAPTURE(r.output);
  CHECK(r.status != 0);
  CHECK(r.output.find("--verify-rules: 1 of 1 rules failed verification") != std::string::npos);
  CHECK(r.output.find("rule relu-dropped: the sides differ for ?x: [") != std::string::npos);
  std::filesystem::remove_all(cache);
}

TEST_CASE("verify says when its cache cannot be written, and still verifies") {
  const CliResult r = run_mctsat("verify " + kSourceDir +
                                 "/rules/taso --only ewadd-comm --cache-dir /dev/null/cache");
  CHECK(r.status == 0);
  CHECK(r.output.find("warning: the verification cache /dev/null/cache cannot be written") !=
        std::string::npos);
  const CliResult fine = run_mctsat("verify " + kSourceDir +
                                    "/rules/taso --only ewadd-comm --cache-dir " + fresh_cache());
  CHECK(fine.status == 0);
  CHECK(fine.output.find("cannot be written") == std::string::npos);
}

TEST_CASE("verify --axioms names the axioms the proofs use") {
  const std::string rules = kSourceDir + "/rules/taso";
  const CliResult own =
      run_mctsat("verify " + rules + "/concat.rules --only concat-02 --no-cache " + "--axioms " +
                 rules + "/axioms.rules");
  CHECK(own.status == 0);
  CHECK(own.output.find("from " + rules + "/axioms.rules") != std::string::npos);
  const CliResult both = run_mctsat("verify " + rules + "/axioms.rules " + rules +
                                    "/concat.rules --no-cache --axioms " + rules + "/axioms.rules");
  CHECK(both.status != 0);
  CHECK(both.output.find("--axioms") != std::string::npos);
}

TEST_CASE("verify reports bad arguments clearly") {
  const CliResult unknown_rule =
      run_mctsat("verify " + kSourceDir + "/rules/taso --only no-such-rule --no-cache");
  CHECK(unknown_rule.status != 0);
  CHECK(unknown_rule.output.find("no rule or axiom is named 'no-such-rule'") != std::string::npos);
  const CliResult missing = run_mctsat("verify /nonexistent/file.rules");
  CHECK(missing.status != 0);
  CHECK(missing.output.find("/nonexistent/file.rules") != std::string::npos);
}

TEST_CASE("a rule with no passing proof or numeric test is not verified (exit 1)") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mctsat-verify-unverified-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "never.rules").string();
  // The right-hand side is never well-formed where the left-hand side is: the concat of two
  // products along axis 1 keeps the rows of ?a; the rewritten product concatenates along axis 0.
  std::ofstream(file) << "rule never-well-formed:\n"
                         "  (concat 1 2 (matmul 0 ?a ?b) (matmul 0 ?a ?c))\n"
                         "  => (matmul 0 ?a (concat 0 2 ?b ?c))\n";
  const CliResult r = run_mctsat("verify " + file + " --no-cache");
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(r.output.find("not verified") != std::string::npos);
  // The file declares no axioms: the shipped ones are used, and the output says so.
  CHECK(r.output.find("axioms.rules") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a sound rule with a list variable (a permutation, which holds 0) is verified") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("mctsat-verify-lists-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "perm.rules").string();
  std::ofstream(file) << "rule relu-through-transpose:\n"
                         "  (relu (transpose ?x ?p)) => (transpose (relu ?x) ?p)\n";
  const CliResult r = run_mctsat("verify " + file + " --no-cache --json");
  CAPTURE(r.output);
  REQUIRE(r.status == 0);
  const auto json = nlohmann::json::parse(r.output);
  CHECK(json["results"][0]["shape"]["verdict"] == "pass");
  CHECK(json["results"][0]["numeric"]["verdict"] == "pass");
  std::filesystem::remove_all(dir);
}
