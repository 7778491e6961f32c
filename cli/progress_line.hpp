// Progress of long searches on stderr: "mcts  step 3/200  best 1.0137 ms  2000 nodes  0.8 s". On
// a terminal one line is rewritten in place at most ten times a second and erased when the search
// ends; otherwise (a log file, a cluster job's output) a line is printed every `log_interval`
// (ten seconds by default), so a search shorter than that prints nothing.
#pragma once

#include <chrono>
#include <string>

#include "search/progress.hpp"

namespace mctsat::cli {

class ProgressLine {
 public:
  // `label` names the search ("mcts"), `unit` its steps ("step", "iteration", "graph").
  ProgressLine(bool enabled, std::string label, std::string unit,
               std::chrono::milliseconds log_interval = kDefaultLogInterval);
  static constexpr std::chrono::milliseconds kDefaultLogInterval{10'000};
  ~ProgressLine();  // erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool active() const { return active_; }
  void update(const search::Progress& progress);
  // A callback that updates this line; empty when the line is inactive.
  search::ProgressCallback callback();

 private:
  bool active_, terminal_;
  std::string label_, unit_;
  std::chrono::milliseconds log_interval_;
  std::chrono::steady_clock::time_point last_;
  bool shown_ = false;
};

}  // namespace mctsat::cli
