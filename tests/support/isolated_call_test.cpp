// run_isolated: the child's answer comes back whole (also a large one, beyond a pipe's buffer);
// a child killed by a signal is reported, not fatal; a child that throws or exits early is an
// error; a child past its deadline is killed; one beyond its memory budget ends out of memory;
// the calling process's state is untouched by the child; a host's interrupt check (Python's
// Ctrl-C) stops the wait and kills the child.
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "support/interrupt.hpp"
#include "support/isolated_call.hpp"

using namespace mctsat;

TEST_CASE("the child's answer comes back whole") {
  int touched = 0;
  const IsolatedOutcome small = run_isolated([&] {
    touched = 1;  // the child's copy
    return std::vector<double>{1.5, -2.0, 3.25};
  });
  CHECK(small.crash_signal == 0);
  CHECK(small.values == std::vector<double>{1.5, -2.0, 3.25});
  CHECK(touched == 0);

  std::vector<double> large(200'000);  // 1.6 MB, far beyond a pipe's buffer
  for (std::size_t i = 0; i < large.size(); ++i) large[i] = static_cast<double>(i) * 0.5;
  CHECK(run_isolated([&] { return large; }).values == large);
  CHECK(run_isolated([] { return std::vector<double>{}; }).values.empty());
}

TEST_CASE("a crashing child is reported with its signal") {
  const IsolatedOutcome crashed = run_isolated([]() -> std::vector<double> {
    std::signal(SIGSEGV, SIG_DFL);  // not the test framework's handler
    std::raise(SIGSEGV);
    return {1.0};
  });
  CHECK(crashed.crash_signal == SIGSEGV);
  CHECK(crashed.values.empty());
  // The caller goes on: the next call works.
  CHECK(run_isolated([] { return std::vector<double>{7.0}; }).values == std::vector<double>{7.0});
}

TEST_CASE("a child that throws or exits early is an error") {
  CHECK_THROWS_AS(run_isolated([]() -> std::vector<double> { throw std::runtime_error("no"); }),
                  Error);
  try {
    run_isolated([]() -> std::vector<double> { ::_exit(5); });
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("exit status 5") != std::string::npos);
  }
}

TEST_CASE("calls from several threads each get their own answer") {
  std::vector<double> answers(4, 0.0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&answers, t] {
      answers[t] = run_isolated([t] {
                     ::usleep(20'000);
                     return std::vector<double>{static_cast<double>(t * 10)};
                   }).values.at(0);
    });
  for (std::thread& thread : threads) thread.join();
  CHECK(answers == std::vector<double>{0.0, 10.0, 20.0, 30.0});
}

TEST_CASE("a child still running at its deadline is killed, and the outcome says so") {
  // The child would sleep for a minute; the caller waits a fifth of a second.
  const IsolatedOutcome late = run_isolated(
      [] {
        ::sleep(60);
        return std::vector<double>{1.0};
      },
      0.2);
  CHECK(late.timed_out);
  CHECK(late.values.empty());
  CHECK(late.crash_signal == 0);
  // A child that answers in time is not cut short.
  const IsolatedOutcome prompt = run_isolated([] { return std::vector<double>{2.0}; }, 30.0);
  CHECK_FALSE(prompt.timed_out);
  CHECK(prompt.values == std::vector<double>{2.0});
}

TEST_CASE("a child that needs more than its memory budget ends out of memory, not the machine's") {
  if (!memory_limits_enforced()) return;  // AddressSanitizer: no address-space limit
  const auto allocate = [](std::size_t bytes) {
    return [bytes] {
      std::vector<char> block(bytes, 1);
      return std::vector<double>{static_cast<double>(block[bytes / 2])};
    };
  };
  const std::size_t budget = std::size_t{64} << 20;
  const IsolatedOutcome greedy = run_isolated(allocate(std::size_t{1} << 30), 30.0, budget);
  CHECK(greedy.out_of_memory);
  CHECK(greedy.values.empty());
  // Within the budget the answer comes back.
  const IsolatedOutcome modest = run_isolated(allocate(std::size_t{16} << 20), 30.0, budget);
  CHECK_FALSE(modest.out_of_memory);
  CHECK(modest.values == std::vector<double>{1.0});
}

TEST_CASE("a host's interrupt stops the wait for the child, which is killed") {
  // Python's Ctrl-C: the check raises on its second poll; the child would sleep for an hour.
  struct Interrupted {};
  int polls = 0;
  const HostInterruptCheck check([&] {
    if (++polls == 2) throw Interrupted{};
  });
  CHECK_THROWS_AS(run_isolated(
                      [&]() -> std::vector<double> {
                        ::sleep(3600);
                        return {};
                      },
                      7200),
                  Interrupted);
  CHECK(polls == 2);
}
