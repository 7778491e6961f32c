// Converting TASO's larger equation set (TENSAT's taso_rules.txt: one `lhs==rhs` per line in
// function-call syntax, e.g. `matmul(input_1,transpose(input_2))`) into mctsat rules, so that the
// verifier can check them. Each equation becomes a rule oriented so that its right-hand side
// uses only variables of its left-hand side. Equations mctsat cannot express are skipped with a
// reason: TASO's verification-only constants (Iconv, Cpool), enlarge to a literal size (ours
// takes a reference kernel), and split_k(axis, x), whose split point only TASO's verifier knows.
//
// Operator forms: matmul(a,b) -> (matmul 0 a b); transpose(x) -> (transpose x [1, 0]);
// concat(axis,a,b) -> (concat axis N a b) with N = 4 when the equation involves convolutions or
// pooling, else 2; poolavg/poolmax(kh,kw,sh,sw,pad,x) -> (poolX x kh kw sh sw pad 0); conv2d,
// ewadd, ewmul, smul, relu, tanh, sigmoid keep their arguments; input_N -> ?input_N.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/ast.hpp"

namespace mctsat::dsl {

struct SkippedEquation {
  std::uint32_t line = 0;
  std::string reason;
};

struct TasoEquationImport {
  std::vector<RuleDecl> rules;  // named taso-eq-<line>
  std::vector<SkippedEquation> skipped;
};

// Every equation becomes a checked rule or a skipped entry with its line and reason (equations
// the rule checker rejects included).
TasoEquationImport import_taso_equations(const std::string& text, const std::string& path);

// A rule file holding the imported rules.
std::string taso_equations_to_dsl(const std::vector<RuleDecl>& rules, const std::string& ruleset);

}  // namespace mctsat::dsl
