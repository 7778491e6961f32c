// Checking parsed rules and axioms against the operator catalog (see checked_rule.hpp for the
// result). Problems go to the diagnostics; a rule with an error is left out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/checked_rule.hpp"
#include "dsl/diagnostics.hpp"

namespace mctsat::dsl {

// Appends the checked rule (and, for `<=>`, its reverse named `<name>-reverse`) to `out`.
void check_rule(const RuleDecl& decl, const std::string& ruleset, Diagnostics& diagnostics,
                std::vector<CheckedRule>& out);
std::optional<CheckedAxiom> check_axiom(const AxiomDecl& decl, const std::string& ruleset,
                                        Diagnostics& diagnostics);

}  // namespace mctsat::dsl
