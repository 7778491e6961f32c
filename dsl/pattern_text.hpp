// A checked term (Pat) as canonical text, for comparing terms by structure: "(matmul 0 ?0 (relu
// ?1))". Two terms have the same text exactly when they have the same operators, literals and
// variables in the same places; variables are written as `var` names them (by default `?` and
// their index in the rule). Linear in the term's size.
#pragma once

#include <functional>
#include <string>

#include "dsl/checked_rule.hpp"

namespace mctsat::dsl {

std::string pattern_text(const Pat& pattern);
std::string pattern_text(const Pat& pattern, const std::function<std::string(VarIndex)>& var);

}  // namespace mctsat::dsl
