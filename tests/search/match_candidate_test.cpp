// One match applied on its own to a single-graph e-graph (TASO's candidates): the preview, which
// tells unchanged and cyclic candidates without copying the e-graph, agrees with the application
// on every match of TASO's rules (binders of the merge rules included) on zoo models, and it
// does tell the cyclic merges it is there for.
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "frontend/zoo.hpp"
#include "search/match_candidate.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;

namespace {

struct Agreement {
  std::map<search::MatchOutcome, std::size_t> previewed;  // by the previewed outcome
  std::size_t applied = 0, disagreements = 0;
};

// Every match of every rule (at most `per_rule` of each) applied and previewed.
Agreement compare(const char* model_name, std::size_t per_rule) {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const tensor::RooflineCostModel& model = test_fixtures::v100_roofline();
  const tensor::TensorEGraph state = tensor::to_egraph(*frontend::build_zoo_model(model_name));
  Agreement agreement;
  for (std::size_t r = 0; r < rules.size(); ++r) {
    const search::TensorRewrite& rule = rules.rewrite(r);
    const egraph::Matches matches = rule.search(state.egraph, per_rule);
    for (std::size_t m = 0; m < matches.size(); ++m) {
      const auto preview = search::preview_match(state, rule, matches, m);
      if (!preview) continue;
      ++agreement.previewed[*preview];
      const search::MatchCandidate applied = search::apply_match(state, rule, matches, m, model);
      ++agreement.applied;
      if (applied.outcome != *preview) {
        ++agreement.disagreements;
        INFO(model_name << ": rule " << rule.name() << ", match " << m);
        CHECK(applied.outcome == *preview);
      }
    }
  }
  return agreement;
}

}  // namespace

TEST_CASE("the preview of a match agrees with its application on zoo models") {
  for (const char* model : {"nasrnn", "squeezenet", "resnext50"}) {
    CAPTURE(model);
    Agreement agreement = compare(model, 400);
    CHECK(agreement.disagreements == 0);
    CHECK(agreement.applied > 0);
    // Pairs of operators where one's input descends from the other's output, which the merge
    // rules (with split binders) would close into a cycle; and matches the analysis rejects.
    CHECK(agreement.previewed[search::MatchOutcome::kCyclic] > 100);
    CHECK(agreement.previewed[search::MatchOutcome::kUnchanged] > 100);
  }
}
