// Each strategy's run: its search, then its record as a StrategyResult.
#include "search/strategies.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "search/eqsat.hpp"
#include "search/greedy.hpp"
#include "search/mcts.hpp"
#include "search/taso.hpp"
#include "support/error.hpp"

namespace mctsat::search {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <typename Indices>
std::vector<std::pair<std::string, std::size_t>> count_rules(const dsl::RuleSet& rules,
                                                             const Indices& indices) {
  std::map<std::string, std::size_t> used;
  for (std::size_t rule : indices) ++used[rules.rule(rule).name];
  return {used.begin(), used.end()};
}

class EqsatStrategy final : public Strategy {
 public:
  explicit EqsatStrategy(EqsatOptions options) : options_(std::move(options)) {}
  StrategyKind kind() const override { return StrategyKind::kEqsat; }

  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override {
    StrategyResult result;
    result.state = tensor::to_egraph(graph);
    EqsatOptions options = options_;
    if (context.progress) options.progress = context.progress;
    const egraph::RunReport report =
        run_eqsat(result.state, context.rules, options, context.limits);
    result.stop = from_runner(report.stop);
    result.iterations = report.iterations.size();
    std::map<std::string, std::size_t> used;
    for (const auto& iteration : report.iterations)
      for (std::size_t r = 0; r < iteration.rules.size(); ++r)
        if (iteration.rules[r].apply.applied > 0)
          used[context.rules.rule(r).name] += iteration.rules[r].apply.applied;
    result.rules_used.assign(used.begin(), used.end());
    return result;
  }

 private:
  EqsatOptions options_;
};

class MctsStrategy final : public Strategy {
 public:
  MctsStrategy(MctsOptions options, TasoOptions taso, TasoGraph taso_graph,
               std::size_t taso_patience)
      : options_(std::move(options)), taso_(std::move(taso)), taso_graph_(taso_graph) {
    taso_.patience = taso_patience;
  }
  StrategyKind kind() const override { return StrategyKind::kMcts; }

  // With kSeed, TASO's search runs first and the tree search starts from its graph. With kFinal
  // the two are independent until the end, so with several threads they run side by side in one
  // arena of `threads` (each one's idle threads take the other's tasks; each search's result is
  // the same as alone); either way they share the memory limit, half each.
  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override {
    const auto start = Clock::now();
    StrategyResult result;
    tensor::TensorEGraph initial = tensor::to_egraph(graph);
    MctsOptions options = options_;
    if (context.progress) options.progress = context.progress;
    SearchLimits limits = context.limits, taso_limits = context.limits;
    taso_limits.seconds = context.limits.seconds / 2;
    if (taso_graph_ == TasoGraph::kFinal) {
      taso_limits.memory_bytes = context.limits.memory_bytes / 2;
      limits.memory_bytes = context.limits.memory_bytes - taso_limits.memory_bytes;
    }
    const double input_cost = tensor::graph_cost(graph, context.model);
    MctsResult run;
    if (taso_graph_ == TasoGraph::kFinal && context.limits.threads > 1) {
      tbb::task_arena arena(static_cast<int>(context.limits.threads));
      arena.execute([&] {
        tbb::task_group beside;
        beside.run([&] {
          result.taso = run_taso(graph, context.rules, context.model, taso_, taso_limits, &arena);
        });
        run = run_mcts(std::move(initial), context.rules, context.reward, options, limits, &arena);
        beside.wait();
      });
    } else {
      if (taso_graph_ != TasoGraph::kNone) {
        result.taso = run_taso(graph, context.rules, context.model, taso_, taso_limits);
        limits.seconds = std::max(context.limits.seconds - seconds_since(start), 0.0);
        if (taso_graph_ == TasoGraph::kSeed && result.taso->cost < input_cost)
          tensor::add_equivalent_graph(initial, result.taso->graph);
      }
      run = run_mcts(std::move(initial), context.rules, context.reward, options, limits);
    }
    std::vector<std::size_t> committed;
    if (result.taso) {
      if (result.taso->cost < input_cost) {
        result.fallback = std::move(result.taso->graph);
        committed = result.taso->applied;
      }
      result.taso->graph = tensor::Graph();
    }
    result.state = std::move(run.state);
    if (result.fallback && taso_graph_ == TasoGraph::kFinal)
      tensor::add_equivalent_graph(result.state, *result.fallback);
    result.stop = run.stop;
    result.iterations = run.steps.size();
    for (std::size_t i = 0; i < run.state_steps; ++i) committed.push_back(run.steps[i].rule);
    result.rules_used = count_rules(context.rules, committed);
    result.mcts = std::move(run);
    return result;
  }

 private:
  MctsOptions options_;
  TasoOptions taso_;
  TasoGraph taso_graph_;
};

class GreedyStrategy final : public Strategy {
 public:
  explicit GreedyStrategy(const MctsOptions& mcts) {
    options_.node_limit = mcts.node_limit;
    options_.max_steps = mcts.max_steps;
  }
  StrategyKind kind() const override { return StrategyKind::kGreedy; }

  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override {
    GreedyOptions options = options_;
    options.progress = context.progress;
    GreedyResult run = run_greedy(tensor::to_egraph(graph), context.rules, context.reward, options,
                                  context.limits);
    StrategyResult result;
    result.state = std::move(run.state);
    result.stop = run.stop;
    result.iterations = run.committed.size();
    result.rules_used = count_rules(context.rules, run.committed);
    return result;
  }

 private:
  GreedyOptions options_;
};

class TasoStrategy final : public Strategy {
 public:
  explicit TasoStrategy(TasoOptions options) : options_(std::move(options)) {}
  StrategyKind kind() const override { return StrategyKind::kTaso; }

  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override {
    TasoOptions options = options_;
    if (context.progress) options.progress = context.progress;
    TasoResult run = run_taso(graph, context.rules, context.model, options, context.limits);
    StrategyResult result;
    result.state = tensor::to_egraph(run.graph);
    run.graph = tensor::Graph();
    result.stop = run.stop;
    result.iterations = run.explored;
    result.rules_used = count_rules(context.rules, run.applied);
    result.taso = std::move(run);
    return result;
  }

 private:
  TasoOptions options_;
};

}  // namespace

std::unique_ptr<Strategy> make_strategy(const OptimizeOptions& options) {
  switch (options.strategy) {
    case StrategyKind::kEqsat:
      return std::make_unique<EqsatStrategy>(options.eqsat);
    case StrategyKind::kMcts:
      return std::make_unique<MctsStrategy>(options.mcts, options.taso, options.taso_graph,
                                            options.taso_patience);
    case StrategyKind::kGreedy:
      return std::make_unique<GreedyStrategy>(options.mcts);
    case StrategyKind::kTaso:
      return std::make_unique<TasoStrategy>(options.taso);
  }
  MCTSAT_ASSERT(false && "unknown strategy kind");
  return nullptr;
}

}  // namespace mctsat::search
