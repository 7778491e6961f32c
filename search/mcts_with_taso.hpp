// The default pipeline, `--strategy mcts`: the PACT'24 paper's tree search (mcts.hpp), and beside
// it TASO's backtracking search (taso.hpp) whose best graph joins an e-graph, merged with the
// input graph at the roots (TasoGraph says which one and when). The pipeline:
//
//   kFinal (the default): TASO's pass and the tree search run side by side in one oneTBB arena of
//     `threads` (on one thread: TASO's first), each with half the memory limit, TASO with at most
//     half the time; TASO's best graph joins the e-graph the tree search ends with, before the
//     final extraction.
//   kSeed: TASO's pass runs first (at most half the time; its time counts against the budget) and
//     its best graph joins the initial e-graph: the tree search starts from it.
//   kNone: the tree search alone.
//
// The saturation pass (eqsat_pass.hpp, on by default), after both, with half the memory limit and
// the time they leave: equality saturation from the input graph with the eqsat options; its
// extracted graph joins the final e-graph. Whichever graph the final extraction takes, the
// report's rules_used counts the rules the pipeline chose: each step the tree search committed
// and each rewrite deriving TASO's graph from the input (when that graph joins); saturation
// chooses none, it applies every rule, and its record (eqsat_pass.rules_used) counts the matches
// of each rule that changed its e-graph.
//
// The result is never worse than any pass's own graph: the tree search's (its final state's dag
// extraction), TASO's and saturation's; the cheapest is StrategyResult::fallback (the record's
// "fallback" names its pass), which the optimizer keeps when the final extraction is not
// cheaper. Running the searches side by side does not change either one's result (each is
// deterministic for its thread count alone).
#pragma once

#include <cstddef>
#include <optional>

#include "search/eqsat.hpp"
#include "search/mcts.hpp"
#include "search/strategy.hpp"
#include "search/taso.hpp"
#include "support/enum_names.hpp"

namespace mctsat::search {

// Whether and where TASO's best graph joins the tree search's e-graphs (see above).
enum class TasoGraph { kNone, kSeed, kFinal };
inline constexpr EnumNames<TasoGraph, 3> kTasoGraphNames{
    {{TasoGraph::kNone, "none"}, {TasoGraph::kSeed, "seed"}, {TasoGraph::kFinal, "final"}}};

// TASO's pass in the pipeline: the registry's taso_graph and taso_patience, declared here once.
// The pass's other settings are the taso options (budget, alpha, max_ops_factor). Its patience is
// the pass's own: the taso strategy, as TASO, runs without one (TasoOptions::patience stays 0).
struct TasoPass {
  TasoGraph graph = TasoGraph::kFinal;
  std::size_t patience = 30;  // explored graphs without a new best graph (0: none)
};

class MctsWithTaso final : public Strategy {
 public:
  static constexpr StrategyTraits kTraits{.name = "mcts",
                                          .iteration = "step",
                                          .uses_reward = true,
                                          .builds_egraph = true,
                                          .seeded = true,
                                          .commits_rules = true,
                                          .step_hooks = true};

  // TASO's pass runs with `taso`, its patience replaced by the pass's; the saturation pass, when
  // `saturation` is set, with its options.
  MctsWithTaso(MctsOptions mcts, TasoOptions taso, TasoPass pass,
               std::optional<EqsatOptions> saturation);
  const StrategyTraits& traits() const override { return kTraits; }
  // Record: "mcts" (search_records.hpp), "taso" when TASO's pass ran, "eqsat_pass" when the
  // saturation pass ran (eqsat_pass.hpp).
  StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const override;

 private:
  MctsOptions mcts_;
  TasoOptions taso_;
  TasoGraph taso_graph_;
  std::optional<EqsatOptions> saturation_;
};

}  // namespace mctsat::search
