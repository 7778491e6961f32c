// Derivations of several equations in one e-graph (derivable_together): they prove what each
// equation's own run proves, also with one input name at two shapes in different equations.
#include <doctest/doctest.h>

#include "dsl/lowering.hpp"
#include "tests/verify/rule_equations.hpp"
#include "verify/equation_graph.hpp"
#include "verify/rule_derivation.hpp"

using namespace mctsat;
using namespace mctsat::verify;

namespace {

struct SidesAt {
  tensor::Graph lhs, rhs;
};

SidesAt sides(const std::string& rule_text, std::int64_t n) {
  const Equation e = testing::rule_equation(rule_text);
  Binding binding;
  binding.values.assign(e.vars.size(), {n, n});
  tensor::Graph lhs = lhs_graph(e, binding);
  tensor::Graph rhs = rhs_graph(e, binding, lhs);
  return {std::move(lhs), std::move(rhs)};
}

dsl::RuleSet laws() {
  return dsl::RuleSet(testing::rule_library(R"(
    rule comm: (ewadd ?a ?b) => (ewadd ?b ?a)
    rule assoc: (ewadd ?a (ewadd ?b ?c)) => (ewadd (ewadd ?a ?b) ?c)
    rule relu-idem: (relu (relu ?a)) => (relu ?a)
  )")
                          .rules);
}

}  // namespace

TEST_CASE("equations derived together agree with each one derived alone") {
  const dsl::RuleSet rules = laws();
  const std::vector<SidesAt> all = {
      sides("rule e1: (ewadd ?x ?y) => (ewadd ?y ?x)", 2),
      sides("rule e2: (relu (relu (relu ?x))) => (relu ?x)", 3),  // another shape for ?x
      sides("rule e3: (ewadd (ewadd ?x ?y) ?z) => (ewadd ?z (ewadd ?y ?x))", 2),
      sides("rule e4: (relu ?x) => ?x", 2),                               // not a law
      sides("rule e5: (ewadd ?x (relu ?y)) => (ewadd (relu ?x) ?y)", 3),  // neither
  };
  std::vector<GraphEquation> equations;
  std::vector<bool> alone;
  for (const auto& s : all) {
    equations.push_back({&s.lhs, &s.rhs});
    alone.push_back(derivable(s.lhs, s.rhs, rules, {}));
  }
  CHECK(alone == std::vector<bool>{true, true, true, false, false});
  CHECK(derivable_together(equations, rules, {}) == alone);
  // The same with the rule search on two threads.
  CHECK(derivable_together(equations, rules, {}, 2) == alone);
}

TEST_CASE("one input with two shapes in one equation is an error") {
  const SidesAt two = sides("rule e: (relu ?x) => (relu ?x)", 2);
  const SidesAt three = sides("rule e: (relu ?x) => (relu ?x)", 3);
  CHECK_THROWS_AS(derivable(two.lhs, three.rhs, laws(), {}), Error);
}
