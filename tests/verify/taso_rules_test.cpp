// The verifier on the shipped TASO rules: a sample of rules and the axioms pass all checks that
// apply; proofs from the axioms succeed for rules that follow from them.
#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "tests/support/fixtures.hpp"
#include "verify/axiom_check.hpp"
#include "verify/numeric_check.hpp"
#include "verify/shape_check.hpp"

using namespace mctsat;
using namespace mctsat::verify;

namespace {

const dsl::RuleLibrary& taso() {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  return library;
}

Equation rule(const std::string& name) {
  for (const auto& r : taso().rules)
    if (r.name == name) return equation_of(r);
  FAIL("no rule " << name);
  return {};
}

std::vector<Equation> axioms() {
  std::vector<Equation> out;
  for (const auto& a : taso().axioms) out.push_back(equation_of(a));
  return out;
}

}  // namespace

TEST_CASE("TASO rules pass the shape and numeric checks") {
  for (const char* name : {"concat-02", "concat-07", "elementwise-01", "multi-01"}) {
    CAPTURE(name);
    const Equation e = rule(name);
    const CheckResult shape = check_shapes(e, {});
    CHECK_MESSAGE(shape.verdict == Verdict::kPass, shape.detail);
    const CheckResult numeric = check_numeric(e, {});
    CHECK_MESSAGE(numeric.verdict == Verdict::kPass, numeric.detail);
  }
}

TEST_CASE("axioms prove TASO rules") {
  const CheckResult proof = check_axioms(rule("concat-02"), axioms(), {});
  CHECK_MESSAGE(proof.verdict == Verdict::kPass, proof.detail);
}
