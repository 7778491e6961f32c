// Where the data shipped with mctsat is found at run time, so that an installed mctsat needs no
// path compiled in: the rule library (the repository's rules/ folder) and the examples (examples/):
// first `<exe dir>/../share/mctsat/{rules,examples}` (where `cmake --install` puts them beside
// `<prefix>/bin/mctsat`), then, only for the binary in its own build tree, the source tree's
// folders. Also where the running executable is (a Slurm batch script names it).
#pragma once

#include <string>
#include <vector>

namespace mctsat::cli {

// The rule library's root folder. Never throws: when neither place exists it returns the
// installed location, so that loading rules from it fails with an error that names the path.
std::string rule_library_dir();

// The rule files `optimize` and `bench` use by default: rule_library_dir() + "/taso".
std::string default_rule_path();

// Rule sources as given on the command line (`--rules taso,extended`, paths, or both) as paths:
// dsl::resolve_rule_sources with rule_library_dir() (library names resolve in the installed
// library too). Throws an Error for a plain name that is neither a path nor a library.
std::vector<std::string> rule_source_paths(const std::vector<std::string>& sources);

// The examples' folder (`mctsat examples` copies it), found like rule_library_dir().
std::string examples_dir();

}  // namespace mctsat::cli
