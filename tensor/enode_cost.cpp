// E-node costs: the OpInstance of an e-node from its children's analysis data.
#include "tensor/enode_cost.hpp"

#include <boost/container/small_vector.hpp>

namespace mctsat::tensor {

double enode_cost(const egraph::EGraph<TensorAnalysis>& egraph, Id node, const CostModel& model) {
  const egraph::ENodeRef enode = egraph.node(node);
  const auto op = tensor_op(enode.op);
  if (!op || signature(*op).view || *op == Op::kInput || *op == Op::kWeight) return 0.0;
  boost::container::small_vector<const TensorData*, 8> children;
  for (Id child : enode.children) children.push_back(&egraph.data(child));
  return enode_cost(egraph.analysis(), enode,
                    std::span<const TensorData* const>(children.data(), children.size()),
                    egraph.data(node), model);
}

double enode_cost(const TensorAnalysis& analysis, const egraph::ENodeRef& enode,
                  std::span<const TensorData* const> children, const TensorData& data,
                  const CostModel& model) {
  const auto op = tensor_op(enode.op);
  if (!op || signature(*op).view || *op == Op::kInput || *op == Op::kWeight) return 0.0;

  bool weight_only = *op != Op::kOpaque;
  bool any_tensor = false;
  for (const TensorData* child : children) {
    if (child->is_tensor()) {
      any_tensor = true;
      weight_only = weight_only && child->weight_only;
    }
  }
  if (weight_only && any_tensor) return 0.0;

  std::vector<TensorType> inputs;
  Attrs attrs;
  const bool ok = analysis.operands(enode, children, inputs, attrs);
  MCTSAT_ASSERT(ok && "an e-node of the e-graph has operands of the wrong kind");
  const std::vector<TensorType> outputs = analysis.output_types(data);
  return checked_cost(model, OpInstance{*op, inputs, attrs, outputs});
}

}  // namespace mctsat::tensor
