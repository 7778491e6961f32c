// Merge rules read off concat rules: a concat of two different graphs that share a variable or
// apply the same operator, equal to one graph, becomes a two-output rule with TENSAT-style splits
// that checks and verifies; concats of one graph twice, of different operators sharing nothing,
// and concat on both sides give none.
#include <doctest/doctest.h>

#include "synth/merge_rules.hpp"
#include "tests/support/fixtures.hpp"
#include "verify/numeric_check.hpp"
#include "verify/shape_check.hpp"

using namespace mctsat;
using namespace mctsat::verify;
using namespace mctsat::synth;

namespace {

WrittenRule rule(std::string name, std::string lhs, std::string rhs) {
  WrittenRule r;
  r.name = std::move(name);
  r.lhs = std::move(lhs);
  r.rhs = std::move(rhs);
  return r;
}

}  // namespace

TEST_CASE("a concat of two products of one input merges into one product and a split") {
  const auto merges = merge_candidates({
      rule("r1", "(concat 1 2 (matmul 0 ?x ?y) (matmul 0 ?x ?z))",
           "(matmul 0 ?x (concat 1 2 ?y ?z))"),
      rule("r2", "(matmul 0 (concat 0 2 ?x ?z) ?y)",
           "(concat 0 2 (matmul 0 ?x ?y) (matmul 0 ?z ?y))"),
      rule("same", "(concat 0 2 (relu ?x) (relu ?x))", "(relu (concat 0 2 ?x ?x))"),
      rule("apart", "(concat 0 2 (relu ?x) (relu ?y))", "(relu (concat 0 2 ?x ?y))"),
      rule("both", "(concat 0 2 (concat 1 2 ?x ?y) ?z)", "(concat 1 2 (concat 0 2 ?x ?z) ?y)"),
      rule("unrelated", "(concat 0 2 (relu ?x) (tanh ?y))", "(relu (concat 0 2 ?x ?y))"),
      rule("attributes", "(concat 0 2 (matmul 0 ?x ?y) (matmul 2 ?z ?u))",
           "(matmul 0 (concat 0 2 ?x ?z) (concat 0 2 ?y ?u))"),
  });
  REQUIRE(merges.size() == 3);
  CHECK(merges[0].name == "r1-merge");
  CHECK(merges[0].lhs == "(matmul 0 ?x ?y), (matmul 0 ?x ?z)");
  CHECK(merges[0].rhs ==
        "(split_0 (split 1 (matmul 0 ?x (concat 1 2 ?y ?z)))), "
        "(split_1 (split 1 (matmul 0 ?x (concat 1 2 ?y ?z))))");
  CHECK(merges[1].name == "r2-merge");  // the concat on the right-hand side
  CHECK(merges[1].lhs == "(matmul 0 ?x ?y), (matmul 0 ?z ?y)");
  CHECK(merges[2].name == "apart-merge");  // TASO's `(relu ?x), (relu ?y)` kind
  CHECK(merges[2].lhs == "(relu ?x), (relu ?y)");

  std::string text;
  for (const auto& m : merges) text += rule_text(m, true);
  const auto library = test_fixtures::rule_library(text, "<merges>");
  REQUIRE(library.rules.size() == 3);
  for (const auto& r : library.rules) {
    CHECK(r.multi());
    const Equation e = equation_of(r);
    CHECK(check_shapes(e, {}).verdict == Verdict::kPass);
    CHECK(check_numeric(e, {}).verdict == Verdict::kPass);
  }
}
