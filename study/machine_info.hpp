// What a bench record says about where and with what it ran: the machine (CPU model, cores,
// memory, OS, host name) and the source revision (git commit, read at run time).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace mctsat::study {

// {"cpu": model name, "cores": logical CPUs, "memory_gb", "os": "Linux 6.1.0 x86_64", "host"}.
nlohmann::json machine_info();

// The commit checked out in `source_dir` ("<hash>", "<hash>+dirty" with uncommitted changes to
// tracked files), or "unknown" when git or the repository is not available. Never writes to the
// repository (optional locks are off).
std::string git_commit(const std::string& source_dir);

// The source checkout this program was built from.
std::string build_source_dir();

// The current time in UTC as "2026-11-29T18:02:11Z".
std::string utc_timestamp();

}  // namespace mctsat::study
