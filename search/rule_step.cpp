// Rule application steps with cycle filtering.
#include "search/rule_step.hpp"

#include "egraph/cycle_filter.hpp"

namespace mctsat::search {

egraph::RunnerOptions<tensor::TensorAnalysis> runner_options(const tensor::TensorEGraph& state,
                                                             const StepOptions& options) {
  egraph::RunnerOptions<tensor::TensorAnalysis> runner;
  runner.limits.nodes = options.node_limit;
  runner.limits.memory_bytes = options.memory_bytes;
  runner.threads = options.threads;
  if (options.cycle_filter) egraph::use_cycle_filtering(runner, state.roots);
  return runner;
}

egraph::IterationStats apply_rules(tensor::TensorEGraph& state, const dsl::RuleSet& rules,
                                   const std::vector<bool>& enabled, const StepOptions& options) {
  const egraph::Runner<tensor::TensorAnalysis> runner(runner_options(state, options));
  return runner.run_iteration(state.egraph, rules.rewrites(), enabled);
}

}  // namespace mctsat::search
