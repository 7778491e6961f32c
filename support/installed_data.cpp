// Locating installed data relative to a binary (see installed_data.hpp).
#include "support/installed_data.hpp"

#include <dlfcn.h>

#include <system_error>

namespace mctsat {
namespace {

namespace fs = std::filesystem;

bool same_directory(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return !a.empty() && fs::equivalent(a, b, ec) && !ec;
}

}  // namespace

std::string installed_data_dir(const fs::path& binary_dir, const InstalledDataLocation& location) {
  const fs::path installed = (binary_dir / location.from_binary_dir).lexically_normal();
  std::error_code ec;
  if (fs::is_directory(installed, ec)) return installed.string();
  if (same_directory(binary_dir, location.build_binary_dir)) return location.build_tree_dir;
  return installed.string();
}

fs::path executable_path() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

fs::path binary_dir_holding(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  const fs::path binary = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path() : binary.parent_path();
}

}  // namespace mctsat
