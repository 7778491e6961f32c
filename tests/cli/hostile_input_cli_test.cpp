// Hostile input end to end: crafted models, configs, profiles and options that used to crash
// mctsat (SIGFPE, std::bad_alloc, nlohmann exceptions, thread explosions) or grow its memory
// without bound must give a one-line located error and an exit status from 1 to 127; time limits
// hold on large graphs; outputs are written only when every check passed, as a set, never onto a
// read-only file.
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

std::string write(const Scratch& scratch, const std::string& name, const std::string& text) {
  const std::string path = scratch.file(name);
  std::ofstream(path) << text;
  return path;
}

const std::string kGraphHead = R"({"format": "mctsat-graph", "version": 1, "nodes": [)";

// A 10^6 x 10^6 input (10^12 elements, 8 TB as float64) through a relu.
const std::string kHugeGraph = kGraphHead + R"(
  {"name": "x", "op": "input", "attrs": {"shape": [1000000, 1000000]}},
  {"name": "y", "op": "relu", "inputs": ["x"]}], "outputs": ["y"]})";

// Outputs that overflow to infinity: x * 1e308 doubled.
const std::string kOverflowGraph = kGraphHead + R"(
  {"name": "x", "op": "input", "attrs": {"shape": [4, 4]}},
  {"name": "w", "op": "weight", "attrs": {"shape": [4, 4]},
   "values": [1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308,
              1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308]},
  {"name": "m", "op": "ewmul", "inputs": ["x", "w"]},
  {"name": "y", "op": "ewadd", "inputs": ["m", "m"]}], "outputs": ["y"]})";

}  // namespace

TEST_CASE("JSON values of the wrong type or out of range are located errors") {
  const Scratch scratch("mctsat-hostile-json");
  const std::string body = R"(
  {"name": "x", "op": "input", "attrs": {"shape": [2, 2]}},
  {"name": "y", "op": "relu", "inputs": ["x"]}], "outputs": ["y"]})";
  const std::string version = write(
      scratch, "version.json", R"({"format": "mctsat-graph", "version": "1", "nodes": [)" + body);
  check_error(run_mctsat("show " + version), "\"version\" must be the number 1");
  const std::string format =
      write(scratch, "format.json", R"({"format": 7, "version": 1, "nodes": [)" + body);
  check_error(run_mctsat("show " + format), "\"format\" must be the string");
  const std::string overflow =
      write(scratch, "overflow.json", kGraphHead + "\n" + R"({"name": "x", "op": "input",
    "attrs": {"shape": [2, 1e400]}}], "outputs": ["x"]})");
  const CliResult r = run_mctsat("show " + overflow);
  check_error(r, overflow + ":3:");
  CHECK(contains(r.output, "1e400"));
  // Another reader (a device profile) and a type nlohmann rejects inside a reader.
  const std::string profile = write(scratch, "profile.json", R"({"name": "p",
    "description": "d", "peak_flops": 1e400, "memory_bandwidth": 1e9,
    "launch_overhead_s": 1e-6, "saturation_elements": 10})");
  check_error(run_mctsat("optimize demo --device " + profile), profile + ":2:");
  // Nesting beyond any input's need: the bench config reader's message showed the value, and
  // writing 200,000 nested arrays overflowed the stack (SIGSEGV).
  const std::string deep =
      write(scratch, "deep.json", std::string(200000, '[') + std::string(200000, ']'));
  check_error(run_mctsat("bench " + deep + " --list"), deep + ":1:257: error: nested too deeply");
}

TEST_CASE("a device profile with an absurd peak is refused, not an assertion") {
  const Scratch scratch("mctsat-hostile-profile");
  const std::string profile = write(scratch, "tiny.json", R"({"name": "tiny",
    "description": "d", "peak_flops": 1e-300, "memory_bandwidth": 1e9,
    "launch_overhead_s": 1e-6, "saturation_elements": 10})");
  check_error(run_mctsat("optimize demo --device " + profile), "peak_flops");
}

