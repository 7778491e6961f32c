// Structural failures of symbolic equations: an assignment StructuralFailures excludes (from the
// failures seen so far) is one whose left-hand side is indeed ill-formed, and most of a
// convolution rule's rank combinations are excluded without building them.
#include <doctest/doctest.h>

#include "tests/verify/rule_equations.hpp"
#include "verify/symbolic_equation.hpp"

using namespace mctsat;
using namespace mctsat::verify;

TEST_CASE("structural failures exclude only assignments whose left-hand side fails") {
  for (const char* text : {
           "rule r: (ewadd (conv2d 1 1 0 0 ?x ?w) ?y) => (ewadd ?y (conv2d 1 1 0 0 ?x ?w))",
           "rule r: (ewadd (concat 0 2 ?x (relu ?y)) ?z) => (ewadd ?z (concat 0 2 ?x (relu ?y)))",
           "rule r: (ewadd (matmul 0 ?x (transpose ?y [1, 0])) ?z) => (ewadd ?z (transpose "
           "(matmul 0 ?y (transpose ?x [1, 0])) [1, 0]))",
       }) {
    CAPTURE(text);
    const Equation e = testing::rule_equation(text);
    bool truncated = false;
    const auto assignments = enumerate_sizes(e, 4, 4096, truncated);
    z3::context z3;
    StructuralFailures failures;
    std::size_t excluded = 0, well_formed = 0;
    for (const auto& sizes : assignments) {
      const SymbolicEquation symbolic(z3, e, sizes);
      const bool fails = !symbolic.lhs_error.empty();
      if (failures.excludes(sizes)) {
        ++excluded;
        CHECK(fails);
        continue;
      }
      if (fails)
        failures.add(symbolic);
      else
        ++well_formed;
    }
    CHECK(well_formed > 0);
    CHECK(excluded > 0);
  }
  // A convolution needs rank 4: the 15 failures of (conv2d ?x ?w) at other ranks rule out 60 of
  // the 64 rank combinations.
  const Equation conv = testing::rule_equation(
      "rule r: (ewadd (conv2d 1 1 0 0 ?x ?w) ?y) => (ewadd ?y (conv2d 1 1 0 0 ?x ?w))");
  bool truncated = false;
  z3::context z3;
  StructuralFailures failures;
  std::size_t built = 0;
  for (const auto& sizes : enumerate_sizes(conv, 4, 4096, truncated)) {
    if (failures.excludes(sizes)) continue;
    ++built;
    const SymbolicEquation symbolic(z3, conv, sizes);
    if (!symbolic.lhs_error.empty()) failures.add(symbolic);
  }
  CHECK(built <= 16 + 4);
}
