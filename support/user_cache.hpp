// Where per-user caches (measured operator costs, rule verifications) live by default:
// $XDG_CACHE_HOME/mctsat, else ~/.cache/mctsat. Nothing is created here.
#pragma once

#include <optional>
#include <string>

namespace mctsat {

// The cache folder; nullopt when neither variable is set.
std::optional<std::string> user_cache_dir();
// A file in the cache folder, or in ./mctsat when there is none.
std::string user_cache_file(const std::string& file);

}  // namespace mctsat
