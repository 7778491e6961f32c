// The project's random draws give one fixed sequence for a seed, whatever the standard library,
// and (under libstdc++) the same draws as libstdc++'s distributions and std::shuffle, so that
// searches recorded with those keep their results.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "support/random_draws.hpp"

using namespace mctsat;

namespace {

std::vector<int> iota_vector(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

}  // namespace

TEST_CASE("a seed gives a fixed sequence of unit, bounded and shuffle draws") {
  RandomEngine engine(7);
  CHECK(random_unit(engine) == 0.75438530415285798);
  CHECK(random_unit(engine) == 0.94930120289264419);
  CHECK(random_below(engine, 10) == 1);
  CHECK(random_below(engine, 1000003) == 891915);
  CHECK(random_below(engine, 3) == 0);
  std::vector<int> odd = iota_vector(9);
  random_shuffle(odd, engine);
  CHECK(odd == std::vector<int>{8, 4, 7, 3, 0, 5, 1, 6, 2});
  std::vector<int> even = iota_vector(10);
  random_shuffle(even, engine);
  CHECK(even == std::vector<int>{0, 3, 8, 1, 2, 5, 7, 9, 6, 4});
}

TEST_CASE("bounded draws stay below the bound and shuffles permute") {
  RandomEngine engine(1);
  for (std::uint64_t bound : {1ULL, 2ULL, 5ULL, 1ULL << 63, ~0ULL})
    for (int i = 0; i < 200; ++i) CHECK(random_below(engine, bound) < bound);
  for (int i = 0; i < 200; ++i) {
    const double u = random_unit(engine);
    CHECK(u >= 0.0);
    CHECK(u < 1.0);
  }
  std::vector<int> v = iota_vector(37);
  random_shuffle(v, engine);
  std::vector<int> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == iota_vector(37));
  CHECK(v != iota_vector(37));
}

#ifdef __GLIBCXX__
TEST_CASE("the draws are libstdc++'s distributions and shuffle, draw for draw") {
  RandomEngine standard(42), ours(42);
  for (int i = 0; i < 2000; ++i)
    REQUIRE(std::uniform_real_distribution<double>(0, 1)(standard) == random_unit(ours));
  for (std::uint64_t bound : {1ULL, 2ULL, 3ULL, 7ULL, 1000ULL, (1ULL << 40) + 3, ~0ULL})
    for (int i = 0; i < 500; ++i)
      REQUIRE(std::uniform_int_distribution<std::uint64_t>(0, bound - 1)(standard) ==
              random_below(ours, bound));
  for (int n = 0; n < 60; ++n) {
    std::vector<int> a = iota_vector(n), b = iota_vector(n);
    std::shuffle(a.begin(), a.end(), standard);
    random_shuffle(b, ours);
    REQUIRE(a == b);
  }
}
#endif
