// Verifier options for callers that need less than every check: `numeric_only` runs the numeric
// test alone (a rule whose shapes were checked before), `skip_numeric_after_shape_failure` leaves
// out the numeric test of a rule the shape check already refutes, `shape.notes` off leaves out the
// shape check's note (an example where the right-hand side is ill-formed); the verdicts stay the
// same.
#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "tests/verify/rule_equations.hpp"
#include "verify/verifier.hpp"

using namespace mctsat;
using namespace mctsat::verify;

TEST_CASE("verifier options leave out checks without changing verdicts") {
  // A concat of two tensors is not one of them: the shapes differ.
  const dsl::RuleLibrary library = testing::rule_library(R"(
    rule concat-dropped: (concat 0 2 ?x ?x) => ?x
    rule relu-twice: (relu (relu ?x)) => (relu ?x)
  )");
  VerifyOptions options;
  options.jobs = 2;
  const auto full = verify_library(library, library.rules, {}, options);
  REQUIRE(full.size() == 2);
  CHECK(full[0].shape.verdict == Verdict::kFail);
  CHECK(full[0].numeric.verdict != Verdict::kSkipped);  // it ran (no sample has equal shapes)
  CHECK_FALSE(full[1].failed());

  options.skip_numeric_after_shape_failure = true;
  const auto skipping = verify_library(library, library.rules, {}, options);
  CHECK(skipping[0].failed());
  CHECK(skipping[0].numeric.verdict == Verdict::kSkipped);
  CHECK(skipping[1].numeric.verdict == Verdict::kPass);

  options.skip_numeric_after_shape_failure = false;
  options.numeric_only = true;
  const auto numeric = verify_library(library, library.rules, {}, options);
  CHECK(numeric[0].shape.verdict == Verdict::kSkipped);
  CHECK(numeric[0].failed());  // the numeric test alone does not verify it
  CHECK(numeric[1].shape.verdict == Verdict::kSkipped);
  CHECK_FALSE(numeric[1].failed());
}

TEST_CASE("without shape notes the shape check gives the same verdict, without the example") {
  // ?b: [1, n] broadcast with ?c: [k, n]: the left side is well-formed, (matmul ?a ?b) is not.
  const dsl::RuleLibrary library = testing::rule_library(
      "rule distribute: (matmul 0 ?a (ewadd ?b ?c)) => (ewadd (matmul 0 ?a ?b) (matmul 0 ?a ?c))");
  VerifyOptions options;
  options.jobs = 1;
  const auto noted = verify_library(library, library.rules, {}, options);
  CHECK(noted.at(0).shape.verdict == Verdict::kPass);
  CHECK_MESSAGE(noted.at(0).shape.detail.find("note: the right-hand side is ill-formed") !=
                    std::string::npos,
                noted.at(0).shape.detail);
  options.shape.notes = false;
  const auto plain = verify_library(library, library.rules, {}, options);
  CHECK(plain.at(0).shape.verdict == Verdict::kPass);
  CHECK(plain.at(0).shape.detail.find("note") == std::string::npos);
  CHECK(plain.at(0).numeric.verdict == noted.at(0).numeric.verdict);
}
