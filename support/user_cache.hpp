// Where per-machine caches (measured operator costs) live by default: $XDG_CACHE_HOME, else
// ~/.cache, else the current directory, then mctsat/<file>. Nothing is created here.
#pragma once

#include <string>

namespace mctsat {

std::string user_cache_file(const std::string& file);

}  // namespace mctsat
