// Reading machine information from /proc and uname, and the git commit through `git`.
#include "bench/harness/machine_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

#include <fmt/format.h>

namespace mctsat::bench {
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

// Runs a shell command and captures its standard output (trailing newline removed); false if it
// failed.
bool run_command(const std::string& command, std::string& output) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return false;
  std::array<char, 512> buffer{};
  output.clear();
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
  const int status = pclose(pipe);
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return status == 0;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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
  const std::string git = "GIT_OPTIONAL_LOCKS=0 git -C " + shell_quote(source_dir);
  std::string hash, changes;
  if (!run_command(git + " rev-parse HEAD 2>/dev/null", hash) || hash.empty()) return "unknown";
  if (run_command(git + " status --porcelain --untracked-files=no 2>/dev/null", changes) &&
      !changes.empty())
    hash += "+dirty";
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

}  // namespace mctsat::bench
