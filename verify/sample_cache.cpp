// Remembered Z3 sample selections (see sample_cache.hpp).
#include "verify/sample_cache.hpp"

#include "support/stable_hash.hpp"

namespace mctsat::verify {

SampleCache::Key SampleCache::key_of(std::string_view text) {
  // FNV-1a from its standard offset basis and from another one.
  return {fnv1a(text), fnv1a(text, 0x84222325cbf29ce4ULL)};
}

std::optional<SampleCache::Selection> SampleCache::find(std::string_view key_text) const {
  const Key key = key_of(key_text);
  const std::lock_guard lock(mutex_);
  const auto it = selections_.find(key);
  if (it == selections_.end()) return std::nullopt;
  ++hits_;
  return it->second;
}

void SampleCache::store(std::string_view key_text, Selection selection) {
  const Key key = key_of(key_text);
  const std::lock_guard lock(mutex_);
  selections_.emplace(key, std::move(selection));
}

std::size_t SampleCache::hits() const {
  const std::lock_guard lock(mutex_);
  return hits_;
}

std::size_t SampleCache::size() const {
  const std::lock_guard lock(mutex_);
  return selections_.size();
}

}  // namespace mctsat::verify
