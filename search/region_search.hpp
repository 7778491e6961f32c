// The search of a large graph by regions: a graph of more than twice `region_ops` operators is cut
// into regions of at most `region_ops` (tensor/graph_regions.hpp: cut where the fewest tensors
// cross, so between layers), each region is optimized on its own as a standalone graph with the
// same options, regions of the same structure (a network's repeated layers) are optimized once and
// the result reused, and the optimized regions are joined back. The search's cost then grows with
// the number of distinct regions instead of faster than linearly with the whole graph; rewrites
// that span a cut are not found.
//
// Budgets are shared among the distinct regions in proportion to their operators: the wall-clock
// `--seconds`, the work budget (`--work`) and the ILP extractor's time limit (`--ilp-seconds`).
// Regions are searched one after another, in order, so the result is as deterministic as each
// region's search.
#pragma once

#include <optional>

#include "search/optimizer.hpp"

namespace mctsat::search {

// One region's budgets: `share` (0 < share <= 1) of the wall-clock seconds, the ILP's time limit
// and a work budget (at least 1 unit; an unlimited one stays unlimited).
void share_budgets(OptimizeOptions& options, double share);

// The optimization by regions, each region's by `strategy`, or nullopt when the graph is not cut
// (region_ops is 0, or the graph has at most twice region_ops operators).

std::optional<OptimizeResult> optimize_by_regions(const tensor::Graph& graph,
                                                  const dsl::RuleSet& rules,
                                                  const tensor::CostModel& model,
                                                  const OptimizeOptions& options,
                                                  const Strategy& strategy);

}  // namespace mctsat::search
