// Who reads each node of a graph, and what a node is, for the pattern matchers over imported
// graphs (the recognisers of decomposed operators and of attention, the ONNX Runtime lowering): a
// matched pattern's inner tensors must be read only inside it. The reader index is built once in
// O(nodes + edges); every query is O(1).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

class GraphReaders {
 public:
  static constexpr tensor::NodeId kNone = static_cast<tensor::NodeId>(-1);

  explicit GraphReaders(const tensor::Graph& graph) : readers_(graph.size()), uses_(graph.size()) {
    for (tensor::NodeId id = 0; id < graph.size(); ++id)
      for (const tensor::TensorRef& in : graph.node(id).inputs) {
        readers_[in.node].push_back(id);
        ++uses_[in.node];
      }
    for (const auto& out : graph.outputs()) ++uses_[out.tensor.node];
  }

  // The nodes reading `id`, once per input slot that reads it.
  const std::vector<tensor::NodeId>& of(tensor::NodeId id) const { return readers_[id]; }
  // The input slots and graph outputs that read `id`.
  std::size_t uses(tensor::NodeId id) const { return uses_[id]; }
  bool is_output(tensor::NodeId id) const { return uses_[id] > readers_[id].size(); }
  // The node that alone reads `id`, once, where no graph output does; else kNone.
  tensor::NodeId sole_reader(tensor::NodeId id) const {
    return uses_[id] == 1 && readers_[id].size() == 1 ? readers_[id][0] : kNone;
  }

 private:
  std::vector<std::vector<tensor::NodeId>> readers_;
  std::vector<std::size_t> uses_;
};

// The value of `ref` when it is a one-element weight with values.
inline std::optional<double> scalar_weight(const tensor::Graph& graph, tensor::TensorRef ref) {
  const tensor::Node& node = graph.node(ref.node);
  if (node.op != tensor::Op::kWeight || !node.value || node.value->size() != 1) return std::nullopt;
  return node.value->data[0];
}

// Whether `ref` is the one output of an opaque operator of ONNX type `type`.
inline bool opaque_of(const tensor::Graph& graph, tensor::TensorRef ref, std::string_view type) {
  const tensor::Node& node = graph.node(ref.node);
  return node.op == tensor::Op::kOpaque && node.opaque && node.opaque->type == type &&
         node.outputs.size() == 1;
}

// Whether `ref` is a float32 weight with values, of rank `rank`.
inline bool valued_weight(const tensor::Graph& graph, tensor::TensorRef ref, std::size_t rank) {
  const tensor::Node& node = graph.node(ref.node);
  return node.op == tensor::Op::kWeight && node.value && node.value->shape.size() == rank &&
         node.outputs[0].dtype == tensor::DType::kFloat32;
}

}  // namespace mctsat::frontend
