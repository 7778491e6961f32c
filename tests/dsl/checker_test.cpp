// Checking rules against the operator catalog: sorts, arities, binding, conditions, TENSAT's
// split forms, and every diagnostic with its line and column.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "dsl/rule_library.hpp"

using namespace mctsat::dsl;

namespace {
struct Result {
  RuleLibrary library;
  Diagnostics diagnostics;
};

Result load(const std::string& text) {
  Result r;
  r.library = load_rule_text(text, "t.rules", r.diagnostics);
  return r;
}

// The single diagnostic a one-rule text produces.
Diagnostic only(const std::string& text) {
  const Result r = load(text);
  INFO(r.diagnostics.render());
  REQUIRE(r.diagnostics.all().size() == 1);
  return r.diagnostics.all()[0];
}
}  // namespace

TEST_CASE("a valid rule is resolved: operators, sorts, variables") {
  const Result r = load(R"(@tags(t1)
rule matmul-assoc:
  (matmul ?act (matmul 0 ?a ?b) ?c) => (matmul ?act ?a (matmul 0 ?b ?c))
  where ?act != 1 and rank(?a) == 2
)");
  INFO(r.diagnostics.render());
  REQUIRE(r.diagnostics.all().empty());
  REQUIRE(r.library.rules.size() == 1);
  const CheckedRule& rule = r.library.rules[0];
  CHECK(rule.ruleset == "t");  // the file stem, without a ruleset declaration
  CHECK(rule.tags == std::vector<std::string>{"t1"});
  REQUIRE(rule.vars.size() == 4);
  CHECK(rule.vars[0].name == "act");
  CHECK(rule.vars[0].sort == Sort::kInt);
  CHECK(rule.vars[1].sort == Sort::kTensor);
  const Pat& lhs = rule.lhs[0];
  CHECK(lhs.kind == Pat::Kind::kOp);
  CHECK(lhs.op == mctsat::tensor::Op::kMatmul);
  CHECK(lhs.args[1].args[0].kind == Pat::Kind::kInt);
  REQUIRE(rule.condition);
  CHECK(rule.condition->kind == Cond::Kind::kAnd);
  CHECK(rule.condition->operands[1].operands[0].kind == Cond::Kind::kRank);
}

TEST_CASE("<=> gives a rule and its reverse") {
  const Result r = load("rule comm: (ewadd ?x ?y) <=> (ewadd ?y ?x)\n");
  REQUIRE(r.library.rules.size() == 2);
  CHECK(r.library.rules[1].name == "comm-reverse");
  CHECK(r.library.rules[1].reversed);
  const Diagnostic d = only("rule lossy: (ewadd ?x ?_y) <=> (relu ?x)\n");
  CHECK(
      d.message ==
      "rule lossy uses '<=>' but its right-hand side does not bind every variable of its left-hand "
      "side (or cannot be matched)");
}

TEST_CASE("TENSAT's split forms: inferred sizes on right-hand roots, fresh sizes on the left") {
  const Result r = load(R"(rule share:
  (matmul 0 ?x ?w1), (matmul 0 ?x ?w2)
  => (split_0 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2)))),
     (split_1 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2))))
rule unsplit: (split_0 (split 1 (concat 1 2 ?a ?_b))) => ?a
rule explicit: (relu ?x) => (split_0 (split 0 [1, 1] ?x))
)");
  INFO(r.diagnostics.render());
  REQUIRE(r.diagnostics.all().empty());
  const CheckedRule& share = r.library.rules[0];
  CHECK(share.multi());
  CHECK(share.rhs[0].kind == Pat::Kind::kProj);
  CHECK(share.rhs[1].value == 1);
  CHECK(share.rhs[0].args[0].args[1].kind == Pat::Kind::kInferredSizes);
  const CheckedRule& unsplit = r.library.rules[1];
  CHECK(unsplit.lhs[0].args[0].args[1].kind == Pat::Kind::kVar);
  CHECK(unsplit.vars[unsplit.lhs[0].args[0].args[1].var].sort == Sort::kInts);
  CHECK(r.library.rules[2].rhs[0].args[0].args[1].kind == Pat::Kind::kInts);
}

