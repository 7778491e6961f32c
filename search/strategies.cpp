// The eqsat, greedy and taso strategies (each one's search, then its record as a StrategyResult)
// and the table of built-in strategies.
#include "search/strategies.hpp"

#include <string>
#include <utility>

#include "search/eqsat.hpp"
#include "search/greedy.hpp"
#include "search/mcts_with_taso.hpp"
#include "search/rules_used.hpp"
#include "search/search_records.hpp"
#include "search/taso.hpp"
#include "support/error.hpp"

namespace mctsat::search {
namespace {

class EqsatStrategy final : public Strategy {
 public:
  static constexpr StrategyTraits kTraits{.name = "eqsat",
                                          .iteration = "iteration",
                                          .uses_reward = false,
                                          .builds_egraph = true,
                                          .seeded = false,
                                          .commits_rules = false};

  explicit EqsatStrategy(EqsatOptions options) : options_(std::move(options)) {}
  const StrategyTraits& traits() const override { return kTraits; }

  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override {
    StrategyResult result;
    result.state = tensor::to_egraph(graph);
    EqsatOptions options = options_;
    if (context.progress) options.progress = context.progress;
    const egraph::RunReport report =
        run_eqsat(result.state, context.rules, options, context.limits);
    result.stop = from_runner(report.stop);
    result.iterations = report.iterations.size();
    result.rules_used = applied_rules(context.rules, report);
    return result;
  }

 private:
  EqsatOptions options_;
};

class GreedyStrategy final : public Strategy {
 public:
  static constexpr StrategyTraits kTraits{.name = "greedy",
                                          .iteration = "step",
                                          .uses_reward = true,
                                          .builds_egraph = true,
                                          .seeded = false,
                                          .commits_rules = true};

  explicit GreedyStrategy(const PlanLimits& limits) { static_cast<PlanLimits&>(options_) = limits; }
  const StrategyTraits& traits() const override { return kTraits; }

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
  static constexpr StrategyTraits kTraits{.name = "taso",
                                          .iteration = "graph",
                                          .uses_reward = false,
                                          .builds_egraph = false,
                                          .seeded = false,
                                          .commits_rules = true};

  explicit TasoStrategy(TasoOptions options) : options_(std::move(options)) {}
  const StrategyTraits& traits() const override { return kTraits; }

  // Record: "taso" (search_records.hpp).
  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override {
    TasoOptions options = options_;
    if (context.progress) options.progress = context.progress;
    TasoResult run = run_taso(graph, context.rules, context.model, options, context.limits);
    StrategyResult result;
    result.state = tensor::to_egraph(run.graph);
    result.stop = run.stop;
    result.iterations = run.explored;
    result.rules_used = count_rules(context.rules, run.applied);
    result.record["taso"] = taso_record(run, options_, context.limits.threads);
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
      return std::make_unique<MctsWithTaso>(
          options.mcts, options.taso, options.taso_pass,
          options.eqsat_pass ? std::optional<EqsatOptions>(options.eqsat) : std::nullopt);
    case StrategyKind::kGreedy:
      return std::make_unique<GreedyStrategy>(options.mcts);
    case StrategyKind::kTaso:
      return std::make_unique<TasoStrategy>(options.taso);
  }
  MCTSAT_ASSERT(false && "unknown strategy kind");
  return nullptr;
}

const StrategyTraits& strategy_traits(StrategyKind kind) {
  switch (kind) {
    case StrategyKind::kEqsat:
      return EqsatStrategy::kTraits;
    case StrategyKind::kMcts:
      return MctsWithTaso::kTraits;
    case StrategyKind::kGreedy:
      return GreedyStrategy::kTraits;
    case StrategyKind::kTaso:
      return TasoStrategy::kTraits;
  }
  MCTSAT_ASSERT(false && "unknown strategy kind");
  return EqsatStrategy::kTraits;
}

std::string strategy_names_where(bool StrategyTraits::*trait) {
  std::string names;
  for (const auto& [kind, name] : kStrategyNames)
    if (strategy_traits(kind).*trait) names += (names.empty() ? "" : ", ") + std::string(name);
  return names;
}

}  // namespace mctsat::search
