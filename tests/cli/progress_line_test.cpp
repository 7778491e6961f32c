// The progress line off a terminal (a log, a pipe): a line every interval from its own clock,
// also while the search reports nothing (an ILP extraction, a long planning step), with the
// phase, the step and its cap, the elapsed time and the limit.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "cli/progress_line.hpp"
#include "tests/cli/cli_runner.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t count_containing(const std::vector<std::string>& lines, const std::string& part) {
  std::size_t n = 0;
  for (const std::string& line : lines) n += line.find(part) != std::string::npos;
  return n;
}

// Waits (up to a minute, however loaded the machine) until `path` holds `count` lines with `part`.
void wait_for_lines(const std::string& path, const std::string& part, std::size_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (count_containing(lines_of(path), part) < count &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

}  // namespace

TEST_CASE("off a terminal, the progress line prints from its clock, with phase and limits") {
  Scratch scratch("mctsat-progress-line");
  const std::string log = scratch.file("stderr.log");
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  FILE* file = std::fopen(log.c_str(), "w");
  REQUIRE(file != nullptr);
  ::dup2(::fileno(file), STDERR_FILENO);  // not a terminal: a log
  {
    mctsat::cli::ProgressLine line(true, "mcts", "step", std::chrono::milliseconds(20),
                                   "limit 9 s");
    mctsat::search::Progress p;
    p.step = 1;
    p.limit = 5;
    p.best_cost = 1.0;
    p.nodes = 10;
    line.update(p);  // one report, then silence: the clock keeps printing
    wait_for_lines(log, "mcts  search: step 1 (at most 5)  best 1.0000 ms  10 nodes  ", 3);
    line.set_phase("extraction (ilp, at most 10 s)");
    wait_for_lines(log, "mcts  extraction (ilp, at most 10 s)  ", 2);
    p.region = 2;
    p.regions = 4;
    line.update(p);  // a graph searched by regions
    wait_for_lines(log, "mcts  search (region 2 of 4): step 1 (at most 5)  ", 2);
  }
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::fclose(file);
  const auto lines = lines_of(log);
  CAPTURE(lines.size());
  CHECK(count_containing(lines, "mcts  search: step 1 (at most 5)  best 1.0000 ms  10 nodes  ") >=
        3);
  CHECK(count_containing(lines, "mcts  extraction (ilp, at most 10 s)  ") >= 2);
  CHECK(count_containing(lines, "mcts  search (region 2 of 4): step 1 (at most 5)  ") >= 2);
  // Search lines end with the elapsed time and the search's limit; a phase set by name states its
  // own limits (the search's is over).
  for (const std::string& l : lines)
    CHECK(l.ends_with(l.find("extraction") != std::string::npos ? " s" : " s (limit 9 s)"));
  for (const std::string& l : lines) CHECK(l.find('\r') == std::string::npos);  // no redraws
}

TEST_CASE("a disabled progress line prints nothing and gives no callback") {
  mctsat::cli::ProgressLine line(false, "mcts", "step", std::chrono::milliseconds(1));
  CHECK_FALSE(line.active());
  CHECK_FALSE(static_cast<bool>(line.callback()));
}
