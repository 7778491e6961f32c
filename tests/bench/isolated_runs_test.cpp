// Isolated runs: results come back from the child; errors, crashes, timeouts and memory
// exhaustion are recorded as such and do not stop the other jobs.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "bench/harness/isolated_runs.hpp"
#include "support/error.hpp"

using mctsat::bench::IsolatedJob;
using mctsat::bench::IsolatedOutcome;
using mctsat::bench::run_isolated;

TEST_CASE("each failure is recorded and the other jobs go on") {
  std::vector<std::function<nlohmann::json()>> work = {
      [] {
        return nlohmann::json{{"answer", 42}};
      },
      []() -> nlohmann::json { throw mctsat::Error("bad input"); },
      []() -> nlohmann::json {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return {};
      },
      []() -> nlohmann::json {
        ::kill(::getpid(), SIGKILL);
        return {};
      },
      []() -> nlohmann::json {
        std::vector<char> huge(std::size_t{4} << 30, 1);  // 4 GB under a 512 MB limit
        return {{"size", huge.size()}};
      },
      [] {
        return nlohmann::json{{"answer", 43}};
      },
  };
  std::map<std::size_t, IsolatedOutcome> outcomes;
  std::size_t asked = 0;
  const auto start = std::chrono::steady_clock::now();
  run_isolated(
      work.size(), 2,
      [&](std::size_t i) {
        CHECK(i == asked++);  // jobs start in index order
        IsolatedJob job;
        job.work = work[i];
        job.seconds = i == 2 ? 0.5 : 20;
        job.memory_mb = 512;
        return job;
      },
      [&](std::size_t i, const IsolatedOutcome& outcome) { outcomes[i] = outcome; });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 15);  // the sleeping job was killed, not waited for
  REQUIRE(outcomes.size() == work.size());
  CHECK(outcomes[0].status == "ok");
  CHECK(outcomes[0].result["answer"] == 42);
  CHECK(outcomes[0].peak_rss_mb > 0);
  CHECK(outcomes[1].status == "error");
  CHECK(outcomes[1].message.find("bad input") != std::string::npos);
  CHECK(outcomes[2].status == "timeout");
  CHECK(outcomes[2].wall_seconds >= 0.5);
  CHECK(outcomes[3].status == "crashed");
  CHECK(outcomes[3].message.find("signal 9") != std::string::npos);
  CHECK(outcomes[4].status == "memory");
  CHECK(outcomes[5].status == "ok");
  CHECK(outcomes[5].result["answer"] == 43);
}

TEST_CASE("jobs run in parallel up to the limit") {
  const auto start = std::chrono::steady_clock::now();
  std::size_t done = 0;
  run_isolated(
      4, 4,
      [](std::size_t i) {
        IsolatedJob job;
        job.work = [i] {
          std::this_thread::sleep_for(std::chrono::milliseconds(600));
          return nlohmann::json(i);
        };
        return job;
      },
      [&](std::size_t i, const IsolatedOutcome& outcome) {
        CHECK(outcome.status == "ok");
        CHECK(outcome.result == i);
        ++done;
      });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(done == 4);
  CHECK(seconds < 2.0);  // four 0.6 s sleeps side by side, not one after another (2.4 s)
}
