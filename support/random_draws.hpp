// Seeded random draws that give the same sequence with every standard library. The engine is
// std::mt19937_64, whose output the C++ standard fixes; the standard's distributions and
// std::shuffle are not fixed (libstdc++ and libc++ differ), so the draws are written here. They
// follow libstdc++'s algorithms (GCC 12) step for step, so that searches recorded with libstdc++'s
// distributions keep their results: a unit draw is one engine output scaled by 2^-64 (rounded
// below 1), a bounded draw is Lemire's multiply-and-reject, and a shuffle draws two swap
// positions at once while the bound allows it. A test compares them with libstdc++'s where that
// library is in use, and with a fixed expected sequence everywhere.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace mctsat {

using RandomEngine = std::mt19937_64;

// Uniform in [0, 1).
inline double random_unit(RandomEngine& engine) {
  const double value = static_cast<double>(engine()) * 0x1.0p-64;
  return value >= 1.0 ? std::nextafter(1.0, 0.0) : value;
}

// Uniform in [0, bound) for bound >= 1 (multiply the 64-bit draw by the bound, keep the high
// half, redraw when the low half falls in the biased sliver).
__extension__ using RandomProduct = unsigned __int128;  // GCC's and Clang's 128-bit integer

inline std::uint64_t random_below(RandomEngine& engine, std::uint64_t bound) {
  RandomProduct product = static_cast<RandomProduct>(engine()) * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      product = static_cast<RandomProduct>(engine()) * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

// Fisher-Yates shuffle in place. While (i + 1) * (i + 2) fits the engine's range, which is always
// for vectors this project shuffles, one draw gives the swap positions of two elements.
template <typename T>
void random_shuffle(std::vector<T>& values, RandomEngine& engine) {
  const std::uint64_t n = values.size();
  if (n < 2) return;
  constexpr std::uint64_t kRange = ~std::uint64_t{0};
  if (kRange / n >= n) {
    std::uint64_t i = 1;
    if (n % 2 == 0) std::swap(values[i++], values[random_below(engine, 2)]);
    while (i != n) {
      const std::uint64_t first_bound = i + 1, second_bound = i + 2;
      const std::uint64_t x = random_below(engine, first_bound * second_bound);
      std::swap(values[i], values[x / second_bound]);
      ++i;
      std::swap(values[i], values[x % second_bound]);
      ++i;
    }
    return;
  }
  for (std::uint64_t i = 1; i != n; ++i) std::swap(values[i], values[random_below(engine, i + 1)]);
}

}  // namespace mctsat