TEST_CASE("tensors larger than the memory budget are located errors in every command") {
  const Scratch scratch("mctsat-hostile-huge");
  const std::string huge = write(scratch, "huge.json", kHugeGraph);
  const std::string expected = "more than the";
  check_error(run_mctsat("run " + huge), expected);
  check_error(run_mctsat("run " + huge + " --engine dnnl"), expected);
  check_error(run_mctsat("convert " + huge + " " + scratch.file("out.json") + " --check"),
              expected);
  CHECK_FALSE(fs::exists(scratch.file("out.json")));
  check_error(
      run_mctsat("optimize " + huge + " --strategy greedy --check -o " + scratch.file("opt.json")),
      expected);
  CHECK_FALSE(fs::exists(scratch.file("opt.json")));
  check_error(run_mctsat("show " + huge + " --cost measured"), expected);
  check_error(run_mctsat("profile " + huge), expected);
}

TEST_CASE("--memory-limit bounds what a search holds, matches and reward extraction included") {
  // A node limit of a million let one MCTS rollout's multi-pattern join grow past 20 GB, and
  // greedy's reward extraction allocate 430 MB of class sets, whatever --memory-limit said. The
  // process itself (code, rules, model) takes about 30 MB besides the limit.
  for (const char* strategy : {"mcts --taso-graph none", "greedy"}) {
    CAPTURE(strategy);
    const double peak = peak_rss_mb(std::string("optimize bert --strategy ") + strategy +
                                    " --node-limit 1000000 --memory-limit 60 --seconds 3");
    CHECK(peak > 0);
    CHECK(peak < 60 + 60);
  }
}

TEST_CASE("--memory-limit bounds the ILP's solver process too") {
  // BERT saturated with --k-multi 100 (50,000 e-nodes): CBC grew to 470 MB whatever the limit.
  const Scratch scratch("mctsat-hostile-ilp-memory");
  const std::string report = scratch.file("report.json");
  const std::string command =
      "optimize bert --strategy eqsat --k-multi 100 --memory-limit 150 --report " + report;
  const double peak = peak_rss_mb(command);
  CHECK(peak > 0);
  CHECK(peak < 150 + 60);
  const auto extraction = nlohmann::json::parse(std::ifstream(report))["extraction"];
  CHECK(extraction["status"] == "memory limit");
  CHECK(extraction["detail"].get<std::string>().find("out of its memory") != std::string::npos);
}

TEST_CASE("--seconds and --ilp-seconds hold on graphs of thousands of operators") {
  const Scratch scratch("mctsat-hostile-time");
  // A chain of 5,000 relu and tanh. TASO's expansion (also mcts's taso_graph phase, the default)
  // builds a copy of the graph for every match, and a multi-pattern rule's join of two independent
  // patterns holds the product of their matches: the search ran minutes past --seconds and a 3 GB
  // address space ran out within seconds. The whole graph is searched (--region-ops 0: not cut
  // into regions).
  std::string graph = kGraphHead + R"({"name": "n0", "op": "input", "attrs": {"shape": [4, 4]}})";
  for (int i = 1; i <= 5000; ++i)
    graph += fmt::format(R"(, {{"name": "n{}", "op": "{}", "inputs": ["n{}"]}})", i,
                         i % 2 == 0 ? "relu" : "tanh", i - 1);
  const std::string chain = write(scratch, "chain.json", graph + R"(], "outputs": ["n5000"]})");
  const CliResult r =
      run_shell("ulimit -v 3000000; " + std::string(MCTSAT_BINARY) + " optimize " + chain +
                " --region-ops 0 --seconds 4 --ilp-seconds 1 --json --quiet");
  CAPTURE(r.output.substr(0, 2000));
  REQUIRE(r.status == 0);
  const auto report = nlohmann::json::parse(r.output);
  CHECK(report["taso"]["stop_reason"] == "time limit");

  // CBC's presolve of a chain of 50,000 classes does not look at its time limit (90 s for a limit
  // of 1 s): the solver is stopped, or on a slower machine never started because building the
  // model took the whole second; either way the warm start is kept and the detail says so.
  const std::string egraph = scratch.file("chain-egraph.json");
  {
    std::ofstream out(egraph);
    out << R"({"nodes": {"n0": {"op": "x", "children": [], "eclass": "c0", "cost": 1})";
    for (int i = 1; i < 50000; ++i)
      out << fmt::format(R"(, "n{}": {{"op": "f", "children": ["n{}"], "eclass": "c{}"}})", i,
                         i - 1, i);
    out << R"(}, "root_eclasses": ["c49999"]})";
  }
  const nlohmann::json ilp =
      run_json("extract " + egraph + " --extractor ilp --ilp-seconds 1 --json")["results"][0];
  CAPTURE(ilp.dump());
  CHECK(contains(ilp["detail"].get<std::string>(), "is kept"));
  CHECK(ilp["dag_cost"] == 50000);
}

