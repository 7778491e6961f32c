// The first of a sequence of candidates whose attempt succeeds (an MCTS expansion or rollout step:
// the first rule, in a random order, that changes the state), found with speculation that keeps
// the sequential answer: candidates are screened in order by a cheap `matches` test, and those
// that match are attempted two at a time, the second as a task that another thread of the
// enclosing oneTBB arena may take while the calling thread attempts the first. A second attempt
// not yet started when the first succeeds is skipped; one that ran is dropped. Without
// `parallel` (or when no thread takes the task) the second is attempted only after the first
// failed. Either way the answer is the earliest success, and every candidate before it failed.
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
  // Thread CPU time of all tests and attempts, and of the span: per pair attempted at once, the
  // longer attempt when the second was needed, else the first (also when run sequentially).
  double cpu_seconds = 0, span_cpu_seconds = 0;
};

// `attempt(i)` returns nullptr on failure; `matches(i)` false means that attempt(i) would fail.
// Both are called concurrently (on different candidates) when `parallel`.
template <class State>
FirstChange<State> first_change(std::size_t count, const std::function<bool(std::size_t)>& matches,
                                const std::function<std::unique_ptr<State>(std::size_t)>& attempt,
                                bool parallel) {
  FirstChange<State> change;
  const auto next_match = [&](std::size_t from) {
    const double start = thread_cpu_seconds();
    while (from < count && !matches(from)) ++from;
    const double seconds = thread_cpu_seconds() - start;
    change.cpu_seconds += seconds;
    change.span_cpu_seconds += seconds;
    return from;
  };
  struct Attempt {
    std::unique_ptr<State> state;
    double cpu_seconds = 0;
    bool tried = false;
  };
  const auto run = [&](std::size_t position, Attempt& out) {
    const double start = thread_cpu_seconds();
    out.state = attempt(position);
    out.cpu_seconds = thread_cpu_seconds() - start;
    out.tried = true;
  };
  std::size_t first = next_match(0);
  while (first < count) {
    Attempt a, b;
    std::size_t second = count;
    if (parallel) {
      second = next_match(first + 1);
      std::atomic<bool> first_succeeded = false;
      tbb::task_group speculation;
      if (second < count)
        speculation.run([&] {
          if (!first_succeeded.load()) run(second, b);
        });
      run(first, a);
      first_succeeded.store(a.state != nullptr);
      speculation.wait();
    } else {
      run(first, a);
      if (!a.state) {
        second = next_match(first + 1);
        if (second < count) run(second, b);
      }
    }
    change.cpu_seconds += a.cpu_seconds + b.cpu_seconds;
    change.span_cpu_seconds +=
        a.state || !b.tried ? a.cpu_seconds : std::max(a.cpu_seconds, b.cpu_seconds);
    if (a.state || b.state) {
      change.position = a.state ? first : second;
      change.state = std::move(a.state ? a.state : b.state);
      return change;
    }
    if (second >= count) break;
    first = next_match(second + 1);
  }
  change.position = count;
  return change;
}

}  // namespace mctsat::search
