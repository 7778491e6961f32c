// The canonical text of rule files (`mctsat rules fmt`): one item per block, comments kept where
// they stand before an item, rules laid out as
//
//   @tags(a, b)
//   rule name:
//     LHS
//     => RHS
//     where CONDITION
//
// Printing, parsing and printing again gives the same text.
#pragma once

#include <string>

#include "dsl/ast.hpp"

namespace mctsat::dsl {

std::string format_term(const Term& term);
std::string format_expr(const Expr& expr);
std::string format_rule(const RuleDecl& rule);
std::string format_axiom(const AxiomDecl& axiom);
std::string format_rule_file(const RuleFile& file);

}  // namespace mctsat::dsl
