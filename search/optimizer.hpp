// The optimizer: a graph in, the cheapest equivalent graph found out. It builds the e-graph,
// grows it with the chosen strategy (eqsat: TENSAT's saturation; mcts: the PACT'24 paper's tree
// search with a reward extractor; greedy: the best single rule at a time; taso: TASO's
// backtracking search over concrete graphs, whose best graph becomes a single-graph e-graph),
// extracts with the final extractor, and builds the optimized graph. One code path for every
// strategy, so that they compare under the same rules, cost model and extraction.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/lowering.hpp"
#include "extract/extractor.hpp"
#include "search/eqsat.hpp"
#include "search/mcts.hpp"
#include "search/progress.hpp"
#include "search/taso.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

struct OptimizeOptions {
  // eqsat | mcts | greedy (mcts's node and step limits apply) | taso (mcts's time limit applies)
  std::string strategy = "mcts";
  // The mcts reward extractor. The paper rewards with its OCF ("paper"); ours defaults to "dag",
  // which sees merges whose pay-off needs several classes to switch together (under the roofline
  // model the paper's OCF misses BERT's fused projections entirely: 0% vs 41.6%).
  std::string extract = "dag";
  std::string final_extract = "ilp";  // final extraction
  // mcts: whether to also run TASO's backtracking search first (`taso` options, at most half the
  // mcts time budget; its time counts against that budget) and add its best graph to an e-graph,
  // merged with the input graph at the roots: "none" does not run it; "seed" adds it to the initial
  // e-graph (the tree search starts from it); "final" adds it to the e-graph the tree search ends
  // with, just before the final extraction. With either, the result is never worse than TASO's
  // graph (which is kept when the final extraction is not cheaper).
  std::string taso_graph = "final";
  extract::ExtractorOptions extractor;
  EqsatOptions eqsat;
  MctsOptions mcts;
  TasoOptions taso;
  // Reported by every strategy (it overrides the strategies' own `progress` callbacks).
  ProgressCallback progress;
  // Called with the e-graph the final extractor sees, just before it extracts (e.g. to export it).
  std::function<void(const tensor::TensorEGraph&)> final_egraph;
};

struct OptimizeResult {
  tensor::Graph graph;  // the optimized graph (validated)
  double original_cost = 0;
  double optimized_cost = 0;  // graph_cost of `graph` under the model
  double exploration_seconds = 0;
  double extraction_seconds = 0;
  std::size_t nodes = 0, classes = 0,
              iterations = 0;  // e-graph size; eqsat iterations, mcts/greedy steps, taso graphs
  std::string stop_reason;
  std::vector<std::pair<std::string, std::size_t>>
      rules_used;              // rule -> times it changed the e-graph
  extract::Result extraction;  // the final extraction
  bool kept_original = false;  // the extraction was no cheaper than the input graph
  bool kept_taso = false;      // taso_graph: the extraction was no cheaper than TASO's graph
  MctsResult mcts;             // mcts only: the search's record (state moved out)
  TasoResult taso;  // taso and taso_graph: the search's record (its best graph moved out)

  double speedup_percent() const {
    return optimized_cost > 0 ? 100.0 * (original_cost / optimized_cost - 1.0) : 0.0;
  }
};

// Throws mctsat::Error for unknown strategies or extractors.
OptimizeResult optimize(const tensor::Graph& graph, const dsl::RuleSet& rules,
                        const tensor::CostModel& model, const OptimizeOptions& options);

std::vector<std::string> strategy_names();
std::vector<std::string> taso_graph_modes();  // none, seed, final

}  // namespace mctsat::search
