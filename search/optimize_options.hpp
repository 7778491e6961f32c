// Every option of one optimization: the strategy, the reward and final extractors, the limits all
// strategies share, and each strategy's own options. Each field is declared as a user-facing
// option once, in the option registry (option_registry.hpp), from which the CLI flags, the bench
// parameters, the study schema and the report's echo are made.
#pragma once

#include <functional>

#include "extract/extractor.hpp"
#include "search/eqsat.hpp"
#include "search/greedy.hpp"
#include "search/mcts.hpp"
#include "search/mcts_with_taso.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "search/strategy.hpp"
#include "search/taso.hpp"
#include "support/enum_names.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

struct OptimizeOptions {
  StrategyKind strategy = StrategyKind::kMcts;
  // The mcts and greedy reward extractor. The paper rewards with its OCF (kPaper); ours defaults
  // to kDag, which sees merges whose pay-off needs several classes to switch together.
  extract::ExtractorKind extract = extract::ExtractorKind::kDag;
  extract::ExtractorKind final_extract = extract::ExtractorKind::kIlp;
  extract::ExtractorOptions extractor;  // both extractors'
  SearchLimits limits;
  EqsatOptions eqsat;
  MctsOptions mcts;        // greedy reads its PlanLimits (step and e-node limits)
  TasoOptions taso;        // the taso strategy's, and mcts's TASO pass's
  TasoPass taso_pass;      // mcts: where TASO's pass joins and its patience (mcts_with_taso.hpp)
  bool eqsat_pass = true;  // mcts: run the saturation pass with `eqsat` (eqsat_pass.hpp)
  // A graph of more than twice this many operators is searched by regions of at most this many
  // (region_search.hpp); 0: always whole.
  std::size_t region_ops = 200;
  // Reported by every strategy (it overrides the strategies' own `progress` callbacks).
  ProgressCallback progress;
  // Called with the e-graph the final extractor sees, just before it extracts (e.g. to export it).
  std::function<void(const tensor::TensorEGraph&)> final_egraph;
};

}  // namespace mctsat::search
