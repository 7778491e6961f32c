// The sample cache: a check through it gives the same result as without it; a second check of an
// equation with the same shape constraints (here a fused activation instead of none) selects no
// sample anew; equations with other constraints do not share samples.
#include <doctest/doctest.h>

#include "tests/verify/rule_equations.hpp"
#include "verify/numeric_check.hpp"
#include "verify/sample_cache.hpp"

using namespace mctsat;
using namespace mctsat::verify;
using mctsat::verify::testing::rule_equation;

namespace {

const char* const kStacked =
    "rule stacked: (concat 1 4 (conv2d 1 1 0 {} ?x ?y) (conv2d 1 1 0 {} ?x ?z))\n"
    "  => (conv2d 1 1 0 {} ?x (concat 0 4 ?y ?z))\n"
    "  where dim(?x, 1) == dim(?y, 1)";

std::string stacked(int activation) {
  std::string text = kStacked;
  for (std::size_t at; (at = text.find("{}")) != std::string::npos;)
    text.replace(at, 2, std::to_string(activation));
  return text;
}

}  // namespace

TEST_CASE("checks through the sample cache agree with checks without it and reuse its samples") {
  NumericCheckOptions options;
  options.samples = 6;
  const CheckResult alone = check_numeric(rule_equation(stacked(0)), options);
  REQUIRE(alone.verdict == Verdict::kPass);

  SampleCache cache;
  options.sample_cache = &cache;
  const CheckResult first = check_numeric(rule_equation(stacked(0)), options);
  CHECK(first.verdict == alone.verdict);
  CHECK(first.detail == alone.detail);
  CHECK(cache.hits() == 0);
  const std::size_t selections = cache.size();
  CHECK(selections == 6);

  // A fused relu changes no shape constraint: every sample comes from the cache.
  const CheckResult relu = check_numeric(rule_equation(stacked(2)), options);
  CHECK(relu.verdict == Verdict::kPass);
  CHECK(cache.hits() == selections);
  CHECK(cache.size() == selections);

  // Another seed or another condition is another problem.
  options.seed = 2;
  check_numeric(rule_equation(stacked(0)), options);
  CHECK(cache.hits() == selections);
  CHECK(cache.size() > selections);
}

TEST_CASE("the sample cache refutes what the check without it refutes") {
  const Equation grouped = rule_equation(
      "rule stacked: (concat 1 4 (conv2d 1 1 0 2 ?x ?y) (conv2d 1 1 0 2 ?x ?z))\n"
      "  => (conv2d 1 1 0 2 ?x (concat 0 4 ?y ?z))");
  NumericCheckOptions options;
  options.samples = 8;
  const CheckResult alone = check_numeric(grouped, options);
  SampleCache cache;
  options.sample_cache = &cache;
  const CheckResult first = check_numeric(grouped, options);
  const CheckResult again = check_numeric(grouped, options);
  CHECK(alone.verdict == Verdict::kFail);
  CHECK(first.detail == alone.detail);
  CHECK(again.detail == alone.detail);
  CHECK(cache.hits() > 0);
}
