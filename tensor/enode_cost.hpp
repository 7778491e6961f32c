// The cost of one e-node of a tensor e-graph under a CostModel, priced like the same node in a
// Graph (cost_model.hpp): literals, proj, inputs, weights, views and weight-only e-nodes (every
// tensor input weight-only: pre-computed, as in TASO) cost 0. Extraction calls it for every
// e-node.
#pragma once

#include "egraph/egraph.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/tensor_analysis.hpp"

namespace mctsat::tensor {

// Estimated milliseconds of e-node `node` (live, in a clean or dirty e-graph). Throws
// mctsat::Error when the model cannot price the operator.
double enode_cost(const egraph::EGraph<TensorAnalysis>& egraph, Id node, const CostModel& model);

// The same price of an e-node that need not be in an e-graph: its children's data and its own
// (its class's), e.g. an e-node a rewrite would add (search/match_candidate.hpp).
double enode_cost(const TensorAnalysis& analysis, const egraph::ENodeRef& enode,
                  std::span<const TensorData* const> children, const TensorData& data,
                  const CostModel& model);

}  // namespace mctsat::tensor
