// The verification cache: one small JSON file per verified equation, named by a stable hash of
// everything the result depends on (the equation's text, the axioms for the proof, the options,
// the verifier's version). Unchanged rules are not re-verified; deleting the directory is safe.
#pragma once

#include <optional>
#include <string>

#include "verify/check_result.hpp"

namespace mctsat::verify {

struct CachedChecks {
  CheckResult shape, proof, numeric;
};

class VerifyCache {
 public:
  explicit VerifyCache(std::string directory) : directory_(std::move(directory)) {}
  // Absent, unreadable or malformed entries are misses.
  std::optional<CachedChecks> load(const std::string& key) const;
  // Best effort: a cache that cannot be written is not an error.
  void store(const std::string& key, const CachedChecks& checks) const;
  // A file-name key from the text of everything the result depends on.
  static std::string key_of(const std::string& identity);
  // Why entries cannot be stored (the directory cannot be created or is not writable), or
  // nullopt when they can: stores fail silently, so a command says this once up front.
  std::optional<std::string> unwritable() const;

 private:
  std::string directory_;
};

}  // namespace mctsat::verify
