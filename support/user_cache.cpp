// The default location of per-user caches.
#include "support/user_cache.hpp"

#include <cstdlib>
#include <filesystem>

namespace mctsat {

std::optional<std::string> user_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (std::filesystem::path(xdg) / "mctsat").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (std::filesystem::path(home) / ".cache" / "mctsat").string();
  return std::nullopt;
}

std::string user_cache_file(const std::string& file) {
  return (std::filesystem::path(user_cache_dir().value_or("./mctsat")) / file).string();
}

}  // namespace mctsat
