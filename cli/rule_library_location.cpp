// Finds the rule library and the examples relative to the running executable (see
// rule_library_location.hpp).
#include "cli/rule_library_location.hpp"

#include <filesystem>

#include "dsl/rule_library.hpp"
#include "support/installed_data.hpp"

namespace mctsat::cli {

std::string rule_library_dir() {
  // MCTSAT_RULES_FROM_BINDIR: the install layout's data folder relative to its bin folder
  // ("../share/mctsat/rules" with the GNU defaults), set by cli/CMakeLists.txt; the build tree's
  // binary (MCTSAT_BUILD_BINDIR) reads the checkout it was built from.
  return installed_data_dir(
      executable_path().parent_path(),
      {MCTSAT_RULES_FROM_BINDIR, MCTSAT_BUILD_BINDIR, MCTSAT_BUILD_TREE_RULES});
}

std::string default_rule_path() {
  return (std::filesystem::path(rule_library_dir()) / "taso").string();
}

std::vector<std::string> rule_source_paths(const std::vector<std::string>& sources) {
  return dsl::resolve_rule_sources(sources, rule_library_dir());
}

std::string examples_dir() {
  return installed_data_dir(
      executable_path().parent_path(),
      {MCTSAT_EXAMPLES_FROM_BINDIR, MCTSAT_BUILD_BINDIR, MCTSAT_BUILD_TREE_EXAMPLES});
}

}  // namespace mctsat::cli
