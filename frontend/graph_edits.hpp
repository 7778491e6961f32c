// Editing a graph in place, for the pattern rewriters over imported graphs (the recognisers of
// decomposed operators and of attention, the ONNX Runtime lowering): new nodes under names no
// node has, weights with values, and a node turned into another operator under its own name (its
// readers read the new operator). New and turned nodes get their types at the next
// infer_and_validate.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// `base`, or `base_1`, `base_2`, ... : the first no node of `graph` has.
inline std::string unused_name(const tensor::Graph& graph, const std::string& base) {
  std::string name = base;
  for (int k = 1; graph.find(name); ++k) name = fmt::format("{}_{}", base, k);
  return name;
}

// Adds `node` under an unused name made from its name; its first output.
inline tensor::TensorRef add_named(tensor::Graph& graph, tensor::Node node) {
  node.name = unused_name(graph, node.name);
  return {graph.add_node(std::move(node)), 0};
}

inline tensor::TensorRef add_operator(tensor::Graph& graph, const std::string& name, tensor::Op op,
                                      std::vector<tensor::TensorRef> inputs, tensor::Attrs attrs) {
  tensor::Node node;
  node.name = name;
  node.op = op;
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  return add_named(graph, std::move(node));
}

inline tensor::TensorRef add_weight(tensor::Graph& graph, const std::string& name,
                                    tensor::Tensor value,
                                    tensor::DType dtype = tensor::DType::kFloat32) {
  tensor::Node node;
  node.name = name;
  node.op = tensor::Op::kWeight;
  node.attrs = {value.shape};
  node.leaf_dtype = dtype;
  node.outputs = {tensor::TensorType{value.shape, dtype}};
  node.value = std::make_shared<const tensor::Tensor>(std::move(value));
  return add_named(graph, std::move(node));
}

// Turns node `id` into `op` of `inputs` and `attrs`, keeping its name and output types.
inline void turn_into(tensor::Graph& graph, tensor::NodeId id, tensor::Op op,
                      std::vector<tensor::TensorRef> inputs, tensor::Attrs attrs) {
  tensor::Node& node = graph.nodes()[id];
  node.op = op;
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  node.opaque.reset();
  node.value.reset();
}

}  // namespace mctsat::frontend
