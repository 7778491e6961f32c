// The numeric check's Z3 sample selections, remembered for the checks of one run (a synthesis
// verifies hundreds of equations whose shape constraints are often the same: operators that keep
// shapes, fused activations, the final test's siblings). An entry is keyed by everything one
// selection depends on — the constraints asserted, the values asked for, the assignments already
// taken, the preferences and the state of the seeded random stream — and holds the values Z3
// picked and the stream's state after, so a check gives the same result with or without the
// cache. Keys are two independent 64-bit hashes of that text. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

namespace mctsat::verify {

class SampleCache {
 public:
  struct Selection {
    std::optional<std::vector<std::int64_t>> values;  // nullopt: no assignment left
    std::mt19937_64 random_after;
  };

  std::optional<Selection> find(std::string_view key_text) const;
  void store(std::string_view key_text, Selection selection);
  std::size_t hits() const;
  std::size_t size() const;

 private:
  using Key = std::pair<std::uint64_t, std::uint64_t>;
  static Key key_of(std::string_view text);

  mutable std::mutex mutex_;
  std::map<Key, Selection> selections_;
  mutable std::size_t hits_ = 0;
};

}  // namespace mctsat::verify