TEST_CASE("thread counts beyond the machine and malformed numbers are refused") {
  check_usage_error(run_mctsat("verify --jobs 65537"), "thread count");
  check_usage_error(run_mctsat("optimize demo --threads 100000"),
                    "--threads: 100000 is out of range");
  check_usage_error(run_mctsat("run demo --engine dnnl --threads 100000"), "thread count");
  check_usage_error(run_mctsat("optimize demo --node-limit 99999999999999999999"),
                    "--node-limit: '99999999999999999999' is out of range");
  check_usage_error(run_mctsat("optimize demo --gamma nan"), "not a finite number");
  check_usage_error(run_mctsat("optimize demo --expand-probability nan"), "not a finite number");
  check_usage_error(run_mctsat("optimize demo --strategy taso --alpha nan"), "not a finite number");
  check_usage_error(run_mctsat("optimize demo --check --tolerance nan"), "not a finite number");
  check_usage_error(run_mctsat("optimize demo --seed -5"),
                    "--seed: '-5' is not a non-negative integer");
}

TEST_CASE("devices, pipes and oversized files are not read") {
  const Scratch scratch("mctsat-hostile-files");
  check_error(run_mctsat("rules check /dev/zero"), "not a regular file");
  const std::string includer = write(scratch, "includer.rules", "include \"/dev/zero\"\n");
  check_error(run_mctsat("rules check " + includer), "not a regular file");
}

