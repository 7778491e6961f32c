// The rule-file grammar: every syntax form, and syntax errors with their line and column, several
// per file.
#include <doctest/doctest.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"

using namespace mctsat::dsl;

namespace {
RuleFile parse(const std::string& text, Diagnostics& diagnostics) {
  return parse_rule_text(text, "t.rules", diagnostics);
}

RuleFile parse_ok(const std::string& text) {
  Diagnostics diagnostics;
  RuleFile file = parse(text, diagnostics);
  INFO(diagnostics.render());
  REQUIRE(diagnostics.all().empty());
  return file;
}
}  // namespace

TEST_CASE("every syntax form parses") {
  const RuleFile file = parse_ok(R"(# a comment
ruleset taso
include "conv.rules"

@tags(matmul, assoc)
@tags(extra)
rule matmul-assoc:
  (matmul ?act (matmul 0 ?a ?b) ?c) => (matmul ?act ?a (matmul 0 ?b ?c))

rule ewadd-comm: (ewadd ?x ?y) <=> (ewadd ?y ?x)   # both directions

rule share:
  (matmul 0 ?x ?w1), (matmul 0 ?x ?w2)
  => (split_0 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2)))),
     (split_1 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2))))
  where rank(?w1) == 2 and dim(?w1, 0) == dim(?w2, 0) or not numel(?x) % 2 != -1

rule literals: (transpose ?x [1, 0, 2]) => (clip -0.5 6.0 (transpose ?x []))

axiom ewadd-assoc: forall ?x ?y ?z.
  (ewadd ?x (ewadd ?y ?z)) == (ewadd (ewadd ?x ?y) ?z)
axiom plain: (relu ?x) == (relu ?x) where rank(?x) >= 1
)");
  CHECK(file.ruleset == "taso");
  REQUIRE(file.includes.size() == 1);
  CHECK(file.includes[0].path == "conv.rules");
  CHECK(file.includes[0].where.line == 3);
  REQUIRE(file.rules.size() == 4);
  const RuleDecl& assoc = file.rules[0];
  CHECK(assoc.name == "matmul-assoc");
  CHECK(assoc.tags == std::vector<std::string>{"matmul", "assoc", "extra"});
  CHECK(assoc.where.line == 7);
  CHECK(assoc.where.column == 1);
  REQUIRE(assoc.lhs.size() == 1);
  CHECK(assoc.lhs[0].kind == Term::Kind::kApply);
  CHECK(assoc.lhs[0].name == "matmul");
  CHECK(assoc.lhs[0].args[0].kind == Term::Kind::kVar);
  CHECK(assoc.lhs[0].args[0].name == "act");
  CHECK(assoc.lhs[0].args[1].args[0].kind == Term::Kind::kInt);
  CHECK_FALSE(assoc.bidirectional);
  CHECK(file.rules[1].bidirectional);
  CHECK(file.rules[1].tags.empty());

  const RuleDecl& share = file.rules[2];
  CHECK(share.lhs.size() == 2);
  CHECK(share.rhs.size() == 2);
  REQUIRE(share.condition);
  CHECK(format_expr(*share.condition) ==
        "rank(?w1) == 2 and dim(?w1, 0) == dim(?w2, 0) or not numel(?x) % 2 != -1");
  CHECK(share.condition->name == "or");

  const Term& clip = file.rules[3].rhs[0];
  CHECK(clip.args[0].kind == Term::Kind::kFloat);
  CHECK(clip.args[0].float_value == -0.5);
  CHECK(clip.args[1].float_value == 6.0);
  CHECK(file.rules[3].lhs[0].args[1].list == std::vector<std::int64_t>{1, 0, 2});
  CHECK(clip.args[2].args[1].list.empty());

  REQUIRE(file.axioms.size() == 2);
  CHECK(file.axioms[0].forall == std::vector<std::string>{"x", "y", "z"});
  CHECK(file.axioms[0].lhs.name == "ewadd");
  CHECK(file.axioms[1].forall.empty());
  CHECK(file.axioms[1].condition);
  CHECK(file.items.size() == 8);
  CHECK(file.items[0].comments == std::vector<std::string>{"# a comment"});
}

TEST_CASE("syntax errors are reported with line and column, and parsing resumes") {
  Diagnostics diagnostics;
  const RuleFile file = parse(R"(rule ok1: (relu ?x) => ?x
rule bad1: (ewadd ?x ?y => (ewadd ?y ?x)
rule ok2: (tanh ?x) => ?x
rule bad2 (relu ?x) => ?x
rule bad3: (relu ?x) -> ?x
rule bad4: (relu ? x) => ?x
rule bad5: (relu ?x) => ?x where
rule bad6: (relu ?x) => ?x where rank(?x) ==
axiom bad7: (relu ?x) = ?x
rule bad8: (transpose ?x [1 0]) => ?x
garbage here
rule ok3: (sigmoid ?x) => ?x
)",
                              diagnostics);
  CHECK(file.rules.size() == 3);
  const auto& all = diagnostics.all();
  REQUIRE(all.size() == 8);  // the garbage line is skipped while recovering from bad8
  auto at = [&](std::size_t i, std::uint32_t line, std::uint32_t column,
                const std::string& message) {
    CAPTURE(i);
    CHECK(all[i].where.line == line);
    CHECK(all[i].where.column == column);
    CHECK(all[i].message == message);
  };
  at(0, 2, 25, "expected ')'");
  at(1, 4, 11, "expected ':' after the name");
  at(2, 5, 22, "expected '=>' or '<=>' after the left-hand side");
  at(3, 6, 19, "expected a variable name after '?'");
  at(4, 8, 1, "expected a condition");
  at(5, 9, 1, "expected an operand");
  at(6, 9, 23, "expected '==' between the sides of an axiom");
  at(7, 10, 29, "expected ']' or ', <integer>'");
  CHECK(diagnostics.render().find(
            "t.rules:2:25: error: expected ')'\n  rule bad1: (ewadd ?x ?y => (ewadd ?y ?x)\n"
            "                          ^\n") != std::string::npos);
}

TEST_CASE("text that starts no item is an error") {
  Diagnostics diagnostics;
  const RuleFile file =
      parse("rule a: (relu ?x) => ?x\n  garbage here\nrule b: (tanh ?x) => ?x\n", diagnostics);
  CHECK(file.rules.size() == 2);
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].where.line == 2);
  CHECK(diagnostics.all()[0].where.column == 3);
  CHECK(diagnostics.all()[0].message ==
        "expected 'rule', 'axiom', 'ruleset', 'include', '@tags' or '@verified'");
}

TEST_CASE("an integer out of range is an error, not a crash") {
  Diagnostics diagnostics;
  parse("rule big: (relu ?x) => (concat 99999999999999999999 2 ?x ?x)\n", diagnostics);
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].message == "integer 99999999999999999999 is out of range");
}

TEST_CASE("parse_term_text reads one term") {
  Diagnostics diagnostics;
  const auto term = parse_term_text("(matmul 0 ?input_1 ?input_4)", "x.txt", 7, diagnostics);
  REQUIRE(term);
  CHECK(format_term(*term) == "(matmul 0 ?input_1 ?input_4)");
  CHECK_FALSE(parse_term_text("(relu ?x) extra", "x.txt", 3, diagnostics));
  REQUIRE(diagnostics.all().size() == 1);
  CHECK(diagnostics.all()[0].where.line == 3);
}
