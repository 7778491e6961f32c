// Rules after checking against the operator catalog: operators resolved, every variable with
// its sort (tensor, tuple, integer, integer list, real), conditions typed. This is what lowering
// turns into e-graph rewrites and what the verifier reasons about.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "tensor/op.hpp"

namespace mctsat::dsl {

enum class Sort { kTensor, kTuple, kInt, kInts, kFloat };
const char* sort_name(Sort sort);  // "tensor", "tuple", "integer", "integer list", "number"

using VarIndex = std::uint32_t;

struct Variable {
  std::string name;  // without '?'; generated names start with '_'
  Sort sort = Sort::kTensor;
  SourceLocation where;  // first occurrence
};

// A checked pattern term.
struct Pat {
  enum class Kind {
    kVar,           // a rule variable
    kInt,           // integer literal
    kInts,          // integer list literal
    kFloat,         // real literal
    kOp,            // a catalog operator, arguments in the catalog's positional order
    kProj,          // output `index` of a multi-output term (TENSAT's split_0 / split_1)
    kInferredSizes  // right-hand sides only: the `sizes` of a two-argument (split axis x), taken
                    // from the shapes of the left-hand roots its projections replace
  };
  Kind kind = Kind::kVar;
  Sort sort = Sort::kTensor;
  SourceLocation where;
  VarIndex var = 0;
  tensor::Op op = tensor::Op::kInput;
  std::int64_t value = 0;  // kInt; kProj: the output index
  std::vector<std::int64_t> ints;
  double real = 0;
  std::vector<Pat> args;
};

// A typed condition: integer expressions and booleans over the rule's variables.
struct Cond {
  enum class Kind {
    kInt,
    kVar,
    kRank,
    kDim,
    kNumel,
    kSameShape,  // same_shape(?a, ?b): a condition; `var` is ?a, `other` is ?b
    kNeg,
    kNot,
    kArith,
    kCompare,
    kAnd,
    kOr
  };
  Kind kind = Kind::kInt;
  SourceLocation where;
  std::int64_t value = 0;  // kInt
  VarIndex var = 0;        // kVar, kRank, kDim, kNumel, kSameShape
  VarIndex other = 0;      // kSameShape
  std::string op;          // kArith: + - * / %; kCompare: == != < <= > >=
  std::vector<Cond> operands;
};

struct CheckedRule {
  std::string name;
  std::string ruleset;
  std::vector<std::string> tags;
  std::optional<VerificationLevel> verified;  // the declaration's @verified level, if any
  SourceLocation where;
  std::vector<Variable> vars;
  std::vector<Pat> lhs, rhs;  // equally many; rhs[i] replaces lhs[i]
  std::optional<Cond> condition;
  bool reversed = false;  // the right-to-left half of a `<=>` rule
  bool multi() const { return lhs.size() > 1; }
};

struct CheckedAxiom {
  std::string name;
  std::string ruleset;
  std::vector<std::string> tags;
  SourceLocation where;
  std::vector<Variable> vars;
  Pat lhs, rhs;
  std::optional<Cond> condition;
};

}  // namespace mctsat::dsl
