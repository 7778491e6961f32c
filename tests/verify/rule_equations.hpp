// The equation of the one rule in a rule text, for verifier tests (the test fails on a parse or
// check error, or on more or fewer rules).
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "dsl/rule_library.hpp"
#include "verify/equation.hpp"

namespace mctsat::verify::testing {

inline Equation rule_equation(const std::string& text) {
  dsl::Diagnostics diagnostics;
  const auto library = dsl::load_rule_text(text, "<test>", diagnostics);
  REQUIRE_MESSAGE(!diagnostics.has_errors(), diagnostics.render());
  REQUIRE(library.rules.size() == 1);
  return equation_of(library.rules[0]);
}

}  // namespace mctsat::verify::testing
