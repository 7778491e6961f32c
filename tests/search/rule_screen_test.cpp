// The rule screen (rule_screen.hpp), which MCTS and the greedy planner run before they copy a
// state and apply a rule: for every rule of TASO's and rules/extended, on zoo models' e-graphs
// and on e-graphs grown from them, a rule the screen rejects changes nothing when applied (so the
// searches are the same as without the screen), and the screen rejects many multi-pattern rules
// whose patterns all match (what it spares).
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "frontend/zoo.hpp"
#include "search/rule_screen.hpp"
#include "search/rule_step.hpp"

using namespace mctsat;

namespace rule_screen_test {

struct Counts {
  std::size_t rejected_matching = 0;  // multi-pattern rules with matches, rejected by the screen
  std::size_t disagreements = 0;      // rejected, yet applying the rule changed the state
};

bool changes(const tensor::TensorEGraph& state, const dsl::RuleSet& rules, std::size_t rule) {
  tensor::TensorEGraph copy = state;
  std::vector<bool> enabled(rules.size(), false);
  enabled[rule] = true;
  return search::apply_rules(copy, rules, enabled, {}).changed;
}

// Whether each of a multi-pattern rule's patterns has a match (its search keeps only the joined
// matches that pass its conditions).
bool patterns_match(const tensor::TensorEGraph& state, const search::TensorRewrite& rule) {
  for (const egraph::Program& program : rule.programs())
    if (egraph::search(state.egraph, program, rule.num_vars()).size() == 0) return false;
  return true;
}

void compare(const tensor::TensorEGraph& state, const dsl::RuleSet& rules, Counts& counts) {
  for (std::size_t r = 0; r < rules.size(); ++r) {
    if (search::may_change(state, rules, r)) continue;
    const search::TensorRewrite& rule = rules.rewrite(r);
    if (rule.multi() && patterns_match(state, rule)) ++counts.rejected_matching;
    const bool changed = changes(state, rules, r);
    INFO("rule " << rule.name());
    CHECK_FALSE(changed);
    if (changed) ++counts.disagreements;
  }
}

// The state grown by the first `steps` rules that change it, each applied on its own.
tensor::TensorEGraph grown(tensor::TensorEGraph state, const dsl::RuleSet& rules,
                           std::size_t steps) {
  for (std::size_t r = 0; r < rules.size() && steps > 0; ++r) {
    std::vector<bool> enabled(rules.size(), false);
    enabled[r] = true;
    if (search::apply_rules(state, rules, enabled, {}).changed) --steps;
  }
  return state;
}

}  // namespace rule_screen_test

TEST_CASE("a rule the screen rejects changes nothing (TASO's rules and rules/extended)") {
  const dsl::RuleLibrary library =
      dsl::load_rules_or_throw({std::string(MCTSAT_SOURCE_DIR) + "/rules/taso",
                                std::string(MCTSAT_SOURCE_DIR) + "/rules/extended"});
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  rule_screen_test::Counts counts;
  for (const char* model : {"squeezenet", "bert", "nasrnn", "inceptionv3"}) {
    CAPTURE(model);
    const tensor::TensorEGraph state = tensor::to_egraph(*frontend::build_zoo_model(model));
    rule_screen_test::compare(state, rules, counts);
    rule_screen_test::compare(rule_screen_test::grown(state, rules, 6), rules, counts);
  }
  CHECK(counts.disagreements == 0);
  CHECK(counts.rejected_matching >= 20);
}
