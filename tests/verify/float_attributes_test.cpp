// Float attributes in proofs: a rule whose attribute is written with an exponent in its shortest
// decimal form (1e-05) reaches Z3 as an exact rational. Z3 takes no exponent in a numeral and
// stopped the whole program with a floating-point exception on such a rule.
#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "tests/verify/rule_equations.hpp"
#include "verify/verifier.hpp"

using namespace mctsat;
using namespace mctsat::verify;

TEST_CASE("float attributes of any size reach the proof, which runs to a verdict") {
  const dsl::RuleLibrary library = testing::rule_library(R"(
    axiom ewadd-comm: forall ?x ?y. (ewadd ?x ?y) == (ewadd ?y ?x)
    rule clip-tiny: (clip 0.00001 6 (ewadd ?x ?y)) => (clip 0.00001 6 (ewadd ?y ?x))
    rule clip-huge: (clip -1e30 1e30 (ewadd ?x ?y)) => (clip -1e30 1e30 (ewadd ?y ?x))
    rule layernorm-eps: (layernorm 0.000001 (ewadd ?x ?y) ?g ?b) => (layernorm 0.000001 (ewadd ?y ?x) ?g ?b)
    rule clip-bounds-differ: (clip 0.00001 6 ?x) => (clip 0.00002 6 ?x)
  )");
  VerifyOptions options;
  options.jobs = 1;
  const auto reports = verify_library(library, library.rules, library.axioms, options);
  REQUIRE(reports.size() == 5);
  for (const EquationReport& report : reports) {
    CAPTURE(report.name);
    CAPTURE(report.proof.detail);
    if (report.axiom) continue;
    if (report.name == "clip-bounds-differ")  // different bounds: a model of the axioms refutes it
      CHECK(report.proof.verdict == Verdict::kUnknown);
    else
      CHECK(report.proof.verdict == Verdict::kPass);
  }
}
