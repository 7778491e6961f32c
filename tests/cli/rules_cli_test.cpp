// `mctsat rules check|fmt|import-tensat` end to end: the summary of the shipped library (text and
// JSON), located diagnostics with the source line and a caret, the canonical form and its fixed
// point, converting TENSAT's rule files (and writing nothing when they are bad), and --help.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "support/files.hpp"
#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kSource = MCTSAT_SOURCE_DIR;
const std::string kTaso = kSource + "/rules/taso";
const std::string kTensat = MCTSAT_TENSAT_DATA_DIR "/";

// A fresh directory of this process's own, removed with everything in it at the end of the test.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("mctsat-rules-cli-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  std::string write(const std::string& name, const std::string& contents) const {
    std::ofstream(path_ / name) << contents;
    return (path_ / name).string();
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(path_), fs::directory_iterator()));
  }

 private:
  fs::path path_;
};

// The output of a command that must succeed.
std::string run_ok(const std::string& arguments) {
  const CliResult r = run_mctsat(arguments);
  INFO(arguments);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  return r.output;
}

}  // namespace

TEST_CASE("rules check summarizes the shipped library per ruleset") {
  const std::string out = run_ok("rules check " + kTaso);
  CHECK(contains(out, "8 files, 139 rules, 29 axioms\n"));
  CHECK(contains(out, "ruleset           rules  multi  conditional  axioms\n"));
  CHECK(contains(out, "taso                139     15           37      29\n"));
  CHECK_FALSE(contains(out, "warning"));

  const json summary = json::parse(run_ok("rules check --json " + kTaso));
  CHECK(summary["rules"] == 139);
  CHECK(summary["axioms"] == 29);
  CHECK(summary["files"].size() == 8);
  CHECK(summary["files"][0] == kTaso + "/activation.rules");
  REQUIRE(summary["rulesets"].size() == 1);
  const json& taso = summary["rulesets"]["taso"];
  CHECK(taso["rules"] == 139);
  CHECK(taso["multi_pattern"] == 15);
  CHECK(taso["conditional"] == 37);
  CHECK(taso["axioms"] == 29);
}

TEST_CASE("rules check counts each ruleset of several files") {
  const ScratchDir dir("rulesets");
  const std::string a = dir.write("a.rules",
                                  "ruleset alpha\n"
                                  "rule a1: (relu (relu ?x)) => (relu ?x)\n"
                                  "rule a2: (ewadd ?x ?y) <=> (ewadd ?y ?x)\n"
                                  "axiom a3: (relu ?x) == (relu ?x)\n");
  const std::string b = dir.write("b.rules",
                                  "ruleset beta\n"
                                  "rule b1: (tanh ?x) => (tanh ?x) where rank(?x) == 2\n");
  const std::string out = run_ok("rules check " + a + " " + b);
  CHECK(contains(out, "2 files, 4 rules, 1 axioms\n"));
  CHECK(contains(out, "alpha                 3      0            0       1\n"));
  CHECK(contains(out, "beta                  1      0            1       0\n"));
  const json summary = json::parse(run_ok("rules check --json " + a + " " + b));
  CHECK(summary["rulesets"]["alpha"]["rules"] == 3);
  CHECK(summary["rulesets"]["beta"]["conditional"] == 1);
}

