// The optimizer: a graph in, the cheapest equivalent graph found out. It runs the chosen strategy
// (strategy.hpp) to grow an e-graph, extracts with the final extractor, and builds the optimized
// graph; the result is never costlier than the input (nor than the strategy's fallback graph).
// One code path for every strategy, so that they compare under the same rules, cost model and
// extraction. A graph of more than twice `region_ops` operators is searched by regions
// (region_search.hpp).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/lowering.hpp"
#include "extract/extractor.hpp"
#include "search/optimize_options.hpp"
#include "search/strategy.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

struct OptimizeResult {
  tensor::Graph graph;  // the optimized graph (validated)
  // The input's and `graph`'s costs as the model's runtime runs them (as_run_cost; graph_cost
  // unless the model says its runtime fuses operators).
  double original_cost = 0;
  double optimized_cost = 0;
  double exploration_seconds = 0;
  double extraction_seconds = 0;
  std::size_t nodes = 0, classes = 0;  // the final e-graph's size
  StrategyTraits strategy;             // the strategy that ran
  std::size_t iterations = 0;          // in the strategy's unit (strategy.iteration)
  StopReason stop = StopReason::kStopped;
  std::vector<std::pair<std::string, std::size_t>> rules_used;  // rule -> times it changed things
  extract::Result extraction;                                   // the final extraction
  bool kept_original = false;  // the extraction was no cheaper than the input graph
  bool kept_fallback = false;  // it was no cheaper than the strategy's fallback graph
  nlohmann::json record = nlohmann::json::object();  // the strategy's (StrategyResult::record)
  // Searched by regions (region_search.hpp; then nodes, classes and iterations are the regions'
  // sums, and `record` is the last distinct region's): the regions, and those of distinct
  // structure.
  std::size_t regions = 0, distinct_regions = 0;

  double speedup_percent() const {
    return optimized_cost > 0 ? 100.0 * (original_cost / optimized_cost - 1.0) : 0.0;
  }
};

// Runs the strategy options.strategy names (strategies.hpp).
OptimizeResult optimize(const tensor::Graph& graph, const dsl::RuleSet& rules,
                        const tensor::CostModel& model, const OptimizeOptions& options);

// Runs `strategy` (options.strategy and the strategies' own options are not read; the extractors,
// limits and hooks are).
OptimizeResult optimize(const tensor::Graph& graph, const dsl::RuleSet& rules,
                        const tensor::CostModel& model, const OptimizeOptions& options,
                        const Strategy& strategy);

}  // namespace mctsat::search
