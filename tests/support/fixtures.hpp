// Fixtures shared by the tests of every folder, declared once: TASO's rule library (rules/taso,
// loaded once per test executable), the V100 roofline model most search tests price with, and
// rule libraries from text (the test fails on a parse or check error, with the diagnostics).
// Header-only: a test executable links what it calls (dsl for the rules, tensor for the model).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"

namespace test_fixtures {

// rules/taso of this checkout, loaded once.
inline const mctsat::dsl::RuleLibrary& taso_library() {
  static const mctsat::dsl::RuleLibrary library =
      mctsat::dsl::load_rules_or_throw({std::string(MCTSAT_SOURCE_DIR) + "/rules/taso"});
  return library;
}

// Every rule of rules/taso (no selection), lowered once.
inline const mctsat::dsl::RuleSet& taso_rules() {
  static const mctsat::dsl::RuleSet rules(mctsat::dsl::select_rules(taso_library(), {}));
  return rules;
}

// The roofline model of the built-in V100 profile (the default device), made once; cost models
// may be called from several threads at once.
inline const mctsat::tensor::RooflineCostModel& v100_roofline() {
  static const mctsat::tensor::RooflineCostModel model(mctsat::tensor::builtin_profile("v100"));
  return model;
}

// The library of a rule text (`path` names it in diagnostics).
inline mctsat::dsl::RuleLibrary rule_library(const std::string& text,
                                             const std::string& path = "<test>.rules") {
  mctsat::dsl::Diagnostics diagnostics;
  mctsat::dsl::RuleLibrary library = mctsat::dsl::load_rule_text(text, path, diagnostics);
  REQUIRE_MESSAGE(!diagnostics.has_errors(), diagnostics.render());
  return library;
}

// Every rule of a rule text, lowered.
inline mctsat::dsl::RuleSet rule_set(const std::string& text,
                                     const std::string& path = "<test>.rules") {
  return mctsat::dsl::RuleSet(rule_library(text, path).rules);
}

}  // namespace test_fixtures
