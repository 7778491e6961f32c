// Check 2, equivalence from axioms (TASO's method): operators are uninterpreted functions over an
// uninterpreted tensor sort (integer attributes as integers, integer lists as an uninterpreted
// list sort, a split's outputs as one function per output), the axioms are universally
// quantified equations (under their `where` conditions, with `dim`, `rank` and `numel`
// uninterpreted), and Z3 tries to prove the rule's `lhs == rhs` (every root pair of a
// multi-pattern rule) under the rule's own condition, within a step budget (z3_limit.hpp).
//
// unsat of the negated goal = proved (pass). A model = the axioms do not imply the rule (which
// says the axiom set is incomplete or the rule wrong; numeric testing tells which), reported as
// unknown with "refuted by a model of the axioms"; a query beyond the budget is unknown too.
#pragma once

#include <vector>

#include "verify/check_result.hpp"
#include "verify/equation.hpp"
#include "verify/z3_limit.hpp"

namespace mctsat::verify {

struct AxiomCheckOptions {
  unsigned rlimit = kDefaultZ3Rlimit;  // Z3 steps (z3_limit.hpp)
};

CheckResult check_axioms(const Equation& goal, const std::vector<Equation>& axioms,
                         const AxiomCheckOptions& options);

}  // namespace mctsat::verify
