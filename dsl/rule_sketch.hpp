// A rule's operators at a glance, for labels where its name alone says little (a study's rule heat
// map): "concat(relu, relu) -> relu(concat)". Each side lists its terms' operators nested up to
// three deep ("..": deeper operators left out), without literals, conditions or variables, except
// a side that is a variable ("transpose(transpose) -> ?x"); a multi-output term's projections show
// the term once ("matmul, matmul -> split(matmul(concat))"). Linear in the rule's size.
#pragma once

#include <string>

#include "dsl/checked_rule.hpp"

namespace mctsat::dsl {

std::string rule_sketch(const CheckedRule& rule);

}  // namespace mctsat::dsl
