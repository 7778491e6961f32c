// The JSON record of one optimization: options, costs, speedup, time split, e-graph size, stop
// reason, rules used, final extraction and (mcts) the search's statistics. `mctsat optimize
// --json` prints it and the bench harness stores it per run, so that both speak the same format.
#pragma once

#include <nlohmann/json.hpp>

#include "search/optimizer.hpp"

namespace mctsat::search {

// Keys: strategy, extract, final_extract, original_cost_ms, optimized_cost_ms, speedup_percent,
// exploration_seconds, extraction_seconds, egraph {nodes, classes}, iterations, stop_reason,
// rules_used [{rule, count}], extraction {status, dag_cost_ms, gap, seconds, detail},
// kept_original, optimized_operators, and for mcts: mcts {seed, simulations, reward_extractions,
// memo_hits, threads, batch, stop_without_gain, tie_break, cpu_seconds, simulation_cpu_seconds,
// critical_cpu_seconds, steps [{rule, mean_value, cost_ms, nodes}]}; for taso: taso {alpha, budget, explored, candidates,
// queued, cyclic, threads}.
nlohmann::json optimize_report(const OptimizeResult& result, const OptimizeOptions& options);

}  // namespace mctsat::search
