// Reading the strategies' JSON records (StrategyResult::record) in tests: the tree search's
// committed steps as typed values, and TASO's record.
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/optimizer.hpp"

namespace strategy_records {

struct Step {
  std::string rule;  // the rule's name
  double mean_value = 0, cost = 0;
  std::size_t nodes = 0;
};

// The "mcts" record's steps (the result must come from the mcts strategy).
inline std::vector<Step> mcts_steps(const mctsat::search::OptimizeResult& result) {
  std::vector<Step> steps;
  for (const nlohmann::json& step : result.record.at("mcts").at("steps"))
    steps.push_back({step.at("rule").get<std::string>(), step.at("mean_value").get<double>(),
                     step.at("cost_ms").get<double>(), step.at("nodes").get<std::size_t>()});
  return steps;
}

inline const nlohmann::json& taso(const mctsat::search::OptimizeResult& result) {
  return result.record.at("taso");
}

}  // namespace strategy_records
