// The JSON records of the tree search and of TASO's search, as the strategies that run them put
// them in their StrategyResult::record (and the report shows them under "mcts" and "taso").
// Keys, mcts: seed, simulations, reward_extractions, memo_hits, work, threads, batch,
// stop_without_gain, state_steps, tie_break, cpu_seconds, simulation_cpu_seconds,
// critical_cpu_seconds, scheduled_cpu_seconds {"2", "4", "8": seconds}, steps [{rule, mean_value,
// cost_ms, nodes}]; taso: alpha, budget, stop_reason, explored, best_explored, longest_wait,
// cost_ms, candidates, queued, cyclic, work, cpu_seconds, parallel_cpu_seconds, threads.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "search/mcts.hpp"
#include "search/taso.hpp"

namespace mctsat::search {

// `threads`: the search's thread count (SearchLimits::threads).
nlohmann::json mcts_record(const MctsResult& result, const MctsOptions& options,
                           std::size_t threads);
nlohmann::json taso_record(const TasoResult& result, const TasoOptions& options,
                           std::size_t threads);

}  // namespace mctsat::search
