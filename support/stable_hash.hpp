// A hash that is the same on every machine, library and run (std::hash is not): 64-bit FNV-1a.
// For seeds derived from names, cache keys and run identifiers that are written to disk.
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

}  // namespace mctsat