TEST_CASE("rules check points at every error in a broken file and exits with status 1") {
  const ScratchDir dir("broken");
  const std::string broken = dir.write("broken.rules",
                                       "ruleset broken\n"
                                       "rule ok: (relu ?x) => ?x\n"
                                       "rule unknown: (nosuch ?x) => ?x\n"
                                       "rule syntax: (relu ?x => ?x\n"
                                       "rule unbound: (relu ?x) => (tanh ?y)\n");
  const CliResult r = run_mctsat("rules check " + broken);
  CHECK(r.status == 1);
  CHECK(contains(r.output, broken + ":3:15: error: unknown operator 'nosuch'\n"
                                    "  rule unknown: (nosuch ?x) => ?x\n"
                                    "                ^\n"));
  CHECK(contains(r.output, broken + ":4:23: error: expected ')'\n"
                                    "  rule syntax: (relu ?x => ?x\n"
                                    "                        ^\n"));
  CHECK(contains(r.output, broken + ":5:34: error: ?y on the right-hand side is not bound by the "
                                    "left-hand side\n"
                                    "  rule unbound: (relu ?x) => (tanh ?y)\n"
                                    "                                   ^\n"));
  CHECK(contains(r.output, "3 errors in rule files"));
  CHECK_FALSE(contains(r.output, "rules,"));  // no summary

  // Warnings alone do not fail the check.
  const std::string unused = dir.write("unused.rules", "rule u: (ewadd ?x ?y) => (relu ?x)\n");
  const CliResult w = run_mctsat("rules check " + unused);
  CHECK(w.status == 0);
  CHECK(contains(w.output, unused + ":1:19: warning: ?y is bound but never used\n"));
  CHECK(contains(w.output, "1 files, 1 rules, 0 axioms"));

  // A file that does not exist, and an include cycle.
  CHECK(run_mctsat("rules check " + dir / "missing.rules").status == 1);
  dir.write("c1.rules", "include \"c2.rules\"\n");
  dir.write("c2.rules", "include \"c1.rules\"\n");
  const CliResult cycle = run_mctsat("rules check " + dir / "c1.rules");
  CHECK(cycle.status == 1);
  CHECK(contains(cycle.output, "include cycle: c1.rules -> c2.rules -> c1.rules"));
}

TEST_CASE("rules fmt prints the canonical form, which is its own canonical form") {
  const ScratchDir dir("fmt");
  const std::string messy =
      dir.write("messy.rules",
                "# leading comment\nruleset   messy\n"
                "@tags(a,b)  rule r1:(matmul ?act (matmul 0 ?a ?b) ?c)=>(matmul ?act ?a ?b)"
                "  where (?act+1)*2==dim(?a,0)-(1-2)\n"
                "rule r2: (relu ?x),(tanh ?y) <=> (relu ?y),(tanh ?x)\n"
                "axiom ax: forall ?x. (relu ?x)==(relu (relu ?x))  # trailing\n");
  const std::string once = run_ok("rules fmt " + messy);
  CHECK(once ==
        "# leading comment\n"
        "ruleset messy\n"
        "\n"
        "@tags(a, b)\n"
        "rule r1:\n"
        "  (matmul ?act (matmul 0 ?a ?b) ?c)\n"
        "  => (matmul ?act ?a ?b)\n"
        "  where (?act + 1) * 2 == dim(?a, 0) - (1 - 2)\n"
        "\n"
        "rule r2:\n"
        "  (relu ?x),\n"
        "    (tanh ?y)\n"
        "  <=> (relu ?y),\n"
        "    (tanh ?x)\n"
        "\n"
        "axiom ax: forall ?x.\n"
        "  (relu ?x)\n"
        "  == (relu (relu ?x))\n"
        "\n"
        "# trailing\n");
  const std::string formatted = dir.write("formatted.rules", once);
  CHECK(run_ok("rules fmt " + formatted) == once);

  // Every shipped file is a fixed point after one formatting.
  for (const auto& entry : fs::directory_iterator(kTaso)) {
    CAPTURE(entry.path().string());
    const std::string first = run_ok("rules fmt " + entry.path().string());
    const std::string copy = dir.write("copy.rules", first);
    CHECK(run_ok("rules fmt " + copy) == first);
  }

  const std::string broken = dir.write("broken.rules", "rule r: (relu ?x => ?x\n");
  const CliResult r = run_mctsat("rules fmt " + broken);
  CHECK(r.status == 1);
  CHECK(contains(r.output, broken + ":1:18: error: expected ')'"));
}

