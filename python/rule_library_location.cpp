// Finds the rule library relative to the extension module (see rule_library_location.hpp).
#include "python/rule_library_location.hpp"

#include <filesystem>

#include "support/installed_data.hpp"

namespace mctsat::python {

std::string rule_library_dir() {
  // The macros come from python/CMakeLists.txt.
  static const int anchor = 0;  // an address inside this module
  return installed_data_dir(
      binary_dir_holding(&anchor),
      {MCTSAT_RULES_FROM_MODULE_DIR, MCTSAT_BUILD_MODULE_DIR, MCTSAT_BUILD_TREE_RULES});
}

std::string default_rule_path() {
  return (std::filesystem::path(rule_library_dir()) / "taso").string();
}

}  // namespace mctsat::python
