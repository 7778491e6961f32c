// The syntax tree of rule files, as written (before checking against the operator catalog).
// Every node remembers where it came from, for diagnostics.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/verification_level.hpp"
#include "support/error.hpp"

namespace mctsat::dsl {

// A pattern term: ?var, an integer, a real number, an integer list, or (op args...).
struct Term {
  enum class Kind { kVar, kInt, kFloat, kList, kApply };
  Kind kind = Kind::kVar;
  SourceLocation where;
  std::string name;  // variable name (without '?') or operator name
  std::int64_t int_value = 0;
  double float_value = 0;
  std::vector<std::int64_t> list;
  std::vector<Term> args;
};

// A `where` condition or integer expression.
struct Expr {
  enum class Kind { kInt, kVar, kCall, kNeg, kNot, kBinary };
  Kind kind = Kind::kInt;
  SourceLocation where;
  std::int64_t value = 0;      // kInt
  std::string name;            // kVar: variable; kCall: rank, dim or numel; kBinary: operator
  std::vector<Expr> operands;  // call arguments, the negated operand, or the two sides
};

struct RuleDecl {
  SourceLocation where;
  std::string name;
  std::vector<std::string> tags;
  std::optional<VerificationLevel> verified;  // @verified(LEVEL): how the rule was shown sound
  std::vector<Term> lhs, rhs;
  bool bidirectional = false;
  std::optional<Expr> condition;
};

struct AxiomDecl {
  SourceLocation where;
  std::string name;
  std::vector<std::string> tags;
  std::vector<std::string> forall;  // declared variables (may be empty: all are universal)
  Term lhs, rhs;
  std::optional<Expr> condition;
};

struct IncludeDecl {
  SourceLocation where;
  std::string path;  // as written, relative to the including file
};

// A top-level item in source order, with the comment lines written just before it.
struct Item {
  enum class Kind { kRuleset, kInclude, kRule, kAxiom };
  Kind kind = Kind::kRule;
  std::size_t index = 0;              // into includes / rules / axioms
  std::vector<std::string> comments;  // "# ..." lines, as written
};

// One parsed file. `ruleset` holds the file's ruleset declaration; rules
// before it (or in a file without one) take the includer's ruleset, else the file's stem.
struct RuleFile {
  std::string path;
  std::string text;
  std::optional<std::string> ruleset;
  SourceLocation ruleset_where;
  std::vector<IncludeDecl> includes;
  std::vector<RuleDecl> rules;
  std::vector<AxiomDecl> axioms;
  std::vector<Item> items;                     // every item in source order
  std::vector<std::string> trailing_comments;  // comment lines after the last item
};

}  // namespace mctsat::dsl
