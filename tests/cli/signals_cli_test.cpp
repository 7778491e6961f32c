// SIGINT and SIGTERM stop mctsat cleanly: exit 130 / 143, no output file, no temporary left and
// no child process (a bench run, the ILP's CBC solver) left running; bench records the runs it
// stopped as interrupted, and --resume runs them again.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

// Starts mctsat with `arguments`, its output discarded; in a process group of its own when asked
// (a terminal's Ctrl-C reaches the whole group).
pid_t start_mctsat(const std::vector<std::string>& arguments, bool own_group = false) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (own_group) ::setpgid(0, 0);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    std::vector<char*> argv = {const_cast<char*>(MCTSAT_BINARY)};
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(MCTSAT_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

int exit_status_of(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

// Every process this one has left to reap (orphans come here as the subreaper), reaped.
std::size_t reap_orphans() {
  std::size_t reaped = 0;
  int status = 0;
  while (::waitpid(-1, &status, WNOHANG) > 0) ++reaped;
  return reaped;
}

bool has_children() {
  const std::string children = "/proc/self/task/" + std::to_string(::getpid()) + "/children";
  std::ifstream in(children);
  std::string text;
  std::getline(in, text);
  return !text.empty();
}

}  // namespace

TEST_CASE("SIGINT and SIGTERM stop optimize with 130 / 143 and write nothing") {
  const Scratch scratch("mctsat-signals-optimize");
  for (const int signal : {SIGINT, SIGTERM}) {
    const std::string out = scratch.file("out.onnx");
    const pid_t pid = start_mctsat({"optimize", "nasrnn", "--simulations", "100000", "--max-steps",
                                    "100000", "--seconds", "120", "-o", out, "--report",
                                    scratch.file("report.json"), "--quiet"});
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ::kill(pid, signal);
    CHECK(exit_status_of(pid) == 128 + signal);
    CHECK(fs::is_empty(scratch.dir));
  }
}

TEST_CASE("Ctrl-C stops a bench study, its running runs recorded as interrupted") {
  REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
  const Scratch scratch("mctsat-signals-bench");
  const std::string config = scratch.file("slow.json");
  std::ofstream(config) << R"({"name": "slow", "models": ["nasrnn"],
    "configurations": [{"name": "mcts", "strategy": "mcts",
      "mcts": {"simulations": 100000, "max_steps": 100000}}],
    "seeds": [1, 2], "limits": {"seconds": 120}})";
  const std::string out = scratch.file("out");
  const auto interrupted_records = [&] {
    std::ifstream in(out + "/runs.jsonl");
    std::size_t count = 0, lines = 0;
    for (std::string line; std::getline(in, line); ++lines)
      if (line.find(R"("status":"interrupted")") != std::string::npos) ++count;
    CHECK(count == lines);
    return count;
  };

  // To the harness only: it stops its runs and records them.
  pid_t pid = start_mctsat({"bench", config, "--out", out, "--jobs", "2", "--quiet"});
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ::kill(pid, SIGINT);
  CHECK(exit_status_of(pid) == 130);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  reap_orphans();
  CHECK_FALSE(has_children());
  CHECK(interrupted_records() == 2);

  // --resume runs them again; a terminal's Ctrl-C reaches the runs as well as the harness, and
  // the runs' ends are still the interrupt's, not crashes.
  pid = start_mctsat({"bench", config, "--out", out, "--jobs", "2", "--quiet", "--resume"},
                     /*own_group=*/true);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ::kill(-pid, SIGINT);
  CHECK(exit_status_of(pid) == 130);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  reap_orphans();
  CHECK_FALSE(has_children());
  CHECK(interrupted_records() == 4);
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

TEST_CASE("SIGINT and SIGTERM during the ILP kill its CBC process") {
  REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
  const Scratch scratch("mctsat-signals-ilp");
  // A chain of 50,000 classes: CBC's presolve of it takes far longer than the signal's delay.
  const std::string egraph = scratch.file("chain.json");
  {
    std::ofstream out(egraph);
    out << R"({"nodes": {"n0": {"op": "x", "children": [], "eclass": "c0"})";
    for (int i = 1; i < 50000; ++i)
      out << ", \"n" << i << R"(": {"op": "f", "children": ["n)" << i - 1 << R"("], "eclass": "c)"
          << i << "\"}";
    out << R"(}, "root_eclasses": ["c49999"]})";
  }
  for (const int signal : {SIGINT, SIGTERM}) {
    const pid_t pid =
        start_mctsat({"extract", egraph, "--extractor", "ilp", "--ilp-seconds", "120"});
    // Until mctsat has started its CBC process (the warm start comes first).
    const std::string children =
        "/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children";
    std::string solver;
    for (int wait = 0; wait < 600 && solver.empty(); ++wait) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::ifstream in(children);
      std::getline(in, solver);
    }
    CHECK_FALSE(solver.empty());
    ::kill(pid, signal);  // to mctsat only: its solver must end with it
    CHECK(exit_status_of(pid) == 128 + signal);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    reap_orphans();
    CHECK_FALSE(has_children());
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}