TEST_CASE("every checker diagnostic, with its position") {
  auto check = [](const std::string& text, std::uint32_t line, std::uint32_t column,
                  const std::string& message) {
    const Diagnostic d = only(text);
    CHECK(d.where.line == line);
    CHECK(d.where.column == column);
    CHECK(d.message == message);
  };
  check("rule r: (frob ?x) => (relu ?x)\n", 1, 9, "unknown operator 'frob'");
  check("rule r: (matmul ?x ?y) => (relu ?y)\n", 1, 9, "matmul takes 3 arguments (act a b), got 2");
  check("rule r: (concat 0 2) => (concat 0 2)\n", 1, 9,
        "concat takes at least 3 arguments (axis ndim inputs...), got 2");
  check("rule r: (relu 0) => (relu 0)\n", 1, 15,
        "argument 1 of relu (x) must be a tensor, got an integer");
  check("rule r: (matmul (relu ?a) ?b ?c) => (relu ?b)\n", 1, 17,
        "argument 1 of matmul (act) must be an integer, got a relu term");
  check("rule r: (transpose ?x 1) => ?x\n", 1, 23,
        "argument 2 of transpose (perm) must be an integer list, got an integer");
  check("rule r: (concat 1.5 2 ?x ?y) => ?x\n", 1, 17,
        "argument 1 of concat (axis) must be an integer, got a real number");
  check("rule r: (relu ?x) => (relu ?y)\n", 1, 28,
        "?y on the right-hand side is not bound by the left-hand side");
  check("rule r: (ewadd ?x (matmul ?x ?a ?b)) => ?a\n", 1, 27,
        "?x is used as an integer here but as a tensor at 1:16");
  check("rule r: ?x => (relu ?x)\n", 1, 9,
        "a left-hand side that is a lone variable would match everything");
  check("rule r: (input [1]) => (input [1])\n", 1, 9, "'input' cannot appear in rules");
  check("rule r: (relu ?x), (tanh ?y) => (relu ?y)\n", 1, 1,
        "the rule has 2 left-hand sides but 1 right-hand side");
  check("rule r: (relu ?x) => (split 1 ?x)\n", 1, 22,
        "the right-hand side must be a tensor, got a split term");
  check("rule r: (relu ?x) => (relu (split_0 (split 1 ?x)))\n", 1, 37,
        "cannot infer the sizes of this split: give them, (split axis [s1, s2] x), or use it only "
        "as (split_0 ...), "
        "(split_1 ...) right-hand roots");
  check(
      "rule r: (relu ?x), (tanh ?y) => (split_1 (split 1 (concat 1 2 ?x ?y))), (split_1 (split 1 "
      "(concat 1 2 ?x "
      "?y)))\n",
      1, 33,
      "the right-hand roots must take outputs 0, 1, ... of a two-argument split exactly once each, "
      "so that its sizes "
      "follow from the left-hand sides");
  check("rule r: (split_0 ?x ?y) => ?x\n", 1, 9, "split_0 takes 1 argument (a split), got 2");
  check("rule r: (relu ?x) => (relu ?x) where ?x > 1\n", 1, 38,
        "?x is a tensor: conditions use integers (try rank(?x), dim(?x, i), numel(?x))");
  check("rule r: (relu ?x) => (relu ?x) where ?z > 1\n", 1, 38,
        "?z in the condition is not bound by the left-hand side");
  check("rule r: (relu ?x) => (relu ?x) where rank(?x) + 1\n", 1, 47,
        "expected a condition (a comparison, or conditions joined by and/or/not)");
  check("rule r: (relu ?x) => (relu ?x) where rank(?x) == (1 < 2)\n", 1, 53,
        "expected an integer expression, got a condition");
  check("rule r: (relu ?x) => (relu ?x) where dim(?x) == 1\n", 1, 38,
        "dim takes 2 arguments, got 1");
  check("rule r: (matmul ?a ?x ?y) => (matmul ?a ?x ?y) where rank(?a) == 1\n", 1, 59,
        "rank takes a tensor, but ?a is an integer");
  check("rule r: (ewadd ?x ?y) => (ewadd ?y ?x) where same_shape(?x) \n", 1, 46,
        "same_shape takes 2 arguments, got 1");
  check("rule r: (matmul ?a ?x ?y) => (matmul ?a ?y ?x) where same_shape(?x, ?a)\n", 1, 69,
        "same_shape takes a tensor, but ?a is an integer");
  check("rule r: (ewadd ?x ?y) => (ewadd ?y ?x) where same_shape(?x, ?y) + 1 == 2\n", 1, 46,
        "expected an integer expression, got a condition");
  check("axiom a: forall ?x. (ewadd ?x ?y) == (ewadd ?y ?x)\n", 1, 31,
        "?y is not declared in the axiom's forall");
}

