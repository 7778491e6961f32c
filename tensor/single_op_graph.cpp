// A graph of one operator instance (see single_op_graph.hpp).
#include "tensor/single_op_graph.hpp"

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tensor/interpreter.hpp"

namespace mctsat::tensor {

Graph single_op_graph(const OpInstance& instance,
                      const std::function<bool(Op, std::size_t)>& is_weight) {
  constexpr std::uint64_t kSeed = 1;
  Graph graph;
  std::vector<TensorRef> operands;
  for (std::size_t i = 0; i < instance.inputs.size(); ++i) {
    Node leaf;
    leaf.name = fmt::format("operand{}", i);
    leaf.leaf_dtype = instance.inputs[i].dtype;
    leaf.attrs = {instance.inputs[i].shape};
    if (is_weight(instance.op, i)) {
      leaf.op = Op::kWeight;
      Tensor value = random_tensor(instance.inputs[i].shape, kSeed, leaf.name);
      if (instance.op == Op::kBatchNorm)
        for (double& v : value.data) v = 1.5 + v;
      leaf.value = std::make_shared<const Tensor>(std::move(value));
    }
    operands.push_back({graph.add_node(std::move(leaf)), 0});
  }
  Node node;
  node.name = std::string(op_name(instance.op));
  node.op = instance.op;
  node.inputs = operands;
  node.attrs = instance.attrs;
  const NodeId id = graph.add_node(std::move(node));
  for (std::uint32_t i = 0; i < instance.outputs.size(); ++i)
    graph.add_output(fmt::format("out{}", i), {id, i});
  graph.infer_and_validate();
  return graph;
}

}  // namespace mctsat::tensor
