// Progress of long work on stderr, for example
//   "mcts  search: step 3 (at most 200)  best 1.0137 ms  2000 nodes  12.3 s (limit 3600 s)"
//   "mcts  search (region 2 of 4): step 0 (at most 200)  ..." (a large graph searched by regions)
//   "mcts  ONNX Runtime guard (100 rounds)  95.2 s"
// with the phase (the strategy's search, TASO's backtracking, or a phase set by name: the final
// extraction, the numeric check, the guard, writing), the elapsed time since the command started
// and, during the search, its limit. On a terminal the line is redrawn in place
// (every step, at most ten times a second, and twice a second from a clock so that the time
// moves during long phases that report nothing, such as an ILP extraction) and erased at the
// end; otherwise (a log file, a pipe, a cluster job's output) a line is printed every
// `log_interval` from that clock, whatever the search reports, so a command shorter than the
// interval prints nothing. Thread-safe: the search may report from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "search/progress.hpp"

namespace mctsat::cli {

class ProgressLine {
 public:
  // `label` names the search ("mcts"), `unit` its steps ("step", "iteration", "graph"); `limits`
  // is shown after the elapsed time ("limit 3600 s").
  ProgressLine(bool enabled, std::string label, std::string unit,
               std::chrono::milliseconds log_interval = kDefaultLogInterval,
               std::string limits = "");
  static constexpr std::chrono::milliseconds kDefaultLogInterval{10'000};
  ~ProgressLine();  // stops the clock, erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool active() const { return active_; }
  void update(const search::Progress& progress);
  // A phase that reports no steps, e.g. "extraction (ilp, at most 10 s)": shown, with the elapsed
  // time but not the search's limits, until the next update.
  void set_phase(std::string phase);
  // A callback that updates this line; empty when the line is inactive.
  search::ProgressCallback callback();

 private:
  using Clock = std::chrono::steady_clock;
  std::string text_locked() const;  // the line, from the latest state
  void draw_locked();
  void tick();  // the clock's thread

  bool active_, terminal_;
  std::string label_, unit_, limits_;
  std::chrono::milliseconds log_interval_;
  Clock::time_point start_, last_draw_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false, shown_ = false, have_progress_ = false;
  search::Progress latest_;
  std::string phase_;  // set_phase()'s, cleared by update()
  std::thread clock_;
};

}  // namespace mctsat::cli