TEST_CASE("nothing is written when a check fails, and outputs are written as a set") {
  const Scratch scratch("mctsat-hostile-outputs");
  const std::string overflow = write(scratch, "overflow.json", kOverflowGraph);
  // convert --check: the check runs before the write.
  const std::string converted = scratch.file("converted.json");
  CliResult r = run_mctsat("convert " + overflow + " " + converted + " --check");
  check_error(r, "NaN or infinite");
  CHECK_FALSE(contains(r.output, "max relative difference 0"));
  CHECK_FALSE(fs::exists(converted));

  // optimize --check with an unsound rule: the check fails and no output is left.
  const std::string unsound =
      std::string(MCTSAT_SOURCE_DIR) + "/tests/verify/unsound/relu-dropped.rules";
  const std::string model = scratch.file("opt.onnx"), report = scratch.file("report.json");
  r = run_mctsat("optimize demo --strategy eqsat --rules " + unsound + " --check -o " + model +
                 " --report " + report);
  check_error(r, "differ from the original's");
  CHECK(contains(r.output, "nothing written"));
  CHECK_FALSE(fs::exists(model));
  CHECK_FALSE(fs::exists(report));

  // A report that cannot be written takes the model with it.
  r = run_mctsat("optimize demo --strategy greedy -o " + model + " --report " +
                 scratch.file("missing-dir/report.json"));
  check_error(r, "missing-dir/report.json");
  CHECK_FALSE(fs::exists(model));
  CHECK(std::distance(fs::directory_iterator(scratch.dir), fs::directory_iterator()) == 1);

  // One file for two outputs, and a read-only target, are refused before the search.
  r = run_mctsat("optimize demo --strategy greedy -o " + report + " --report " + report);
  check_error(r, "name the same file");
  CHECK_FALSE(fs::exists(report));
  const std::string locked = write(scratch, "locked.json", "keep me");
  fs::permissions(locked, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  r = run_mctsat("optimize demo --strategy greedy -o " + locked);
  check_error(r, "read-only");
  std::ifstream in(locked);
  std::string kept;
  std::getline(in, kept);
  CHECK(kept == "keep me");
  // Nor is a device or pipe replaced (renamed onto, /dev/full became a regular file).
  const std::string fifo = scratch.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0666) == 0);
  check_error(run_mctsat("optimize demo --strategy greedy --export-egraph " + fifo),
              "not a regular file");
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("bench: a resume repairs a torn line, refuses another study's records") {
  const Scratch scratch("mctsat-hostile-bench");
  const std::string config = write(scratch, "tiny.json", R"({"name": "tiny", "models": ["demo"],
    "configurations": [{"name": "mcts", "strategy": "mcts", "final_extract": "greedy",
                        "mcts": {"simulations": 4, "max_steps": 2}}],
    "seeds": [1, 2]})");
  const std::string out = scratch.file("out");
  CliResult r = run_mctsat("bench " + config + " --out " + out + " --seeds 1 --quiet");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const std::string runs = out + "/runs.jsonl";
  std::ofstream(runs, std::ios::app) << R"({"study": "tiny", "id": "x", "ind)";
  r = run_mctsat("bench " + config + " --out " + out + " --resume");
  CAPTURE(r.output);
  REQUIRE(r.status == 0);
  CHECK(contains(r.output, "removed a torn last record"));
  std::ifstream in(runs);
  std::string line;
  std::size_t lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    CHECK(line.front() == '{');
    CHECK(line.back() == '}');
  }
  CHECK(lines == 2);

  // Another study's directory.
  const std::string other = write(scratch, "other.json", R"({"name": "other", "models": ["demo"],
    "configurations": [{"name": "mcts", "strategy": "mcts", "final_extract": "greedy",
                        "mcts": {"simulations": 4, "max_steps": 2}}],
    "seeds": [1, 2]})");
  check_error(run_mctsat("bench " + other + " --out " + out + " --resume --quiet"),
              "holds records of study 'tiny', not of 'other'");

  // A record with a null status is skipped with a warning by the report, not a crash.
  std::ofstream(runs, std::ios::app)
      << R"({"study": "tiny", "id": "y", "index": 7, "status": null})" << '\n';
  // So is one whose fields have types the report does not expect (it failed the whole report with
  // nlohmann's "type must be string, but is number").
  std::ofstream(runs, std::ios::app)
      << R"({"study": "tiny", "id": "z", "index": 8, "status": "ok", "model": 5})" << '\n';
  r = run_mctsat("bench report " + out + " --no-plots --quiet");
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "skipped a malformed record"));
  CHECK(
      contains(r.output, "skipped the record of run 'z': invalid JSON value: type must be string"));

  // Records skipped are reported also when nothing is left to report on.
  const std::string bad = scratch.file("bad");
  fs::create_directories(bad);
  std::ofstream(bad + "/runs.jsonl")
      << R"({"study": "tiny", "id": "a", "index": 0, "x": 1e400})" << '\n';
  r = run_mctsat("bench report " + bad + " --no-plots");
  check_error(r, "no run records to report on");
  CHECK(contains(r.output, "runs.jsonl:1: skipped a malformed record"));
}
