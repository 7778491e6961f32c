// The first of a sequence of candidates whose attempt succeeds (an MCTS expansion or rollout step:
// the first rule, in a random order, that changes the state), found with speculation that keeps
// the sequential answer: candidates are screened in order by a cheap `matches` test, and those
// that match are attempted two at a time, the second -- the screening for it and its attempt --
// as a task that another thread of the enclosing oneTBB arena may take while the calling thread
// attempts the first. A second not yet started when the first succeeds is skipped; one that ran
// is dropped. Without `parallel`, or when no thread takes the task (all are busy), the second is
// screened for and attempted only after the first failed, so a busy thread does no more work
// than sequentially. Either way the answer is the earliest success, and every candidate before
// it failed.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>

#include <tbb/task_group.h>

#include "support/thread_cpu_time.hpp"

namespace mctsat::search {

template <class State>
struct FirstChange {
  std::size_t position = 0;      // of the first success; the candidate count when none succeeded
  std::unique_ptr<State> state;  // its result
  // Thread CPU time of all tests and attempts, and of the span: per pair, the first attempt, or
  // when the second was needed, the longer of it and the second's screening and attempt (also
  // when run sequentially).
  double cpu_seconds = 0, span_cpu_seconds = 0;
};

// `attempt(i)` returns nullptr on failure; `matches(i)` false means that attempt(i) would fail.
// Both are called concurrently (on different candidates) when `parallel`.
template <class State>
FirstChange<State> first_change(std::size_t count, const std::function<bool(std::size_t)>& matches,
                                const std::function<std::unique_ptr<State>(std::size_t)>& attempt,
                                bool parallel) {
  FirstChange<State> change;
  // Screening from `from` for the next match, with its thread CPU time.
  const auto next_match = [&](std::size_t from, double& seconds) {
    const double start = thread_cpu_seconds();
    while (from < count && !matches(from)) ++from;
    seconds = thread_cpu_seconds() - start;
    return from;
  };
  struct Attempt {
    std::size_t position = 0;
    std::unique_ptr<State> state;
    double screen_cpu_seconds = 0, cpu_seconds = 0;
  };
  const auto run = [&](Attempt& out) {
    const double start = thread_cpu_seconds();
    out.state = attempt(out.position);
    out.cpu_seconds = thread_cpu_seconds() - start;
  };
  // The second of a pair: screening from `from`, then its attempt, unless the first succeeded.
  const auto second_of = [&](std::size_t from, Attempt& out, const std::atomic<bool>& done) {
    if (done.load()) return;
    out.position = next_match(from, out.screen_cpu_seconds);
    if (out.position < count && !done.load()) run(out);
  };
  double screen_seconds = 0;
  std::size_t first = next_match(0, screen_seconds);
  change.cpu_seconds += screen_seconds;
  change.span_cpu_seconds += screen_seconds;
  while (first < count) {
    Attempt a, b;
    a.position = first;
    std::atomic<bool> first_succeeded = false;
    if (parallel) {
      tbb::task_group speculation;
      speculation.run([&] { second_of(first + 1, b, first_succeeded); });
      run(a);
      first_succeeded.store(a.state != nullptr);
      speculation.wait();
    } else {
      run(a);
      first_succeeded.store(a.state != nullptr);
      second_of(first + 1, b, first_succeeded);
    }
    change.cpu_seconds += a.cpu_seconds + b.screen_cpu_seconds + b.cpu_seconds;
    // The span: the first attempt, and beside it the second's screening and attempt when needed.
    change.span_cpu_seconds +=
        a.state ? a.cpu_seconds : std::max(a.cpu_seconds, b.screen_cpu_seconds + b.cpu_seconds);
    if (a.state || b.state) {
      change.position = a.state ? a.position : b.position;
      change.state = std::move(a.state ? a.state : b.state);
      return change;
    }
    if (b.position >= count) break;  // the first failed, so the second was screened for
    first = next_match(b.position + 1, screen_seconds);
    change.cpu_seconds += screen_seconds;
    change.span_cpu_seconds += screen_seconds;
  }
  change.position = count;
  return change;
}

}  // namespace mctsat::search
