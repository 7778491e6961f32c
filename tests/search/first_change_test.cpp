// first_change: the earliest successful candidate, sequentially and with the second of a pair
// attempted by another thread at the same time (which must not win over an earlier success).
#include "search/first_change.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <tbb/task_arena.h>

using mctsat::search::first_change;

TEST_CASE("first_change returns the earliest success and attempts only what it needs in order") {
  const std::set<std::size_t> matching{1, 2, 5, 6, 8}, succeeding{6, 8};
  std::vector<std::size_t> attempted;
  const auto change = first_change<int>(
      10, [&](std::size_t i) { return matching.count(i) > 0; },
      [&](std::size_t i) {
        attempted.push_back(i);
        return succeeding.count(i) ? std::make_unique<int>(static_cast<int>(i)) : nullptr;
      },
      false);
  CHECK(change.position == 6);
  REQUIRE(change.state);
  CHECK(*change.state == 6);
  CHECK(attempted == std::vector<std::size_t>{1, 2, 5, 6});
  CHECK(change.cpu_seconds >= change.span_cpu_seconds);

  const auto none = first_change<int>(
      4, [](std::size_t) { return true; }, [](std::size_t) { return std::unique_ptr<int>(); },
      false);
  CHECK(none.position == 4);
  CHECK_FALSE(none.state);
}

TEST_CASE("a speculative second attempt runs beside the first and loses to its success") {
  // Candidates are paired (0, 1), (2, 3), ...; 2 and 3 both succeed, and the attempt of 2 waits (at
  // most 10 s) until the attempt of 3 has started on the other thread, so both run at once.
  std::atomic<bool> second_started = false;
  bool overlapped = false;
  std::mutex mutex;
  std::set<std::size_t> attempted;
  tbb::task_arena arena(2);
  mctsat::search::FirstChange<int> change;
  arena.execute([&] {
    change = first_change<int>(
        8, [](std::size_t) { return true; },
        [&](std::size_t i) -> std::unique_ptr<int> {
          {
            const std::lock_guard lock(mutex);
            attempted.insert(i);
          }
          if (i == 3) second_started = true;
          if (i == 2) {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!second_started && std::chrono::steady_clock::now() < deadline)
              std::this_thread::yield();
            overlapped = second_started;
          }
          return i >= 2 ? std::make_unique<int>(static_cast<int>(i)) : nullptr;
        },
        true);
  });
  CHECK(overlapped);
  CHECK(change.position == 2);
  REQUIRE(change.state);
  CHECK(*change.state == 2);
  CHECK(attempted == std::set<std::size_t>{0, 1, 2, 3});
}

TEST_CASE(
    "with no thread free to take the second, a pair costs no more screening than sequentially") {
  // One thread in the arena: the speculative task runs only in the wait after the first attempt,
  // when the first has already succeeded, so the second of the pair is never screened for.
  const std::set<std::size_t> matching{1, 2, 5, 6, 8}, succeeding{1};
  std::vector<std::size_t> screened, attempted;
  tbb::task_arena arena(1);
  mctsat::search::FirstChange<int> change;
  arena.execute([&] {
    change = first_change<int>(
        10,
        [&](std::size_t i) {
          screened.push_back(i);
          return matching.count(i) > 0;
        },
        [&](std::size_t i) {
          attempted.push_back(i);
          return succeeding.count(i) ? std::make_unique<int>(static_cast<int>(i)) : nullptr;
        },
        true);
  });
  CHECK(change.position == 1);
  CHECK(screened == std::vector<std::size_t>{0, 1});
  CHECK(attempted == std::vector<std::size_t>{1});
}
