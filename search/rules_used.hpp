// StrategyResult::rules_used from the rules a search chose, in order: each rule's name and how
// often it was chosen, sorted by name. O(n log r) for n choices of r distinct rules.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dsl/lowering.hpp"

namespace mctsat::search {

template <typename Indices>
std::vector<std::pair<std::string, std::size_t>> count_rules(const dsl::RuleSet& rules,
                                                             const Indices& indices) {
  std::map<std::string, std::size_t> used;
  for (std::size_t rule : indices) ++used[rules.rule(rule).name];
  return {used.begin(), used.end()};
}

}  // namespace mctsat::search
