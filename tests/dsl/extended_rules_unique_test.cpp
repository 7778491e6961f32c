// Every directed rule of rules/extended is declared once: no two of them (the two directions of a
// `<=>` rule included) rewrite the same left-hand sides into the same right-hand sides under the
// same condition, up to the names of their variables. The files were synthesized separately, so
// they once shared rules, and a `<=>` rule whose two sides differ only by variable names (e.g.
// commutativity) declared one rule twice.
#include <functional>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dsl/pattern_text.hpp"
#include "dsl/rule_library.hpp"

using namespace mctsat::dsl;

namespace {

using VarName = std::function<std::string(VarIndex)>;

// A condition as text (kinds and operands in order), variables named by `var`.
std::string condition_text(const Cond& c, const VarName& var) {
  std::string text =
      "(" + std::to_string(static_cast<int>(c.kind)) + c.op + " " + std::to_string(c.value);
  if (c.kind == Cond::Kind::kVar || c.kind == Cond::Kind::kRank || c.kind == Cond::Kind::kDim ||
      c.kind == Cond::Kind::kNumel || c.kind == Cond::Kind::kSameShape)
    text += " " + var(c.var);
  if (c.kind == Cond::Kind::kSameShape) text += " " + var(c.other);
  for (const Cond& operand : c.operands) text += " " + condition_text(operand, var);
  return text + ")";
}

// The rule as text, variables numbered by their first appearance (left-hand sides first).
std::string rewrite_text(const CheckedRule& rule) {
  std::map<VarIndex, std::size_t> number;
  const VarName var = [&](VarIndex v) {
    return "?" + std::to_string(number.try_emplace(v, number.size()).first->second);
  };
  std::string text;
  for (const Pat& lhs : rule.lhs) text += pattern_text(lhs, var) + ", ";
  text += "=> ";
  for (const Pat& rhs : rule.rhs) text += pattern_text(rhs, var) + ", ";
  if (rule.condition) text += "where " + condition_text(*rule.condition, var);
  return text;
}

}  // namespace

TEST_CASE("the rule text names variables by their first appearance") {
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_text(
      "rule a: (ewadd ?x ?y) => (ewadd ?y ?x)\nrule b: (ewadd ?q ?p) => (ewadd ?p ?q)\n"
      "rule c: (ewadd ?x ?y) => (ewadd ?x ?y)\n"
      "rule d: (ewadd ?x ?y) => (ewadd ?y ?x) where dim(?x, 0) == 2\n"
      "rule e: (ewadd ?q ?p) => (ewadd ?p ?q) where dim(?q, 0) == 2\n"
      "rule f: (ewadd ?q ?p) => (ewadd ?p ?q) where dim(?p, 0) == 2\n",
      "t.rules", diagnostics);
  REQUIRE(diagnostics.all().empty());
  REQUIRE(library.rules.size() == 6);
  CHECK(rewrite_text(library.rules[0]) == rewrite_text(library.rules[1]));
  CHECK(rewrite_text(library.rules[0]) != rewrite_text(library.rules[2]));
  CHECK(rewrite_text(library.rules[0]) != rewrite_text(library.rules[3]));
  CHECK(rewrite_text(library.rules[3]) == rewrite_text(library.rules[4]));
  CHECK(rewrite_text(library.rules[3]) != rewrite_text(library.rules[5]));
}

TEST_CASE("every directed rule of rules/extended is declared once") {
  const RuleLibrary library =
      load_rules_or_throw({std::string(MCTSAT_SOURCE_DIR) + "/rules/extended"});
  REQUIRE(library.rules.size() > 100);
  std::map<std::string, std::string> first;  // by rewrite text: the first rule's name
  for (const CheckedRule& rule : library.rules) {
    const auto [it, fresh] = first.try_emplace(rewrite_text(rule), rule.name);
    INFO(rule.name, " at ", rule.where.to_string(), " repeats ", it->second);
    CHECK(fresh);
  }
}
