// The numeric check's separating samples: kernel-stacking rules that hold only for ungrouped
// convolutions (input channels equal to the kernels' in-channels) — which Z3's first models
// favour — are refuted with 8 samples by a counterexample with grouped shapes; the same rule with
// the ungrouped condition stays verified, and the verdict is the same on every run of one seed.
// Grouping two convolutions into one grouped convolution is refuted when their group counts may
// differ, although that needs output channels (a multiple of both counts) beyond --max-dim 5.
// A counterexample names every input's values (the first ones of a large input).
#include <doctest/doctest.h>

#include <regex>

#include "tests/verify/rule_equations.hpp"
#include "verify/numeric_check.hpp"

using namespace mctsat;
using namespace mctsat::verify;
using mctsat::verify::testing::rule_equation;

namespace {

// Dimension `axis` of variable `var` in a counterexample ("?x: [2, 4, 2, 2], ?y: [...]").
long dim_in(const std::string& detail, const std::string& var, std::size_t axis) {
  std::smatch match;
  const std::regex shape("\\?" + var + ": \\[([0-9, ]+)\\]");
  REQUIRE_MESSAGE(std::regex_search(detail, match, shape), detail);
  std::string dims = match[1];
  for (std::size_t a = 0; a < axis; ++a) dims = dims.substr(dims.find(',') + 1);
  return std::stol(dims);
}

NumericCheckOptions eight_samples() {
  NumericCheckOptions options;
  options.samples = 8;
  return options;
}

}  // namespace

TEST_CASE("kernel stacking unsound for grouped convolutions is refuted with 8 samples") {
  // synthesized-convpairs-1-020 of the 2026-12-02 study and two siblings it rejected only with
  // 80 samples (stride 2 with SAME padding; the second kernel enlarged to the first's size).
  for (const char* rule : {
           "rule stacked: (concat 1 4 (conv2d 1 1 0 2 ?x ?y) (conv2d 1 1 0 2 ?x ?z))\n"
           "  => (conv2d 1 1 0 2 ?x (concat 0 4 ?y ?z))",
           "rule stacked: (concat 1 4 (conv2d 2 2 1 2 ?x ?y) (conv2d 2 2 1 2 ?x ?z))\n"
           "  => (conv2d 2 2 1 2 ?x (concat 0 4 ?y ?z))",
           "rule stacked: (concat 1 4 (conv2d 1 1 0 0 ?x ?y) (conv2d 1 1 0 0 ?x ?z))\n"
           "  => (conv2d 1 1 0 0 ?x (concat 0 4 ?y (enlarge ?z ?y)))",
       }) {
    CAPTURE(rule);
    const CheckResult result = check_numeric(rule_equation(rule), eight_samples());
    CAPTURE(result.detail);
    REQUIRE(result.verdict == Verdict::kFail);
    // Grouped: the input has more channels than the kernels.
    CHECK(dim_in(result.detail, "x", 1) > dim_in(result.detail, "y", 1));
    CHECK(dim_in(result.detail, "x", 1) % dim_in(result.detail, "y", 1) == 0);
    // The same on another run with the same seed.
    CHECK(check_numeric(rule_equation(rule), eight_samples()).detail == result.detail);
  }
}

TEST_CASE("kernel stacking of ungrouped convolutions stays verified") {
  const CheckResult result = check_numeric(
      rule_equation("rule stacked: (concat 1 4 (conv2d 1 1 0 2 ?x ?y) (conv2d 1 1 0 2 ?x ?z))\n"
                    "  => (conv2d 1 1 0 2 ?x (concat 0 4 ?y ?z))\n"
                    "  where dim(?x, 1) == dim(?y, 1)"),
      eight_samples());
  CHECK_MESSAGE(result.verdict == Verdict::kPass, result.detail);
  CHECK(result.detail.find("8 assignments") != std::string::npos);
}

TEST_CASE("grouping convolutions with different group counts is refuted beyond the usual bound") {
  // synthesized-convpairs-1-037 of the 2026-12-02 study's regenerated file: the kernels have
  // equal shapes, but x and z may have different channel counts (group counts 2 and 1 need
  // output channels a multiple of 6).
  const std::string grouping =
      "rule grouping: (concat 1 4 (conv2d 1 1 0 0 ?x ?y) (conv2d 1 1 0 0 ?z ?u))\n"
      "  => (conv2d 1 1 0 0 (concat 1 4 ?x ?z) (concat 0 4 ?y ?u))\n";
  const CheckResult result =
      check_numeric(rule_equation(grouping + "  where same_shape(?u, ?y)"), eight_samples());
  CAPTURE(result.detail);
  REQUIRE(result.verdict == Verdict::kFail);
  CHECK(dim_in(result.detail, "x", 1) != dim_in(result.detail, "z", 1));
  CHECK(dim_in(result.detail, "y", 0) > 5);
  // TASO's condition (concat-22): both ungrouped, equal filter counts.
  const CheckResult taso = check_numeric(
      rule_equation(grouping +
                    "  where dim(?x, 1) == dim(?y, 1) and dim(?z, 1) == dim(?u, 1) and dim(?y, 0) "
                    "== dim(?u, 0)"),
      eight_samples());
  CHECK_MESSAGE(taso.verdict == Verdict::kPass, taso.detail);
}

TEST_CASE("a counterexample shows every input: small ones whole, large ones by their first values") {
  const CheckResult result =
      check_numeric(rule_equation("rule bad: (ewadd ?x ?y) => (ewmul ?x ?y)\n"
                                  "  where rank(?x) == 2 and dim(?x, 0) == 4 and dim(?x, 1) == 4 "
                                  "and rank(?y) == 1 and dim(?y, 0) == 4"),
                    eight_samples());
  CAPTURE(result.detail);
  REQUIRE(result.verdict == Verdict::kFail);
  CHECK(std::regex_search(result.detail,
                          std::regex(R"(; inputs \?x = (-?[0-9]+, ){12}\.\.\. \(16 values\); \?y = \[)")));
}
