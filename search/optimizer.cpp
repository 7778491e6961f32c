// Running a strategy, the final extraction and the comparison with the input graph.
#include "search/optimizer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "extract/tensor_problem.hpp"
#include "search/greedy.hpp"
#include "support/error.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

std::vector<std::string> strategy_names() {
  return {"eqsat", "mcts", "greedy", "taso"};
}

std::vector<std::string> taso_graph_modes() {
  return {"none", "seed", "final"};
}

OptimizeResult optimize(const tensor::Graph& graph, const dsl::RuleSet& rules,
                        const tensor::CostModel& model, const OptimizeOptions& options) {
  const auto names = strategy_names();
  if (std::find(names.begin(), names.end(), options.strategy) == names.end())
    throw Error(
        fmt::format("unknown strategy '{}' ({})", options.strategy, fmt::join(names, ", ")));
  const auto modes = taso_graph_modes();
  if (std::find(modes.begin(), modes.end(), options.taso_graph) == modes.end())
    throw Error(fmt::format("unknown taso_graph mode '{}' ({})", options.taso_graph,
                            fmt::join(modes, ", ")));
  const auto final_extractor = extract::make_extractor(options.final_extract, options.extractor);
  const auto reward_extractor = extract::make_extractor(options.extract, options.extractor);

  OptimizeResult result;
  result.original_cost = tensor::graph_cost(graph, model);
  tensor::TensorEGraph state = tensor::to_egraph(graph);
  std::optional<tensor::Graph> taso_graph;  // TASO's best graph, when cheaper than the input
  const auto start = Clock::now();
  if (options.strategy == "eqsat") {
    EqsatOptions eqsat = options.eqsat;
    if (options.progress) eqsat.progress = options.progress;
    const egraph::RunReport report = run_eqsat(state, rules, eqsat);
    result.stop_reason =
        report.stop_detail.empty() ? egraph::stop_reason_name(report.stop) : report.stop_detail;
    result.iterations = report.iterations.size();
    std::map<std::string, std::size_t> used;
    for (const auto& iteration : report.iterations)
      for (std::size_t r = 0; r < iteration.rules.size(); ++r)
        if (iteration.rules[r].apply.applied > 0)
          used[rules.rule(r).name] += iteration.rules[r].apply.applied;
    result.rules_used.assign(used.begin(), used.end());
  } else if (options.strategy == "greedy") {
    const extract::Extractor& reward = *reward_extractor;
    const StateCost cost = [&](const tensor::TensorEGraph& s) {
      return reward.extract(extract::problem_from_tensor(s, model)).dag_cost;
    };
    GreedyOptions greedy;
    greedy.node_limit = options.mcts.node_limit;
    greedy.max_steps = options.mcts.max_steps;
    greedy.cycle_filter = options.mcts.cycle_filter;
    greedy.progress = options.progress;
    GreedyResult run = run_greedy(std::move(state), rules, cost, greedy);
    state = std::move(run.state);
    result.stop_reason = run.stop_reason;
    result.iterations = run.committed.size();
    std::map<std::string, std::size_t> used;
    for (std::size_t rule : run.committed) ++used[rules.rule(rule).name];
    result.rules_used.assign(used.begin(), used.end());
  } else if (options.strategy == "taso") {
    TasoOptions taso = options.taso;
    if (options.progress) taso.progress = options.progress;
    result.taso = run_taso(graph, rules, model, taso);
    state = tensor::to_egraph(result.taso.graph);
    result.taso.graph = tensor::Graph();
    result.stop_reason = result.taso.stop_reason;
    result.iterations = result.taso.explored;
    std::map<std::string, std::size_t> used;
    for (std::size_t rule : result.taso.applied) ++used[rules.rule(rule).name];
    result.rules_used.assign(used.begin(), used.end());
  } else {
    const extract::Extractor& reward = *reward_extractor;
    // An ILP reward must not outlast the search budget (the deadline is checked between waves of
    // simulations, and a rollout may extract ten times): its time limit shrinks to what is left.
    const StateCost cost = [&](const tensor::TensorEGraph& s) {
      const extract::Problem problem = extract::problem_from_tensor(s, model);
      if (options.extract != "ilp") return reward.extract(problem).dag_cost;
      extract::ExtractorOptions capped = options.extractor;
      capped.time_limit_seconds = std::clamp(options.mcts.seconds - since(start), 0.01,
                                             std::max(options.extractor.time_limit_seconds, 0.01));
      return extract::make_extractor("ilp", capped)->extract(problem).dag_cost;
    };
    MctsOptions mcts = options.mcts;
    if (options.progress) mcts.progress = options.progress;
    if (options.taso_graph != "none") {
      TasoOptions taso = options.taso;
      taso.seconds = std::min(taso.seconds, options.mcts.seconds / 2);
      result.taso = run_taso(graph, rules, model, taso);
      if (result.taso.cost < result.original_cost) taso_graph = std::move(result.taso.graph);
      result.taso.graph = tensor::Graph();
      if (taso_graph && options.taso_graph == "seed")
        tensor::add_equivalent_graph(state, *taso_graph);
      mcts.seconds = std::max(options.mcts.seconds - since(start), 0.0);
    }
    result.mcts = run_mcts(std::move(state), rules, cost, mcts);
    state = std::move(result.mcts.state);
    if (taso_graph && options.taso_graph == "final")
      tensor::add_equivalent_graph(state, *taso_graph);
    result.stop_reason = result.mcts.stop_reason;
    result.iterations = result.mcts.steps.size();
    std::map<std::string, std::size_t> used;
    for (const MctsStep& step : result.mcts.steps) ++used[rules.rule(step.rule).name];
    if (taso_graph)
      for (std::size_t rule : result.taso.applied) ++used[rules.rule(rule).name];
    result.rules_used.assign(used.begin(), used.end());
  }
  result.exploration_seconds = since(start);
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
  result.optimized_cost = tensor::graph_cost(result.graph, model);
  // The extraction is scored by its exact DAG cost, which must be the built graph's cost.
  MCTSAT_ASSERT(std::abs(result.optimized_cost - result.extraction.dag_cost) <=
                1e-9 * std::max(1.0, result.optimized_cost));
  if (taso_graph && result.taso.cost < result.optimized_cost) {
    result.graph = std::move(*taso_graph);
    result.optimized_cost = result.taso.cost;
    result.kept_taso = true;
  }
  if (result.optimized_cost >= result.original_cost) {
    result.graph = graph;
    result.optimized_cost = result.original_cost;
    result.kept_original = true;
  }
  return result;
}

}  // namespace mctsat::search
