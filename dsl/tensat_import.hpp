// Converting TENSAT rule files (one `lhs=>rhs` s-expression rule per line; multi-pattern files
// hold two consecutive lines per rule) into mctsat rule declarations, for people migrating from
// TENSAT and for checking mctsat's rule library against TENSAT's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "dsl/diagnostics.hpp"

namespace mctsat::dsl {

// Rules named `<prefix>-<n>` (n = rule number from 1), tagged with `tensat` (and `multi`) and the
// operators they mention. Problems go to the diagnostics with the line they are on.
std::vector<RuleDecl> import_tensat_rules(const std::string& text, const std::string& path,
                                          bool multi, const std::string& prefix,
                                          Diagnostics& diagnostics);

// A rule file holding the imported rules (single-pattern first, then multi-pattern).
std::string tensat_rules_to_dsl(const std::vector<RuleDecl>& rules, const std::string& ruleset);

}  // namespace mctsat::dsl
