// A rule's sketch names its operators nested three deep, without variables, literals or
// conditions; a variable side shows the variable, projections of one term show it once.
#include <doctest/doctest.h>

#include "dsl/rule_sketch.hpp"
#include "tests/support/fixtures.hpp"

namespace {

std::string sketch_of(const std::string& rule_text) {
  const auto library = test_fixtures::rule_library(rule_text);
  REQUIRE(library.rules.size() == 1);
  return mctsat::dsl::rule_sketch(library.rules.front());
}

}  // namespace

TEST_CASE("a rule's sketch shows its operators on both sides") {
  CHECK(sketch_of("rule r: (concat 1 2 (relu ?x1) (relu ?x2)) => (relu (concat 1 2 ?x1 ?x2))") ==
        "concat(relu, relu) -> relu(concat)");
  CHECK(sketch_of("rule r: (transpose (transpose ?x [1,0]) [1,0]) => ?x") ==
        "transpose(transpose) -> ?x");
  // Three deep, then "..".
  CHECK(sketch_of("rule r: (relu (relu (relu (relu ?x)))) => (relu (relu ?x))") ==
        "relu(relu(relu(..))) -> relu(relu)");
  // TASO's multi-05: the two projections of one split show it once.
  CHECK(sketch_of("rule r: (matmul 0 ?x1 ?x4), (matmul 0 ?x1 ?x5)\n"
                  "  => (split_0 (split 1 (matmul 0 ?x1 (concat 1 2 ?x4 ?x5)))),\n"
                  "     (split_1 (split 1 (matmul 0 ?x1 (concat 1 2 ?x4 ?x5))))") ==
        "matmul, matmul -> split(matmul(concat))");
}