TEST_CASE("an unused variable is a warning, and the rule is kept") {
  const Result r = load("rule r: (ewadd ?x ?y) => (relu ?x)\n");
  REQUIRE(r.diagnostics.all().size() == 1);
  CHECK(r.diagnostics.all()[0].severity == Diagnostic::Severity::kWarning);
  CHECK(r.diagnostics.all()[0].message == "?y is bound but never used");
  CHECK(r.diagnostics.all()[0].where.column == 19);
  CHECK(r.library.rules.size() == 1);
  CHECK_FALSE(r.diagnostics.has_errors());
}

TEST_CASE("a file with several errors reports them all and keeps the valid rules") {
  const Result r =
      load("rule a: (frob ?x) => ?x\nrule b: (relu ?x) => ?x\nrule c: (relu ?x) => ?y\n");
  CHECK(r.diagnostics.error_count() ==
        2);  // a's right-hand side is not checked after its left-hand error
  REQUIRE(r.library.rules.size() == 1);
  CHECK(r.library.rules[0].name == "b");
}

TEST_CASE("variables named ?_x may go unused without a warning") {
  const Result r = load("rule r: (ewadd ?x ?_y) => (relu ?x)\n");
  CHECK(r.diagnostics.all().empty());
}

TEST_CASE("a literal attribute outside the operator's range is an error on either side") {
  const Diagnostic rhs = only(R"(rule stride-zero:
  (conv2d 1 1 0 0 ?x ?w) => (conv2d 0 1 0 0 ?x ?w)
)");
  CHECK(rhs.message.rfind("argument 1 of conv2d (stride_h) must be from 1 to ", 0) == 0);
  CHECK(rhs.message.ends_with(", got 0"));
  CHECK(rhs.where.line == 2);
  const Diagnostic lhs = only(R"(rule act-five:
  (relu (matmul 5 ?a ?b)) => (matmul 2 ?a ?b)
)");
  CHECK(lhs.message == "argument 1 of matmul (act) must be from 0 to 3, got 5");
}

TEST_CASE("a rule has at most 16 left-hand sides") {
  // 10,000 sides made `verify` run for minutes and `optimize` join matches without bound.
  const auto sides = [](std::size_t n) {
    std::string lhs, rhs;
    for (std::size_t i = 0; i < n; ++i) {
      lhs += fmt::format("{}(relu ?x{})", i ? ", " : "", i);
      rhs += fmt::format("{}(relu ?x{})", i ? ", " : "", i);
    }
    return "rule many: " + lhs + " => " + rhs + "\n";
  };
  CHECK(load(sides(16)).library.rules.size() == 1);
  const Diagnostic d = only(sides(10000));
  CHECK(d.message ==
        "the rule has 10000 left-hand sides; a rule has at most 16 (the matches of "
        "all of them are joined)");
}
