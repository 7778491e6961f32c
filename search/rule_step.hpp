// One step of rule application on a tensor e-graph: the chosen rules searched and applied for one
// iteration, with TENSAT's cycle filtering (pre-check and post-pass), a node and a memory limit.
// Shared by every strategy: an MCTS action, a rollout step, and each eqsat iteration use the same
// step.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "dsl/lowering.hpp"
#include "egraph/runner.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

struct StepOptions {
  // The e-nodes the step may grow the e-graph to: the strategy's limit (no default of its own).
  std::size_t node_limit = std::numeric_limits<std::size_t>::max();
  // The e-graph's bytes (egraph::EGraph::memory_bytes) the step may grow it to; the matches held
  // during the step share what the e-graph leaves of it.
  std::size_t memory_bytes = std::numeric_limits<std::size_t>::max();
  bool cycle_filter = true;
  std::size_t threads = 1;
};

// Applies the enabled rules (by index into `rules`) for one iteration. The e-graph is clean after.
egraph::IterationStats apply_rules(tensor::TensorEGraph& state, const dsl::RuleSet& rules,
                                   const std::vector<bool>& enabled, const StepOptions& options);

// Runner options with cycle filtering wired in for this state's roots (when asked).
egraph::RunnerOptions<tensor::TensorAnalysis> runner_options(const tensor::TensorEGraph& state,
                                                             const StepOptions& options);

}  // namespace mctsat::search
