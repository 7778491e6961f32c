// Where the shipped rule library (the repository's rules/ folder) is found at run time, so that
// an installed mctsat needs no path compiled in: first `<exe dir>/../share/mctsat/rules` (where
// `cmake --install` puts it beside `<prefix>/bin/mctsat`), then, only for the binary in its own
// build tree, the source tree's rules/. Also where the running executable is (a Slurm batch
// script names it).
#pragma once

#include <string>

namespace mctsat::cli {

// The running executable's absolute path (Linux: /proc/self/exe); empty if it cannot be read.
std::string executable_path();

// The rule library's root folder. Never throws: when neither place exists it returns the
// installed location, so that loading rules from it fails with an error that names the path.
std::string rule_library_dir();

// The rule files `optimize` and `bench` use by default: rule_library_dir() + "/taso".
std::string default_rule_path();

}  // namespace mctsat::cli
