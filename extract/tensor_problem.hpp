// Extraction on tensor e-graphs: the problem of a TensorEGraph under a CostModel (each e-node
// priced by tensor::enode_cost; literal e-nodes are zero-cost leaves, their values being read from
// the analysis data), and the conversions between a problem's Choice and a tensor::Selection, so
// that `tensor::build_graph(egraph, to_selection(...))` turns an extraction into a Graph whose
// graph_cost is the extraction's dag_cost.
#pragma once

#include "extract/dag_cost.hpp"
#include "extract/enode_cost_cache.hpp"
#include "extract/problem.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::extract {

// The e-graph must be clean. Throws mctsat::Error when the model cannot price an e-node.
Problem problem_from_tensor(const tensor::TensorEGraph& egraph, const tensor::CostModel& model);
// The same problem, its e-nodes priced through a memo (under the memo's cost model).
Problem problem_from_tensor(const tensor::TensorEGraph& egraph, EnodeCostCache& costs);

// The selection (indexed by e-class id) of a choice of a problem built from this e-graph.
tensor::Selection to_selection(const Problem& problem, const Choice& choice,
                               const tensor::TensorEGraph& egraph);
// The choice of a selection: kNone for classes whose selected e-node is not in the problem.
Choice choice_from_selection(const Problem& problem, const tensor::Selection& selection);

}  // namespace mctsat::extract
