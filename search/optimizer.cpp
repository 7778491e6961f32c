// Running a strategy, the final extraction and the comparison with the input graph.
#include "search/optimizer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "extract/tensor_problem.hpp"
#include "search/region_search.hpp"
#include "search/strategies.hpp"
#include "support/error.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/memory_budget.hpp"
#include "tensor/runtime_fusions.hpp"

namespace mctsat::search {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

OptimizeResult optimize(const tensor::Graph& graph, const dsl::RuleSet& rules,
                        const tensor::CostModel& model, const OptimizeOptions& options) {
  return optimize(graph, rules, model, options, *make_strategy(options));
}

OptimizeResult optimize(const tensor::Graph& graph, const dsl::RuleSet& rules,
                        const tensor::CostModel& model, const OptimizeOptions& options,
                        const Strategy& strategy) {
  if (auto by_regions = optimize_by_regions(graph, rules, model, options, strategy))
    return std::move(*by_regions);
  // Without --memory-limit the search's e-graphs may take half of what this process may allocate
  // (the machine's memory or a lower address-space limit): a search that would exhaust it stops
  // with "memory limit" instead of meeting the OOM killer. The dag extractor's class sets, which
  // grow with the square of the classes, get a quarter of the limit (beyond it they fall back to
  // the tree-cost greedy); the ILP's CBC process gets the limit for itself.
  SearchLimits limits = options.limits;
  if (limits.memory_bytes == SearchLimits{}.memory_bytes)
    limits.memory_bytes = static_cast<std::size_t>(tensor::memory_budget_bytes() / 2);
  extract::ExtractorOptions extractor_options = options.extractor;
  extractor_options.max_set_bytes =
      std::min(extractor_options.max_set_bytes, limits.memory_bytes / 4);
  extractor_options.solver_memory_bytes = limits.memory_bytes;
  const auto final_extractor = extract::make_extractor(options.final_extract, extractor_options);

  OptimizeResult result;
  result.strategy = strategy.traits();
  result.original_cost = tensor::as_run_cost(graph, model);
  const auto start = Clock::now();
  // A reward's dag restarts stop at the search's deadline, however many --dag-restarts asks for.
  if (options.limits.seconds <= 1e9)  // the registry's bound: no overflow
    extractor_options.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(options.limits.seconds));
  const auto reward_extractor = extract::make_extractor(options.extract, extractor_options);
  // An ILP reward must not outlast the search budget (mcts checks its deadline between
  // simulations, and a rollout may extract ten times): its time limit shrinks to what is left.
  extract::EnodeCostCache reward_costs(model);
  const StateCost reward = [&](const tensor::TensorEGraph& s) {
    const extract::Problem problem = extract::problem_from_tensor(s, reward_costs);
    if (options.extract != extract::ExtractorKind::kIlp)
      return reward_extractor->extract(problem).dag_cost;
    extract::ExtractorOptions capped = extractor_options;
    capped.time_limit_seconds = std::clamp(options.limits.seconds - since(start), 0.01,
                                           std::max(options.extractor.time_limit_seconds, 0.01));
    return extract::make_extractor(extract::ExtractorKind::kIlp, capped)->extract(problem).dag_cost;
  };
  const SearchContext context{rules, model, reward, limits, options.progress};
  StrategyResult run = strategy.run(graph, context);
  result.exploration_seconds = since(start);
  result.stop = run.stop;
  result.iterations = run.iterations;
  result.rules_used = std::move(run.rules_used);
  result.record = std::move(run.record);
  const tensor::TensorEGraph& state = run.state;
  result.nodes = state.egraph.num_nodes();
  result.classes = state.egraph.num_classes();

  if (options.final_egraph) options.final_egraph(state);
  const auto extraction_start = Clock::now();
  const extract::Problem problem = extract::problem_from_tensor(state, model);
  result.extraction = final_extractor->extract(problem);
  result.extraction_seconds = since(extraction_start);
  if (!std::isfinite(result.extraction.dag_cost))
    throw Error("the final extraction found no acyclic graph");
  result.graph =
      tensor::build_graph(state, extract::to_selection(problem, result.extraction.choice, state));
  // The extraction is scored by its exact DAG cost, which must be the built graph's cost.
  const double extracted_cost = tensor::graph_cost(result.graph, model);
  MCTSAT_ASSERT(std::abs(extracted_cost - result.extraction.dag_cost) <=
                1e-9 * std::max(1.0, extracted_cost));
  result.optimized_cost = tensor::as_run_cost(result.graph, model);
  if (run.fallback) {
    const double fallback_cost = tensor::as_run_cost(*run.fallback, model);
    if (fallback_cost < result.optimized_cost) {
      result.graph = std::move(*run.fallback);
      result.optimized_cost = fallback_cost;
      result.kept_fallback = true;
    }
  }
  if (result.optimized_cost >= result.original_cost) {
    result.graph = graph;
    result.optimized_cost = result.original_cost;
    result.kept_original = true;
  }
  return result;
}

}  // namespace mctsat::search
