// Finding data installed beside a binary (the rule library beside the mctsat executable or the
// Python module), so that an installed binary needs no absolute path compiled in: first
// `<binary dir>/<relative path>` (the install layout), then, only for the binary in its own build
// tree, the source tree's copy.
#pragma once

#include <filesystem>
#include <string>

namespace mctsat {

struct InstalledDataLocation {
  std::string from_binary_dir;   // the data folder relative to the binary's folder when installed
  std::string build_binary_dir;  // the folder the binary is built into
  std::string build_tree_dir;    // the data in the source tree, for the binary in build_binary_dir
};

// The data folder of a binary in `binary_dir`. Never throws: when neither place exists it returns
// the installed location, so that reading from it fails with an error that names the path.
std::string installed_data_dir(const std::filesystem::path& binary_dir,
                               const InstalledDataLocation& location);

// The running executable's absolute path (Linux: /proc/self/exe); empty if it cannot be read.
std::filesystem::path executable_path();
// The folder of the executable or shared library that holds `address` (dladdr); empty if unknown.
std::filesystem::path binary_dir_holding(const void* address);

}  // namespace mctsat
