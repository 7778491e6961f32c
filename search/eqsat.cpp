// The saturation strategy.
#include "search/eqsat.hpp"

#include "search/rule_step.hpp"

namespace mctsat::search {

egraph::RunReport run_eqsat(tensor::TensorEGraph& state, const dsl::RuleSet& rules,
                            const EqsatOptions& options) {
  StepOptions step;
  step.node_limit = options.node_limit;
  step.cycle_filter = options.cycle_filter;
  step.threads = options.threads;
  auto runner = runner_options(state, step);
  runner.limits.iterations = options.iterations;
  runner.limits.seconds = options.seconds;
  runner.multi_iterations = options.multi_iterations;
  egraph::SimpleScheduler scheduler;
  return egraph::Runner<tensor::TensorAnalysis>(std::move(runner))
      .run(state.egraph, rules.rewrites(), scheduler);
}

}  // namespace mctsat::search
