// A tensor e-graph as an egraph-serialize document (egraph/serialize.hpp), priced as extraction
// prices it: each e-node costs tensor::enode_cost under the model, literal e-nodes cost 0.
// Literal lists keep their children (the integer literals; problem_from_tensor drops them, but
// they cost nothing and name the list's value). Extracting the document (`mctsat extract FILE`)
// therefore has the same optimum as extracting the e-graph in memory, though heuristics may break
// ties differently with the file's node order.
#pragma once

#include "egraph/serialize.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::extract {

// The e-graph must be clean. Operators are named by their opcode, with "/<payload>" when the
// payload is not 0 (so that two inputs, two literals or two projections stay distinct e-nodes).
// Throws mctsat::Error when the model cannot price an e-node.
egraph::SerializedEGraph export_tensor_egraph(const tensor::TensorEGraph& teg,
                                              const tensor::CostModel& model);

}  // namespace mctsat::extract
