// An equation instantiated over Z3 for one choice of ranks: every tensor variable gets a Z3
// integer per dimension, every integer variable one integer, every integer-list variable one
// integer per element. Both sides are run through the operators' shape functions
// (tensor/shape_functions.hpp, the same code the engine uses), giving the root shapes and the
// constraints under which each side is well-formed; the `where` condition becomes a formula.
//
// Ranks and list lengths are concrete (enumerated by `enumerate_sizes`); a side whose ranks do
// not fit its operators has a structural error instead of constraints.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "tensor/tensor_type.hpp"
#include "verify/equation.hpp"

namespace mctsat::verify {

using Z3Shape = tensor::BasicShape<z3::expr>;

// Per variable: the rank of a tensor, the length of an integer list, 0 otherwise.
using SizeAssignment = std::vector<std::size_t>;

// Every assignment with tensor ranks in 1..max_rank and list lengths in 1..max_rank (2 for the
// sizes of a TENSAT split; the input count for an axiom's split of a concat), in lexicographic
// order, at most `limit` of them (`truncated` says whether some were left out).
std::vector<SizeAssignment> enumerate_sizes(const Equation& equation, std::size_t max_rank,
                                            std::size_t limit, bool& truncated);

class SymbolicEquation {
 public:
  SymbolicEquation(z3::context& z3, const Equation& equation, const SizeAssignment& sizes);

  // Structural errors (empty when the side evaluated).
  std::string lhs_error, rhs_error;
  // The variables of the left-hand subterm where lhs_error arose: the error depends on their
  // sizes only (see StructuralFailures).
  std::vector<dsl::VarIndex> lhs_error_vars;
  std::vector<std::vector<Z3Shape>> lhs_shapes, rhs_shapes;  // per root, per output
  std::vector<z3::expr> domain;           // dimensions and split sizes positive, list elements >= 0
  std::vector<z3::expr> lhs_constraints;  // the left-hand side is well-formed
  std::vector<z3::expr> rhs_constraints;  // the right-hand side is well-formed
  z3::expr where;                         // the condition (true without one)

  // Both sides' roots have equal shapes (false if some rank differs). Needs both sides.
  z3::expr shapes_equal() const;
  // The Z3 terms of variable `var`: a tensor's dimensions, an integer's value, a list's elements.
  const std::vector<z3::expr>& values(dsl::VarIndex var) const { return values_[var]; }
  const Equation& equation() const { return equation_; }
  const SizeAssignment& sizes() const { return sizes_; }
  // An all-of formula of the constraints.
  z3::expr all(const std::vector<z3::expr>& constraints) const;

 private:
  bool evaluate(const dsl::Pat& p, std::vector<Z3Shape>& outputs, std::vector<z3::expr>& into,
                std::string& error);
  bool evaluate_node(const dsl::Pat& p, std::vector<Z3Shape>& outputs, std::vector<z3::expr>& into,
                     std::string& error);
  bool attribute(const dsl::Pat& p, std::vector<z3::expr>& value, std::string& error);
  z3::expr int_term(const dsl::Cond& c, std::vector<z3::expr>& defined);
  z3::expr bool_term(const dsl::Cond& c, std::vector<z3::expr>& defined);
  void infer_split_sizes();

  z3::context& z3_;
  const Equation& equation_;
  SizeAssignment sizes_;
  std::vector<std::vector<z3::expr>> values_;
  std::map<std::string, std::vector<z3::expr>> inferred_sizes_;  // by the split's text
  // The variables of the innermost subterm that failed to evaluate.
  std::optional<std::vector<dsl::VarIndex>> error_vars_;
};

// Size assignments known to leave an equation's left-hand side ill-formed, so that the checks
// need not build their SymbolicEquation (most rank combinations of a convolution rule fail, at a
// Z3 term per dimension each): a structural error at a subterm depends only on the sizes of the
// subterm's variables, so every assignment that gives them the same sizes fails there too.
class StructuralFailures {
 public:
  // Remembers why `failed` (whose lhs_error is set) failed.
  void add(const SymbolicEquation& failed);
  bool excludes(const SizeAssignment& sizes) const;

 private:
  struct Failure {
    std::vector<dsl::VarIndex> vars;
    std::vector<std::size_t> sizes;  // of vars
  };
  std::vector<Failure> failures_;
};

}  // namespace mctsat::verify
