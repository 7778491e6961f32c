// A rule text's library, and the equation of the one rule in a rule text, for verifier tests (the
// test fails on a parse or check error, or, for the equation, on more or fewer rules).
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "dsl/rule_library.hpp"
#include "tests/support/fixtures.hpp"
#include "verify/equation.hpp"

namespace mctsat::verify::testing {

inline dsl::RuleLibrary rule_library(const std::string& text) {
  return test_fixtures::rule_library(text, "<test>");
}

inline Equation rule_equation(const std::string& text) {
  const dsl::RuleLibrary library = rule_library(text);
  REQUIRE(library.rules.size() == 1);
  return equation_of(library.rules[0]);
}

}  // namespace mctsat::verify::testing
