// What `mctsat --version` prints: the project version (CMake's project(VERSION)) and the git
// commit the binary was built from, both captured at build time by
// cmake/write_version_source.cmake, which generates the definitions.
#pragma once

#include <string_view>

namespace mctsat::cli {

std::string_view version();  // "0.1.0"
// The full commit hash, with "+dirty" when tracked files had local changes; "unknown" when the
// source was not a git work tree (e.g. a release tarball) or git was missing.
std::string_view build_commit();

}  // namespace mctsat::cli
