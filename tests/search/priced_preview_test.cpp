// The priced preview of a match (match_candidate.hpp), which TASO's search uses to cost a
// candidate without copying the e-graph: on every match of TASO's rules and rules/extended on zoo
// models, each candidate it prices is apply_match's, with the same cost bit for bit (the queue's
// order depends on it), the same fingerprint and operator count, and each outcome it tells
// without pricing is apply_match's; and it prices hundreds of them.
#include <string>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "frontend/zoo.hpp"
#include "search/graph_fingerprint.hpp"
#include "search/match_candidate.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace priced_preview_test {

struct Counts {
  std::size_t priced = 0, told = 0, built = 0, disagreements = 0;
};

Counts compare(const char* model_name, const dsl::RuleSet& rules, std::size_t per_rule) {
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::TensorEGraph state = tensor::to_egraph(*frontend::build_zoo_model(model_name));
  const search::ParentPrices prices = search::price_parent(state, model);
  Counts counts;
  for (std::size_t r = 0; r < rules.size(); ++r) {
    const search::TensorRewrite& rule = rules.rewrite(r);
    const egraph::Matches matches = rule.search(state.egraph, per_rule);
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const auto preview = search::preview_match(state, rule, matches, m, prices, model);
      const search::MatchCandidate applied = search::apply_match(state, rule, matches, m, model);
      if (!preview) {
        ++counts.built;
        continue;
      }
      INFO(model_name << ": rule " << rule.name() << ", match " << m);
      bool same = applied.outcome == preview->outcome;
      if (same && preview->outcome == search::MatchOutcome::kGraph) {
        ++counts.priced;
        const search::GraphFingerprint fingerprint =
            search::graph_fingerprint(applied.state, applied.selection);
        same = applied.cost == preview->cost && fingerprint.hash == preview->fingerprint.hash &&
               fingerprint.operators == preview->fingerprint.operators;
        CHECK(applied.cost == preview->cost);
        CHECK(fingerprint.hash == preview->fingerprint.hash);
        CHECK(fingerprint.operators == preview->fingerprint.operators);
      } else if (same) {
        ++counts.told;
      }
      CHECK(applied.outcome == preview->outcome);
      if (!same) ++counts.disagreements;
    }
  }
  return counts;
}

}  // namespace priced_preview_test

TEST_CASE("the priced preview agrees with apply_match on TASO's rules and rules/extended") {
  const dsl::RuleLibrary library =
      dsl::load_rules_or_throw({std::string(MCTSAT_SOURCE_DIR) + "/rules/taso",
                                std::string(MCTSAT_SOURCE_DIR) + "/rules/extended"});
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  std::size_t priced = 0;
  for (const char* model : {"nasrnn", "squeezenet", "bert", "inceptionv3"}) {
    CAPTURE(model);
    const priced_preview_test::Counts counts = priced_preview_test::compare(model, rules, 60);
    CHECK(counts.disagreements == 0);
    CHECK(counts.priced > 0);
    priced += counts.priced;
  }
  CHECK(priced > 300);
}
