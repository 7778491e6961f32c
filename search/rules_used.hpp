// StrategyResult::rules_used, counted by rule name and sorted by name: from the rules a search
// chose (each committed step or rewrite once), or from a saturation run (each match that changed
// the e-graph once). O(n log r) for n choices of r distinct rules.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dsl/lowering.hpp"
#include "egraph/runner.hpp"

namespace mctsat::search {

using RuleCounts = std::vector<std::pair<std::string, std::size_t>>;

template <typename Indices>
RuleCounts count_rules(const dsl::RuleSet& rules, const Indices& indices) {
  std::map<std::string, std::size_t> used;
  for (std::size_t rule : indices) ++used[rules.rule(rule).name];
  return {used.begin(), used.end()};
}

// The rules whose matches changed the e-graph in a run, each with how many did.
inline RuleCounts applied_rules(const dsl::RuleSet& rules, const egraph::RunReport& report) {
  std::map<std::string, std::size_t> used;
  for (const auto& iteration : report.iterations)
    for (std::size_t r = 0; r < iteration.rules.size(); ++r)
      if (iteration.rules[r].apply.applied > 0)
        used[rules.rule(r).name] += iteration.rules[r].apply.applied;
  return {used.begin(), used.end()};
}

}  // namespace mctsat::search