TEST_CASE("rules import-tensat converts TENSAT's rule files into rules that check") {
  const ScratchDir dir("import");
  const std::string out = dir / "tensat.rules";
  const std::string printed = run_ok("rules import-tensat " + kTensat + "converted.txt --multi " +
                                     kTensat + "converted_multi.txt -o " + out);
  CHECK(contains(printed, "wrote 133 rules to " + out));
  const std::string text = mctsat::read_text_file(out);
  CHECK(contains(text, "ruleset tensat\n"));
  CHECK(contains(text, "rule tensat-120:"));
  CHECK(contains(text, "rule tensat-multi-13:"));
  CHECK_FALSE(contains(text, "rule tensat-121:"));
  CHECK(contains(run_ok("rules check " + out), "1 files, 133 rules, 0 axioms"));

  const json summary = json::parse(run_ok("rules check --json " + out));
  CHECK(summary["rulesets"]["tensat"]["multi_pattern"] == 13);
  CHECK(dir.entries() == 1);  // no temporary file left behind

  // --ruleset names the ruleset.
  const std::string named = dir / "named.rules";
  run_ok("rules import-tensat " + kTensat + "converted.txt --ruleset mine -o " + named);
  CHECK(contains(mctsat::read_text_file(named), "ruleset mine\n"));
}

TEST_CASE("rules import-tensat writes nothing when its input is bad") {
  const ScratchDir dir("import-bad");
  const std::string out = dir / "out.rules";
  // A syntax error on line 2.
  const std::string syntax = dir.write("syntax.txt",
                                       "(ewadd ?a ?b)=>(ewadd ?b ?a)\n"
                                       "(relu ?x=>(relu ?x)\n");
  CliResult r = run_mctsat("rules import-tensat " + syntax + " -o " + out);
  CHECK(r.status == 1);
  CHECK(contains(r.output, syntax + ":2:"));
  CHECK_FALSE(fs::exists(out));

  // Parses, but does not check: an unknown operator.
  const std::string unknown = dir.write("unknown.txt", "(frobnicate ?a)=>?a\n");
  r = run_mctsat("rules import-tensat " + unknown + " -o " + out);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "unknown operator 'frobnicate'"));
  CHECK_FALSE(fs::exists(out));

  // A multi-pattern file with an odd number of lines.
  const std::string good = dir.write("good.txt", "(ewadd ?a ?b)=>(ewadd ?b ?a)\n");
  const std::string odd = dir.write("odd.txt", "(relu ?x)=>(relu ?x)\n");
  r = run_mctsat("rules import-tensat " + good + " --multi " + odd + " -o " + out);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "two lines per rule"));
  CHECK_FALSE(fs::exists(out));

  // A missing input file, and a missing -o.
  CHECK(run_mctsat("rules import-tensat " + dir / "none.txt" + " -o " + out).status == 1);
  CHECK(run_mctsat("rules import-tensat " + unknown).status != 0);
  CHECK_FALSE(fs::exists(out));
  CHECK(dir.entries() == 4);  // the four inputs
}

TEST_CASE("rules and each of its commands has --help") {
  CHECK(contains(run_ok("rules --help"), "Check, format, import and synthesize rule files"));
  for (const char* command : {"check", "fmt", "import-tensat", "synthesize", "derivable"}) {
    const std::string help = run_ok(std::string("rules ") + command + " --help");
    CHECK(contains(help, std::string("rules ") + command + " [OPTIONS]"));
  }
  CHECK(contains(run_ok("rules check --help"), "--json"));
  CHECK(contains(run_ok("rules import-tensat --help"), "--multi"));
  CHECK(run_mctsat("rules").status != 0);  // a command is required
  CHECK(run_mctsat("rules nonsense").status != 0);
  CHECK(run_mctsat("rules check").status != 0);  // a path is required
}
