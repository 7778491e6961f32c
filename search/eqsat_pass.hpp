// The default pipeline's saturation pass: TENSAT's equality saturation (eqsat.hpp, with the eqsat
// options: node and iteration limits, multi-pattern rules in the first k iterations) from the
// input graph, its e-graph extracted by the dag extractor, the graph returned for the final
// e-graph. It finds what a rule-at-a-time search does not: rewrites that pay off only together,
// such as a layer's elementwise operators batched pairwise through concat and split, each of
// which alone adds operators and gains nothing, are all applied by saturation's multi-pattern
// iteration at once. Deterministic (the runner's matching results do not depend on the thread
// count); cost: the saturation, bounded by the node limit, and one dag extraction.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "dsl/lowering.hpp"
#include "search/eqsat.hpp"
#include "search/search_limits.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

struct EqsatPassResult {
  // The extracted graph; none when the extraction found no acyclic graph.
  std::optional<tensor::Graph> graph;
  double cost = 0;  // its cost (tensor::graph_cost) when there is one
  // iterations, nodes, stop_reason, cost_ms (null without a graph), seconds, rules_used (the
  // rules whose matches changed its e-graph: [{rule, count}], count = how many matches did).
  nlohmann::json record;
};

// Limits: seconds, memory_bytes (the e-graph's; the dag extractor's class sets get a quarter),
// threads (matching) and cycle_filter, as for the eqsat strategy.
EqsatPassResult run_eqsat_pass(const tensor::Graph& graph, const dsl::RuleSet& rules,
                               const tensor::CostModel& model, const EqsatOptions& options,
                               const SearchLimits& limits);

}  // namespace mctsat::search
