// Reading machine information from /proc and uname, and the git commit through `git`.
#include "study/machine_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <ctime>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "support/subprocess.hpp"

namespace mctsat::study {
namespace {

// The value of the first "key<spaces>: value" line of a /proc file.
std::string proc_field(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    return value;
  }
  return "";
}

}  // namespace

nlohmann::json machine_info() {
  utsname names{};
  uname(&names);
  std::string cpu = proc_field("/proc/cpuinfo", "model name");
  if (cpu.empty()) cpu = "unknown";
  const std::string memory = proc_field("/proc/meminfo", "MemTotal");  // "24000000 kB"
  double memory_gb = 0;
  if (!memory.empty()) memory_gb = std::stod(memory) / (1024.0 * 1024.0);
  return {{"cpu", cpu},
          {"cores", std::thread::hardware_concurrency()},
          {"memory_gb", std::round(memory_gb * 10) / 10},
          {"os", fmt::format("{} {} {}", names.sysname, names.release, names.machine)},
          {"host", names.nodename}};
}

std::string git_commit(const std::string& source_dir) {
  const std::vector<std::pair<std::string, std::string>> no_locks{{"GIT_OPTIONAL_LOCKS", "0"}};
  const auto head = run_program({"git", "-C", source_dir, "rev-parse", "HEAD"}, no_locks);
  if (!head || head->exit_code != 0) return "unknown";
  std::string hash = head->out.substr(0, head->out.find_first_of("\r\n"));
  if (hash.empty()) return "unknown";
  const auto changes = run_program(
      {"git", "-C", source_dir, "status", "--porcelain", "--untracked-files=no"}, no_locks);
  if (changes && changes->exit_code == 0 && !changes->out.empty()) hash += "+dirty";
  return hash;
}

std::string build_source_dir() {
  return MCTSAT_SOURCE_DIR;
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace mctsat::study
