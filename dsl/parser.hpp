// Parsing one rule file's text into its syntax tree (ast.hpp). Syntax errors go to the
// diagnostics (several per file); the returned tree holds every item that parsed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dsl/ast.hpp"
#include "dsl/diagnostics.hpp"

namespace mctsat::dsl {

RuleFile parse_rule_text(std::string text, const std::string& path, Diagnostics& diagnostics);

// Parses one pattern term (e.g. a side of a TENSAT rule) found at `line` of `path`; the whole text
// must be the term. Errors go to the diagnostics.
std::optional<Term> parse_term_text(std::string_view text, const std::string& path,
                                    std::uint32_t line, Diagnostics& diagnostics);

}  // namespace mctsat::dsl
