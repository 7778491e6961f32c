// Writing synthesized rules as a DSL file: a header comment, the ruleset, and per rule the
// provenance comments (sizes, fingerprint, verification verdicts), `@tags(synthesized, <its
// operators>)`, `<=>` when both sides use the same variables, and its `where` condition. The
// text goes through the parser and the canonical printer (`mctsat rules fmt`), so what is
// written reads back to the same rules.
#pragma once

#include <string>
#include <vector>

namespace mctsat::synth {

struct WrittenRule {
  std::string name;
  std::string lhs, rhs;  // DSL terms
  bool bidirectional = false;
  std::string condition;  // DSL condition; empty: none
  std::vector<std::string> tags;
  std::vector<std::string> comments;  // provenance, one line each, without '#'
};

// The file's text. `header` lines (without '#') open the file. Throws mctsat::Error if a rule
// does not parse (a defect of the synthesizer, not of user input).
std::string synthesized_rule_file(const std::vector<WrittenRule>& rules, const std::string& ruleset,
                                  const std::vector<std::string>& header);

// The same rule as one DSL item without comments or tags, for verification and derivation.
std::string rule_text(const WrittenRule& rule, bool one_way);

}  // namespace mctsat::synth
