// Hostile rule text that once crashed mctsat or broke the print/parse round trip, found with the
// rule-file fuzz target (tests/dsl/fuzz/rule_parser_fuzzer.cpp): deep nesting (a stack overflow),
// real numbers out of range (printed as `inf`, which does not parse), `not` over arithmetic
// (printed without its parentheses), and condition arithmetic that overflows (INT64_MIN / -1
// traps).
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "dsl/lowering.hpp"
#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph_builder.hpp"

using namespace mctsat;
using namespace mctsat::dsl;
using namespace mctsat::tensor;

namespace {

constexpr const char* kRule = "rule a: (relu ?x) => (relu ?x) where ";  // 37 characters
const std::string kTooDeep = "nested too deeply (more than 256 levels)";

std::string repeat(const std::string& text, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += text;
  return out;
}

// Parsing `text` gives exactly one error, at line 1 and `column`; loading it (which checks what
// parsed) reports that error first.
void expect_one_error(const std::string& text, std::uint32_t column, const std::string& message) {
  Diagnostics parsed;
  parse_rule_text(text, "t.rules", parsed);
  REQUIRE(parsed.all().size() == 1);
  CHECK(parsed.all()[0].where.line == 1);
  CHECK(parsed.all()[0].where.column == column);
  CHECK(parsed.all()[0].message == message);
  Diagnostics loaded;
  load_rule_text(text, "t.rules", loaded);
  REQUIRE(loaded.has_errors());
  CHECK(loaded.all()[0].message == message);
}

std::string round_trip(const std::string& text) {
  Diagnostics diagnostics;
  const RuleFile file = parse_rule_text(text, "t.rules", diagnostics);
  INFO(diagnostics.render());
  REQUIRE_FALSE(diagnostics.has_errors());
  return format_rule_file(file);
}

}  // namespace

TEST_CASE("nesting deeper than 256 levels is an error, not a stack overflow") {
  // The error is at the 257th nested construct. Each case crashed `mctsat rules check`.
  const std::size_t n = 100000;
  expect_one_error(kRule + repeat("(", n) + "1" + repeat(")", n), 37 + 257, kTooDeep);
  expect_one_error(kRule + repeat("-", n) + "1 == 1", 37 + 257, kTooDeep);
  expect_one_error(kRule + repeat("not ", n) + "1 == 1", 37 + 256 * 4 + 1, kTooDeep);
  expect_one_error(kRule + repeat("rank(", n) + "?x" + repeat(")", n), 37 + 256 * 5 + 1, kTooDeep);
  expect_one_error("rule a: " + repeat("(relu ", n) + "?x" + repeat(")", n) + " => ?x", 9 + 256 * 6,
                   kTooDeep);
  // An operator chain is flat in the grammar but nests to the left in the tree: a tree may be
  // 1024 levels deep, so the error is at the 1024th operator.
  const std::string chain = std::string(kRule) + "1" + repeat(" + 1", n) + " == 1";
  expect_one_error(chain, 37 + 1 + 1023 * 4 + 2, "nested too deeply (more than 1024 levels)");

  Diagnostics term;
  CHECK_FALSE(parse_term_text(repeat("(relu ", n) + "?x" + repeat(")", n), "x.txt", 3, term));
  REQUIRE(term.all().size() == 1);
  CHECK(term.all()[0].message == kTooDeep);
}

TEST_CASE("nesting up to the limit parses and round-trips") {
  const std::string deep_term = repeat("(relu ", 255) + "?x" + repeat(")", 255);
  const std::string chain = "1" + repeat(" + 1", 200) + " == " + repeat("-", 200) + "1";
  const std::string text = "rule deep: " + deep_term + " => (relu ?x) where " + chain + " and " +
                           repeat("(", 250) + "rank(?x) > 0" + repeat(")", 250) + "\n";
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_text(text, "t.rules", diagnostics);
  INFO(diagnostics.render());
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(library.rules.size() == 1);
  const std::string printed = round_trip(text);
  CHECK(round_trip(printed) == printed);
}

TEST_CASE("a flat condition of 300 and terms loads, lowers and round-trips") {
  // Refused as "nested too deeply" when a chain counted as nesting (issue 38).
  const std::string text = "rule flat: (relu ?x) => (relu ?x) where rank(?x) > 0" +
                           repeat(" and rank(?x) > 0", 299) + "\n";
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_text(text, "t.rules", diagnostics);
  INFO(diagnostics.render());
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(library.rules.size() == 1);
  const std::string printed = round_trip(text);
  CHECK(round_trip(printed) == printed);
}

TEST_CASE("a real number out of range is an error") {
  expect_one_error("rule a: (relu ?x) => (clip 1e999 6 ?x)", 28, "number 1e999 is out of range");
  // Underflow to zero is not an error and prints as a number that parses.
  CHECK(round_trip("rule a: (relu ?x) => (clip 1e-999 6 ?x)") ==
        "rule a:\n  (relu ?x)\n  => (clip 0.0 6 ?x)\n");
}

TEST_CASE("not keeps the parentheses around an operand that binds less tightly") {
  // `not` binds as tightly as unary minus, so (not ?a) + 1 and not (?a + 1) differ.
  const std::string text =
      "rule a: (relu ?x) => (relu ?x) where not (rank(?x) + 1) == (not ?y) + 1";
  Diagnostics diagnostics;
  const RuleFile file = parse_rule_text(text, "t.rules", diagnostics);
  REQUIRE(file.rules.size() == 1);
  REQUIRE(file.rules[0].condition);
  const Expr& condition = *file.rules[0].condition;
  REQUIRE(condition.operands.size() == 2);
  CHECK(condition.operands[0].kind == Expr::Kind::kNot);
  CHECK(condition.operands[1].kind == Expr::Kind::kBinary);
  CHECK(format_expr(condition) == "not (rank(?x) + 1) == not ?y + 1");
  CHECK(format_expr(condition.operands[1]) == "not ?y + 1");
  CHECK(round_trip(text) == round_trip(round_trip(text)));
}

TEST_CASE("condition arithmetic that overflows fails the condition instead of trapping") {
  // Wrapped around, the last three would hold; the first trapped (SIGFPE) at match time.
  const char* overflowing[] = {
      "(-9223372036854775807 - 1) / -1 == 0", "(-9223372036854775807 - 1) % -1 == 0",
      "9223372036854775807 + rank(?x) < 0", "-(-9223372036854775807 - 1) < 0",
      "4611686018427387904 * rank(?x) < 0"};
  for (const char* condition : overflowing) {
    CAPTURE(condition);
    Diagnostics diagnostics;
    RuleLibrary library =
        load_rule_text(fmt::format("rule r: (relu ?x) => (relu (relu ?x)) where {}\n", condition),
                       "t.rules", diagnostics);
    REQUIRE_FALSE(diagnostics.has_errors());
    const RuleSet rules(std::move(library.rules));
    GraphBuilder b;
    b.output("y", b.relu(b.input("x", {4, 8})));
    TensorEGraph teg = to_egraph(std::move(b).finish());
    const egraph::Matches matches = rules.rewrite(0).search(teg.egraph);
    REQUIRE(matches.size() == 1);
    const egraph::ApplyStats stats = rules.rewrite(0).apply(teg.egraph, matches);
    CHECK(stats.rejected == 1);
    CHECK(stats.applied == 0);
  }
}
