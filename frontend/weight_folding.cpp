// Weight folding (see weight_folding.hpp).
#include "frontend/weight_folding.hpp"

#include <memory>
#include <optional>

#include "support/error.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::frontend {

using tensor::Graph;
using tensor::Node;
using tensor::NodeId;
using tensor::Op;
using tensor::TensorRef;

tensor::Graph fold_weights(const tensor::Graph& graph) {
  const std::vector<NodeId> order = graph.topological_order();
  // The value of every single-output node computable from weights with values.
  std::vector<std::shared_ptr<const tensor::Tensor>> value(graph.size());
  for (NodeId id : order) {
    const Node& node = graph.node(id);
    if (node.op == Op::kWeight) {
      value[id] = node.value;
      continue;
    }
    if (node.op == Op::kInput || node.op == Op::kOpaque || node.op == Op::kNoop ||
        node.outputs.size() != 1 || node.inputs.empty())
      continue;
    std::vector<tensor::Tensor> args;
    for (const TensorRef& in : node.inputs) {
      if (!value[in.node] || graph.node(in.node).outputs.size() != 1) break;
      args.push_back(*value[in.node]);
    }
    if (args.size() != node.inputs.size()) continue;
    try {
      value[id] = std::make_shared<const tensor::Tensor>(
          std::move(tensor::evaluate_op(node.op, args, node.attrs, node.outputs).at(0)));
    } catch (const Error& error) {
      throw error.located(SourceLocation::at_node(node.name));
    }
  }
  auto folded = [&](NodeId id) { return value[id] && graph.node(id).op != Op::kWeight; };

  // Nodes the outputs need, not looking behind folded ones; graph inputs always.
  std::vector<bool> needed(graph.size(), false);
  for (const auto& out : graph.outputs()) needed[out.tensor.node] = true;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (graph.node(*it).op == Op::kInput) needed[*it] = true;
    if (!needed[*it] || folded(*it)) continue;
    for (const TensorRef& in : graph.node(*it).inputs) needed[in.node] = true;
  }

  // The kept nodes stay in their original order (graph inputs keep their order).
  Graph result;
  std::vector<NodeId> new_id(graph.size(), 0);
  NodeId next = 0;
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (needed[id]) new_id[id] = next++;
  }
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (!needed[id]) continue;
    const Node& node = graph.node(id);
    Node copy;
    if (folded(id)) {
      copy.name = node.name;
      copy.op = Op::kWeight;
      copy.attrs = {value[id]->shape};
      copy.value = value[id];
      copy.leaf_dtype = node.outputs.at(0).dtype;
      copy.outputs = node.outputs;
    } else {
      copy = node;
      for (TensorRef& in : copy.inputs) in.node = new_id[in.node];
    }
    result.add_node(std::move(copy));
  }
  for (const auto& out : graph.outputs())
    result.add_output(out.name, {new_id[out.tensor.node], out.tensor.output});
  result.infer_and_validate();
  return result;
}

std::vector<std::string> operators_over_unvalued_weights(const tensor::Graph& graph) {
  const Graph folded = fold_weights(graph);
  std::vector<bool> from_weights(folded.size(), false);
  std::vector<std::string> ops;
  for (NodeId id : folded.topological_order()) {
    const Node& node = folded.node(id);
    if (node.op == Op::kWeight) {
      from_weights[id] = true;
      continue;
    }
    if (node.op == Op::kInput || node.op == Op::kOpaque || node.inputs.empty()) continue;
    bool all = true;
    for (const TensorRef& in : node.inputs) all = all && from_weights[in.node];
    if (!all) continue;
    from_weights[id] = true;
    ops.emplace_back(tensor::op_name(node.op));
  }
  return ops;
}

}  // namespace mctsat::frontend
