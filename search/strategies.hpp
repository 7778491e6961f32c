// The built-in strategies, made from the optimization's options: the one table that maps a
// StrategyKind to its implementation and traits. eqsat, greedy and taso are defined in
// strategies.cpp; mcts is the default pipeline (mcts_with_taso.hpp). Adding a built-in strategy
// is one enumerator in kStrategyNames (strategy.hpp) and one case in each function below (the
// compiler names them); a strategy outside the table runs through optimize(..., strategy).
#pragma once

#include <memory>
#include <string>

#include "search/optimize_options.hpp"
#include "search/strategy.hpp"

namespace mctsat::search {

// The strategy options.strategy names, reading its part of `options` (copied).
std::unique_ptr<Strategy> make_strategy(const OptimizeOptions& options);

// The traits of a built-in strategy, without making one.
const StrategyTraits& strategy_traits(StrategyKind kind);

// "eqsat, mcts, greedy": the built-in strategies with a trait, in table order (for messages).
std::string strategy_names_where(bool StrategyTraits::*trait);

}  // namespace mctsat::search
