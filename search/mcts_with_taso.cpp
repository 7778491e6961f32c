// The default pipeline's run: TASO's pass beside or before the tree search, then their records.
#include "search/mcts_with_taso.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "search/eqsat_pass.hpp"
#include "search/extracted_graph.hpp"
#include "search/rules_used.hpp"
#include "search/search_records.hpp"

namespace mctsat::search {

MctsWithTaso::MctsWithTaso(MctsOptions mcts, TasoOptions taso, TasoPass pass,
                           std::optional<EqsatOptions> saturation)
    : mcts_(std::move(mcts)),
      taso_(std::move(taso)),
      taso_graph_(pass.graph),
      saturation_(std::move(saturation)) {
  taso_.patience = pass.patience;
}

StrategyResult MctsWithTaso::run(const tensor::Graph& graph, const SearchContext& context) const {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  StrategyResult result;
  tensor::TensorEGraph initial = tensor::to_egraph(graph);
  MctsOptions options = mcts_;
  if (context.progress) options.progress = context.progress;
  SearchLimits limits = context.limits, taso_limits = context.limits;
  taso_limits.seconds = context.limits.seconds / 2;
  // A work budget is split in fixed halves, so that neither search's share depends on the thread
  // count (they run side by side) or on the other's use.
  if (context.limits.work != SearchLimits{}.work) {
    taso_limits.work = context.limits.work / 2;
    limits.work = context.limits.work - taso_limits.work;
  }
  if (taso_graph_ == TasoGraph::kFinal) {
    taso_limits.memory_bytes = context.limits.memory_bytes / 2;
    limits.memory_bytes = context.limits.memory_bytes - taso_limits.memory_bytes;
  }
  const double input_cost = tensor::graph_cost(graph, context.model);
  std::optional<TasoResult> taso;
  MctsResult run;
  if (taso_graph_ == TasoGraph::kFinal && context.limits.threads > 1) {
    tbb::task_arena arena(static_cast<int>(context.limits.threads));
    arena.execute([&] {
      tbb::task_group beside;
      beside.run([&] {
        taso = run_taso(graph, context.rules, context.model, taso_, taso_limits, &arena);
      });
      run = run_mcts(std::move(initial), context.rules, context.reward, options, limits, &arena);
      beside.wait();
    });
  } else {
    if (taso_graph_ != TasoGraph::kNone) {
      taso = run_taso(graph, context.rules, context.model, taso_, taso_limits);
      const double spent = std::chrono::duration<double>(Clock::now() - start).count();
      limits.seconds = std::max(context.limits.seconds - spent, 0.0);
      if (taso_graph_ == TasoGraph::kSeed && taso->cost < input_cost)
        tensor::add_equivalent_graph(initial, taso->graph);
    }
    run = run_mcts(std::move(initial), context.rules, context.reward, options, limits);
  }
  std::vector<std::size_t> committed;
  result.state = std::move(run.state);
  // The fallback: the cheapest of the passes' own graphs. The tree search's is its final state's
  // dag extraction: the final extraction of that state grown by the other passes' graphs (a
  // heuristic warm start, an ILP under its time limit) can end dearer than it (PP-OCRv4-det with
  // both rule libraries: +7.88% against the state's own +8.12%).
  // The record's "fallback" names the pass whose graph it is.
  double fallback_cost = input_cost;
  const auto offer = [&](tensor::Graph candidate, double cost, const char* pass) {
    if (cost >= fallback_cost) return;
    fallback_cost = cost;
    result.fallback = std::move(candidate);
    result.record["fallback"] = pass;
  };
  if (auto tree = dag_extracted_graph(result.state, context.model, limits.memory_bytes))
    offer(std::move(tree->graph), tree->cost, "tree");
  if (taso) {
    if (taso->cost < input_cost) {
      if (taso_graph_ == TasoGraph::kFinal) tensor::add_equivalent_graph(result.state, taso->graph);
      committed = taso->applied;
      offer(std::move(taso->graph), taso->cost, "taso");
    }
    result.record["taso"] = taso_record(*taso, taso_, context.limits.threads);
  }
  if (saturation_) {
    SearchLimits pass_limits = context.limits;
    pass_limits.seconds = std::max(
        context.limits.seconds - std::chrono::duration<double>(Clock::now() - start).count(), 0.0);
    pass_limits.memory_bytes = context.limits.memory_bytes / 2;
    EqsatPassResult pass =
        run_eqsat_pass(graph, context.rules, context.model, *saturation_, pass_limits);
    result.record["eqsat_pass"] = std::move(pass.record);
    if (pass.graph && pass.cost < input_cost) {
      tensor::add_equivalent_graph(result.state, *pass.graph);
      offer(std::move(*pass.graph), pass.cost, "saturation");
    }
  }
  result.stop = run.stop;
  result.iterations = run.steps.size();
  for (std::size_t i = 0; i < run.state_steps; ++i) committed.push_back(run.steps[i].rule);
  result.rules_used = count_rules(context.rules, committed);
  result.record["mcts"] = mcts_record(run, mcts_, context.limits.threads);
  return result;
}

}  // namespace mctsat::search
