// The saturation strategy.
#include "search/eqsat.hpp"

#include <chrono>
#include <limits>

#include "search/rule_step.hpp"

namespace mctsat::search {

egraph::RunReport run_eqsat(tensor::TensorEGraph& state, const dsl::RuleSet& rules,
                            const EqsatOptions& options, const SearchLimits& limits) {
  StepOptions step;
  step.node_limit = options.node_limit;
  step.cycle_filter = limits.cycle_filter;
  step.threads = limits.threads;
  auto runner = runner_options(state, step);
  runner.limits.iterations = options.iterations;
  runner.limits.seconds = limits.seconds;
  runner.limits.memory_bytes = limits.memory_bytes;
  runner.multi_iterations = options.multi_iterations;
  if (options.progress) {
    const auto start = std::chrono::steady_clock::now();
    runner.after_iteration = [&options, start](const auto&, const egraph::IterationStats& stats) {
      options.progress(
          {stats.iteration + 1, options.iterations, std::numeric_limits<double>::quiet_NaN(),
           stats.nodes,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
      return true;
    };
  }
  egraph::SimpleScheduler scheduler;
  return egraph::Runner<tensor::TensorAnalysis>(std::move(runner))
      .run(state.egraph, rules.rewrites(), scheduler);
}

}  // namespace mctsat::search
