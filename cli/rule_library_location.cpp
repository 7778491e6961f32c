// Finds the rule library relative to the running executable (see rule_library_location.hpp).
#include "cli/rule_library_location.hpp"

#include <filesystem>
#include <system_error>

namespace mctsat::cli {
namespace {

namespace fs = std::filesystem;

fs::path executable_dir() {
  return fs::path(executable_path()).parent_path();
}

bool same_directory(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return !a.empty() && fs::equivalent(a, b, ec) && !ec;
}

}  // namespace

std::string executable_path() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

std::string rule_library_dir() {
  const fs::path dir = executable_dir();
  // MCTSAT_RULES_FROM_BINDIR: the install layout's data folder relative to its bin folder
  // ("../share/mctsat/rules" with the GNU defaults), set by cli/CMakeLists.txt.
  const fs::path installed = (dir / MCTSAT_RULES_FROM_BINDIR).lexically_normal();
  std::error_code ec;
  if (fs::is_directory(installed, ec)) return installed.string();
  // The build tree's binary (MCTSAT_BUILD_BINDIR) reads the checkout it was built from.
  if (same_directory(dir, MCTSAT_BUILD_BINDIR)) return MCTSAT_BUILD_TREE_RULES;
  return installed.string();
}

std::string default_rule_path() {
  return (fs::path(rule_library_dir()) / "taso").string();
}

}  // namespace mctsat::cli
