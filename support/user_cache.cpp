// The default location of per-machine caches.
#include "support/user_cache.hpp"

#include <cstdlib>
#include <filesystem>

namespace mctsat {

std::string user_cache_file(const std::string& file) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".cache";
  else
    base = ".";
  return (base / "mctsat" / file).string();
}

}  // namespace mctsat
