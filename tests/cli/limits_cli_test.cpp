// Limits that hold whatever the other options, and hostile values that once crashed or misled
// mctsat (issue 38): a batch of 2^64 - 1 simulations, e-node limits beyond 32 bits, measurement
// instances beyond the memory, costs a solver cannot take, a command writing over its own input,
// and user rules that run unverified without a word.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

std::string write_text(const Scratch& scratch, const std::string& name, const std::string& text) {
  const std::string path = scratch.file(name);
  std::ofstream(path) << text;
  return path;
}

std::string read_text_of(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("a batch larger than memory or 64 bits allow runs as many simulations as there are") {
  // "cannot create std::vector larger than max_size()", exit 70; then 7.8 GB for a 10^9 batch.
  const CliResult r =
      run_mctsat("optimize demo --batch 18446744073709551615 --simulations 4 --max-steps 2 --json");
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK_FALSE(contains(r.output, "internal error"));
  const double mb =
      peak_rss_mb("optimize demo --batch 1000000000 --memory-limit 200 --seconds 5 --max-steps 2");
  CHECK(mb > 0);
  CHECK(mb < 1000);
}

TEST_CASE("e-node limits beyond 32 bits are range errors") {
  check_usage_error(run_mctsat("optimize demo --node-limit 4294967296"), "out of range");
  check_usage_error(run_mctsat("optimize demo --strategy eqsat --eqsat-node-limit 4294967296"),
                    "out of range");
}

TEST_CASE("measurement instances are counted against the memory before any is prepared") {
  // 100,000 instances allocated up to the memory cap for 38 s before "out of memory".
  check_error(run_mctsat("optimize demo --strategy greedy --measure --measure-instances "
                         "2147483647"),
              "instances of each graph (measure instances) need");
}

TEST_CASE("costs outside 0 or 1e-10 to 1e9 ms are located errors") {
  const Scratch scratch("mctsat-limits-costs");
  // A denormal cost made CBC abort (reported as "time limit", exit 0).
  const std::string egraph = write_text(scratch, "tiny.json", R"({"nodes": {
    "a": {"op": "x", "children": [], "eclass": "c", "cost": 5e-324},
    "b": {"op": "y", "children": [], "eclass": "c", "cost": 1.0}}, "root_eclasses": ["c"]})");
  check_error(run_mctsat("extract " + egraph + " --extractor ilp"),
              "the cost 4.94066e-324 is neither 0 nor at least 1e-10 ms");
  // 1e308 made sums infinite: a false "infeasible" and "cost inf ms".
  const std::string table = write_text(
      scratch, "table.json",
      R"({"format": "mctsat-cost-table", "version": 1, "entries": [{"key": "k", "ms": 1e308}]})");
  check_error(run_mctsat("show demo --cost table --cost-table " + table),
              "\"ms\" 1e+308 is more than 1e+09 ms");
}

TEST_CASE("a command does not write over its own input") {
  const Scratch scratch("mctsat-limits-inplace");
  const std::string text = "(relu ?x)=>(relu ?x)\n";
  const std::string rules = write_text(scratch, "converted.txt", text);
  check_error(run_mctsat("rules import-tensat " + rules + " -o " + rules), "names the input file");
  CHECK(read_text_of(rules) == text);
  const std::string model = scratch.file("demo.json");
  REQUIRE(run_mctsat("convert demo " + model).status == 0);
  const std::string before = read_text_of(model);
  check_error(run_mctsat("convert " + model + " " + model), "names the input file");
  CHECK(read_text_of(model) == before);
}

TEST_CASE("optimize warns once about rules from a file that no verification passed") {
  const Scratch scratch("mctsat-limits-unverified");
  const std::string cache = "XDG_CACHE_HOME=" + scratch.file("cache") + " ";
  // Unsound: relu dropped. It reported +30.66% without a word.
  const std::string unsound = write_text(scratch, "drop.rules", "rule drop: (relu ?x) => ?x\n");
  CliResult r =
      run_shell(cache + MCTSAT_BINARY + " optimize demo --strategy greedy --rules " + unsound);
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(occurrences(r.output, "no passing verification in the cache") == 1);
  CHECK(contains(r.output, "mctsat verify " + unsound));
  // The shipped rules are not warned about.
  r = run_shell(cache + MCTSAT_BINARY + " optimize demo --strategy greedy");
  CHECK_FALSE(contains(r.output, "no passing verification"));
  // A sound rule that `verify` passed is not warned about either.
  const std::string sound =
      write_text(scratch, "twice.rules", "rule twice: (relu (relu ?x)) => (relu ?x)\n");
  REQUIRE(run_shell(cache + MCTSAT_BINARY + " verify " + sound).status == 0);
  r = run_shell(cache + MCTSAT_BINARY + " optimize demo --strategy greedy --rules " + sound);
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK_FALSE(contains(r.output, "no passing verification"));
}

TEST_CASE("a multi-pattern rule whose patterns share no variable stays within the memory limit") {
  // Six patterns joined as a product reached 5.7 GB, or 778 MB under --memory-limit 500.
  const Scratch scratch("mctsat-limits-join");
  std::string lhs, rhs;
  for (int i = 0; i < 6; ++i) {
    lhs += fmt::format("{}(relu ?x{})", i ? ", " : "", i);
    rhs += fmt::format("{}(relu ?x{})", i ? ", " : "", i);
  }
  const std::string rules =
      write_text(scratch, "six.rules", "rule six: " + lhs + " => " + rhs + "\n");
  const double mb = peak_rss_mb(
      "optimize resnet50 --strategy eqsat --iterations 2 --memory-limit "
      "300 --rules " +
      rules);
  CHECK(mb > 0);
  CHECK(mb < 300 + 400);  // the limit, and the process's own (libraries, model, rules)
}
