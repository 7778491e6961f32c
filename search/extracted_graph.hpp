// The cheapest acyclic graph the dag extractor finds in an e-graph, built, with its cost: how the
// default search's passes turn an e-graph of their own (saturation's, the tree search's final
// state) into a candidate for the final result. Deterministic; costs one dag extraction.
#pragma once

#include <cstddef>
#include <optional>

#include "tensor/cost_model.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

struct ExtractedGraph {
  tensor::Graph graph;
  double cost = 0;  // tensor::graph_cost of it
};

// None when the extraction finds no acyclic graph. `memory_bytes` bounds the dag extractor's class
// sets (a quarter of it).
std::optional<ExtractedGraph> dag_extracted_graph(const tensor::TensorEGraph& state,
                                                  const tensor::CostModel& model,
                                                  std::size_t memory_bytes);

}  // namespace mctsat::search
