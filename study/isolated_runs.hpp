// Running jobs in isolated child processes, several at a time, each under a wall-clock and a
// memory limit, so that one run that crashes, exhausts memory or never ends is recorded as such
// and the others go on.
//
// Why fork() and not a subprocess of the mctsat binary: the child inherits the already loaded
// models and rules (no re-parsing per run, no path to the executable, no command line to keep in
// step with the config format), calls search::optimize() directly, and sends its JSON record back
// through a pipe. Isolation is still per process: the child sets RLIMIT_AS before running (an
// allocation over the limit throws std::bad_alloc, reported as "memory"), the parent SIGKILLs it
// at its deadline ("timeout"), and wait4() gives its peak resident set (ru_maxrss), which counts
// the pages shared with the parent that the child touches (the parent's own resident set, a few
// MB of loaded models and rules, is recorded beside it).
// The parent must not have started threads before forking (it only loads inputs); each child
// starts its own (TBB) threads.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace mctsat::study {

struct IsolatedJob {
  std::function<nlohmann::json()> work;  // runs in the child; throws mctsat::Error on bad input
  double seconds = 600;                  // wall-clock limit
  std::size_t memory_mb = 0;  // address-space limit (0: none; only when memory_limits_enforced())
  std::string log_path;       // the child's stdout and stderr ("" : discarded)
};

struct IsolatedOutcome {
  std::string status;     // ok | error | timeout | memory | crashed | interrupted
  nlohmann::json result;  // what work() returned (status ok)
  std::string message;    // why it failed
  double wall_seconds = 0;
  double peak_rss_mb = 0;  // the child's peak resident set
  double cpu_seconds = 0;  // the child's CPU time, user + system (all its threads)
};

// Runs jobs 0..count-1 with at most `parallel` children at once, in index order. `job(i)` is asked
// for job i when it is about to start; `done(i, outcome)` is called in the parent as each one ends
// (in completion order); `tick()` is called at least every half second while jobs run.
// When a caller's DeferInterrupts guard holds back a SIGINT or SIGTERM (deferred_interrupt()), no
// further job starts, the running ones are killed and reported as "interrupted", and it returns.
void run_isolated(std::size_t count, std::size_t parallel,
                  const std::function<IsolatedJob(std::size_t)>& job,
                  const std::function<void(std::size_t, const IsolatedOutcome&)>& done,
                  const std::function<void()>& tick = {});

// The resident set of this process now, in MB.
double current_rss_mb();

}  // namespace mctsat::study
