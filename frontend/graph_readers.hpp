// Who reads each node of a graph, for the pattern matchers over imported graphs (the recogniser of
// decomposed operators, the ONNX Runtime lowering): a matched pattern's inner tensors must be read
// only inside it. Built once in O(nodes + edges); every query is O(1).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
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

// Whether `ref` is a weight with values, all zero.
inline bool zero_weight(const tensor::Graph& graph, tensor::TensorRef ref) {
  const tensor::Node& node = graph.node(ref.node);
  return node.op == tensor::Op::kWeight && node.value &&
         std::all_of(node.value->data.begin(), node.value->data.end(),
                     [](double x) { return x == 0; });
}

}  // namespace mctsat::frontend
