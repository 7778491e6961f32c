// The greedy baseline strategy.
#include "search/greedy.hpp"

#include <chrono>
#include <optional>

#include "search/rule_screen.hpp"
#include "search/rule_step.hpp"

namespace mctsat::search {

GreedyResult run_greedy(tensor::TensorEGraph initial, const dsl::RuleSet& rules,
                        const StateCost& cost, const GreedyOptions& options,
                        const SearchLimits& limits) {
  GreedyResult result{std::move(initial), {}, StopReason::kStepLimit, 0};
  StepOptions step;
  step.node_limit = options.node_limit;
  step.cycle_filter = limits.cycle_filter;
  // Three e-graphs live at once: the state, the best candidate and the one being tried.
  step.memory_bytes = limits.memory_bytes / 3;
  const auto start = std::chrono::steady_clock::now();
  double current = cost(result.state);
  ++result.evaluations;
  for (std::size_t s = 0; s < options.max_steps; ++s) {
    if (result.state.egraph.num_nodes() >= options.node_limit) {
      result.stop = StopReason::kNodeLimit;
      return result;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
        limits.seconds) {
      result.stop = StopReason::kTimeLimit;
      return result;
    }
    if (result.state.egraph.memory_bytes() >= limits.memory_bytes) {
      result.stop = StopReason::kMemoryLimit;
      return result;
    }
    std::optional<tensor::TensorEGraph> best;
    std::size_t best_rule = 0;
    double best_cost = current;
    for (std::size_t r = 0; r < rules.size(); ++r) {
      if (!may_change(result.state, rules, r)) continue;
      tensor::TensorEGraph candidate = result.state;
      std::vector<bool> enabled(rules.size(), false);
      enabled[r] = true;
      if (!apply_rules(candidate, rules, enabled, step).changed) continue;
      const double c = cost(candidate);
      ++result.evaluations;
      if (c < best_cost) {
        best_cost = c;
        best_rule = r;
        best = std::move(candidate);
      }
    }
    if (!best) {
      result.stop = StopReason::kNoImprovement;
      return result;
    }
    result.state = std::move(*best);
    result.committed.push_back(best_rule);
    current = best_cost;
    if (options.progress)
      options.progress(
          {s + 1, options.max_steps, current, result.state.egraph.num_nodes(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
  }
  return result;
}

}  // namespace mctsat::search
