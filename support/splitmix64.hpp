// SplitMix64 (Steele, Lea and Flood, 2014): a tiny fixed pseudo-random generator that gives the
// same sequence on every platform and standard library, for seeded, reproducible choices
// (the dag extractor's restarts, the benchmarks' random e-graphs, tests).
#pragma once

#include <cstdint>

namespace mctsat {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1), 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // In [0, bound) by multiply-shift of the high 32 bits (a tiny bias, no division).
  std::uint32_t below(std::uint32_t bound) {
    return static_cast<std::uint32_t>(((next() >> 32) * bound) >> 32);
  }
  // In [0, bound) by the remainder of the whole draw (kept for sequences recorded with it).
  std::uint32_t modulo(std::uint32_t bound) { return static_cast<std::uint32_t>(next() % bound); }

 private:
  std::uint64_t state_;
};

}  // namespace mctsat
