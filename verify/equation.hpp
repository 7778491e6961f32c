// What the verifier checks: a rule or an axiom seen as one equation between left-hand and
// right-hand roots (a multi-pattern rule has several, index for index), over typed variables,
// under an optional `where` condition. Also its readable, canonical text (for reports and for
// the verification cache's key).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dsl/checked_rule.hpp"

namespace mctsat::verify {

struct Equation {
  std::string name;
  bool axiom = false;
  SourceLocation where;
  std::vector<dsl::Variable> vars;
  std::vector<dsl::Pat> lhs, rhs;
  std::optional<dsl::Cond> condition;
};

Equation equation_of(const dsl::CheckedRule& rule);
Equation equation_of(const dsl::CheckedAxiom& axiom);

// A TENSAT-style split whose sizes are not written: a right-hand (split axis x) whose sizes come
// from the left-hand roots, or a generated `_sizes` variable of an axiom's (split axis x).
bool is_short_split(const dsl::Pat& pattern, const std::vector<dsl::Variable>& vars);

// A right-hand root (split_k (split axis x)) whose split sizes are inferred: output `output` of
// `split` replaces left-hand root `root`, so sizes[output] is that root's extent along the axis.
// `key` identifies the split (the same split may feed several roots).
struct InferredSplitOutput {
  std::size_t root = 0;
  std::size_t output = 0;
  const dsl::Pat* split = nullptr;
  std::string key;
};
std::vector<InferredSplitOutput> inferred_split_outputs(const Equation& equation);

std::string pattern_text(const dsl::Pat& pattern, const std::vector<dsl::Variable>& vars);
std::string condition_text(const dsl::Cond& condition, const std::vector<dsl::Variable>& vars);
// "lhs1, lhs2 => rhs1, rhs2 where cond" (axioms with ==).
std::string equation_text(const Equation& equation);

}  // namespace mctsat::verify
