// The greedy baseline: try every rule for one iteration on a copy of the e-graph, commit the one
// whose extracted cost falls most, repeat until no rule lowers the cost, the node limit is
// reached, or the step limit. A sanity baseline for the planners.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dsl/lowering.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "search/state_cost.hpp"
#include "search/stop_reason.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

// With the planners' step and e-node limits (PlanLimits: max_steps, node_limit), as mcts's.
struct GreedyOptions : PlanLimits {
  ProgressCallback progress;  // after each committed rule
};

struct GreedyResult {
  tensor::TensorEGraph state;
  std::vector<std::size_t> committed;        // rules, in order
  StopReason stop = StopReason::kStepLimit;  // or no improvement, node, time or memory limit
  std::size_t evaluations = 0;
};

// Limits: seconds (checked before each step), memory_bytes (the e-graph), cycle_filter; one
// thread.
GreedyResult run_greedy(tensor::TensorEGraph initial, const dsl::RuleSet& rules,
                        const StateCost& cost, const GreedyOptions& options,
                        const SearchLimits& limits);

}  // namespace mctsat::search
