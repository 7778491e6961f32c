// Isolated runs: results come back from the child; errors, crashes, timeouts and memory
// exhaustion are recorded as such and do not stop the other jobs.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "study/isolated_runs.hpp"
#include "support/error.hpp"
#include "support/isolated_call.hpp"

namespace study = mctsat::study;

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
        // 4 GB under a 512 MB limit (without enforced limits, a small allocation instead).
        const std::size_t bytes = mctsat::memory_limits_enforced() ? std::size_t{4} << 30 : 1;
        std::vector<char> huge(bytes, 1);
        return {{"size", huge.size()}};
      },
      [] {
        return nlohmann::json{{"answer", 43}};
      },
  };
  std::map<std::size_t, study::IsolatedOutcome> outcomes;
  std::size_t asked = 0;
  study::run_isolated(
      work.size(), 2,
      [&](std::size_t i) {
        CHECK(i == asked++);  // jobs start in index order
        study::IsolatedJob job;
        job.work = work[i];
        job.seconds = i == 2 ? 0.5 : 20;
        job.memory_mb = 512;
        return job;
      },
      [&](std::size_t i, const study::IsolatedOutcome& outcome) { outcomes[i] = outcome; });
  REQUIRE(outcomes.size() == work.size());
  CHECK(outcomes[0].status == "ok");
  CHECK(outcomes[0].result["answer"] == 42);
  CHECK(outcomes[0].peak_rss_mb > 0);
  CHECK(outcomes[1].status == "error");
  CHECK(outcomes[1].message.find("bad input") != std::string::npos);
  CHECK(outcomes[2].status == "timeout");
  CHECK(outcomes[2].wall_seconds >= 0.5);
  CHECK(outcomes[2].wall_seconds < 20);  // killed at its limit, not waited for (30 s)
  CHECK(outcomes[3].status == "crashed");
  CHECK(outcomes[3].message.find("signal 9") != std::string::npos);
  CHECK(outcomes[4].status == (mctsat::memory_limits_enforced() ? "memory" : "ok"));
  CHECK(outcomes[5].status == "ok");
  CHECK(outcomes[5].result["answer"] == 43);
}

TEST_CASE("jobs run in parallel up to the limit") {
  // Each job reports when it started and ended on the system-wide monotonic clock; with four at
  // a time, all four are running at once.
  auto now = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  double latest_start = 0, earliest_end = 1e300;
  std::size_t done = 0;
  study::run_isolated(
      4, 4,
      [&](std::size_t) {
        study::IsolatedJob job;
        job.work = [&] {
          const double start = now();
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
          return nlohmann::json{{"start", start}, {"end", now()}};
        };
        return job;
      },
      [&](std::size_t, const study::IsolatedOutcome& outcome) {
        REQUIRE(outcome.status == "ok");
        latest_start = std::max(latest_start, outcome.result["start"].get<double>());
        earliest_end = std::min(earliest_end, outcome.result["end"].get<double>());
        ++done;
      });
  CHECK(done == 4);
  CHECK(latest_start < earliest_end);
}
