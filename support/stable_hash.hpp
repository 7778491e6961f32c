// Hashes that are the same on every machine, library and run (std::hash is not): 64-bit FNV-1a of
// text, for seeds derived from names, cache keys and run identifiers that are written to disk;
// and a combiner of 64-bit values, for structural hashes (graph fingerprints, e-graph states).
#pragma once

#include <cstdint>
#include <string_view>

namespace mctsat {

inline std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 0xcbf29ce484222325ULL) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// Mixes `value` into `hash` (order-dependent): a boost-style combine followed by a multiply and
// fold, so that every bit of both reaches the result.
inline std::uint64_t hash_combine(std::uint64_t hash, std::uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  hash *= 0xff51afd7ed558ccdULL;
  return hash ^ (hash >> 32);
}

}  // namespace mctsat
