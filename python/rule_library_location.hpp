// Where the Python module finds the shipped rule library: `<package dir>/<relative path>` when
// installed (cmake --install puts the package under <prefix>/lib/pythonX.Y/site-packages and the
// rules under <prefix>/share/mctsat/rules), the checkout's rules/ for the module in its build tree.
#pragma once

#include <string>

namespace mctsat::python {

std::string rule_library_dir();
// The rule files optimize and studies use by default: rule_library_dir() + "/taso".
std::string default_rule_path();

}  // namespace mctsat::python
