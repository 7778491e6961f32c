// A large graph cut into regions that can be optimized separately, and the regions' optimized
// graphs joined back into one graph. Used by the search to scale to thousands of operators
// (search/region_search.hpp): the search's cost grows faster than linearly with the graph, and a
// network's repeated layers become regions with the same structure, solved once.
//
// Cutting: the operators in an order where each follows its inputs (the graph's node order when it
// is one, as builders and importers write it, else the topological order), cut into consecutive
// runs of at most `max_ops` operators. Where a run ends is chosen among the positions that leave it
// at least half of `max_ops`: the one that the fewest tensors cross (computed before it, used after
// it), the latest of equals. So a stack of layers is cut between layers, where only the hidden
// state crosses, and equal layers give regions of equal structure.
//
// A region is a standalone graph: its operators as in the original; as its leaves, the original
// leaves its operators read (copied) and one leaf per tensor it reads from an earlier region (an
// input, or a weight when that tensor is computed from weights only, so that it stays free and
// the rules see it as a parameter); as its outputs, the tensors later regions or the graph's
// outputs read. Leaves and outputs are listed in the order of first use, so regions of the same
// structure list them alike. `structure_key` is equal for two regions exactly when they are the
// same graph up to names (operators, attributes, types, wiring, leaf kinds, weight values).
//
// Joining: each region's optimized graph (any graph with the same leaves, by name, and the same
// outputs, in order) replaces the region; its leaves are mapped to the joined graph's tensors by
// position in the region's leaf list, so the optimized graph of one region serves every region
// with its structure key. Operator names are kept where unique, else suffixed with the region.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tensor/graph.hpp"

namespace mctsat::tensor {

struct GraphRegion {
  Graph graph;                     // standalone, validated
  std::vector<TensorRef> leaves;   // per leaf of `graph`, in its node order: the original tensor
  std::vector<TensorRef> outputs;  // per output of `graph`, in order: the original tensor
  std::size_t operators = 0;
  std::string structure_key;
};

// The graph's operators (nodes that are not inputs or weights).
std::size_t operator_count(const Graph& graph);

// The graph (validated) cut into regions of at most `max_ops` operators (>= 1). One region when
// the graph has at most `max_ops` operators.
std::vector<GraphRegion> cut_into_regions(const Graph& graph, std::size_t max_ops);

// The original graph with each region replaced by `optimized[i]`, an optimized graph of a region
// with the structure key of regions[i]: region `representative[i]`'s (whose leaves its leaf names
// are). Validated.
Graph join_regions(const Graph& original, const std::vector<GraphRegion>& regions,
                   const std::vector<const Graph*>& optimized,
                   const std::vector<std::size_t>& representative);

}  // namespace mctsat::tensor
