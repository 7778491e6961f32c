// Canonical forms of imported graphs (see canonical_forms.hpp).
#include "frontend/canonical_forms.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "frontend/weight_folding.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Activation;
using tensor::Graph;
using tensor::Node;
using tensor::NodeId;
using tensor::Op;
using tensor::TensorRef;

constexpr double kCatalogEpsilon = 1e-5;  // the catalog's batchnorm

// The attribute slot of a fused activation, for the operators that have one here.
std::optional<std::size_t> activation_slot(Op op) {
  if (op == Op::kConv2d) return 3;
  if (op == Op::kMatmul) return 0;
  if (op == Op::kPoolMax || op == Op::kPoolAvg) return 5;
  return std::nullopt;
}

std::optional<Activation> activation_of(Op op) {
  if (op == Op::kRelu) return Activation::kRelu;
  if (op == Op::kSigmoid) return Activation::kSigmoid;
  if (op == Op::kTanh) return Activation::kTanh;
  return std::nullopt;
}

class Canonicalizer {
 public:
  Canonicalizer(const Graph& graph, const std::set<std::string>& fused_activations)
      : graph_(graph), alias_(graph.size()), fused_activations_(fused_activations) {
    for (const Node& node : graph_.nodes()) {
      names_.insert(node.name);
      for (const TensorRef& in : node.inputs) ++uses_[in];
    }
    for (const auto& out : graph_.outputs()) ++uses_[out.tensor];
  }

  Graph run() {
    const std::vector<NodeId> order = graph_.topological_order();
    for (NodeId id : order) {
      if (graph_.node(id).op == Op::kBatchNorm) fold_batchnorm(id);
    }
    for (NodeId id : order) {
      if (activation_of(graph_.node(id).op) && fused_activations_.count(graph_.node(id).name))
        fuse_activation(id);
    }
    for (Node& node : graph_.nodes()) {
      for (TensorRef& in : node.inputs) in = resolve(in);
      // A bias or scale operand second: PyTorch writes Add(bias, x), tf2onnx Add(x, bias), the
      // rules match the second form.
      if ((node.op == Op::kEwAdd || node.op == Op::kEwMul) &&
          graph_.node(node.inputs[0].node).op == Op::kWeight &&
          graph_.node(node.inputs[1].node).op != Op::kWeight)
        std::swap(node.inputs[0], node.inputs[1]);
    }
    Graph result;
    for (Node& node : graph_.nodes()) result.add_node(std::move(node));
    for (const auto& out : graph_.outputs()) result.add_output(out.name, resolve(out.tensor));
    result.infer_and_validate();
    return fold_weights(result);
  }

 private:
  TensorRef resolve(TensorRef ref) const {
    while (ref.output == 0 && alias_[ref.node]) ref = *alias_[ref.node];
    return ref;
  }
  int uses(TensorRef ref) const {
    const auto found = uses_.find(ref);
    return found == uses_.end() ? 0 : found->second;
  }
  Node& node(NodeId id) { return graph_.nodes()[id]; }
  const tensor::Tensor* value_of(TensorRef ref) const {
    const Node& n = graph_.node(ref.node);
    return n.op == Op::kWeight ? n.value.get() : nullptr;
  }
  bool unfused(NodeId id) const {
    const Node& n = graph_.node(id);
    const auto slot = activation_slot(n.op);
    return slot &&
           tensor::attr_int(n.attrs.at(*slot)) == static_cast<std::int64_t>(Activation::kNone);
  }

  std::string fresh_name(const std::string& base) {
    std::string name = base;
    for (int k = 1; names_.count(name); ++k) name = fmt::format("{}_{}", base, k);
    names_.insert(name);
    return name;
  }
  TensorRef add_weight(const std::string& base, tensor::Tensor value, tensor::DType dtype) {
    Node weight;
    weight.name = fresh_name(base);
    weight.op = Op::kWeight;
    weight.attrs = {value.shape};
    weight.leaf_dtype = dtype;
    weight.outputs = {tensor::TensorType{value.shape, dtype}};
    weight.value = std::make_shared<const tensor::Tensor>(std::move(value));
    graph_.add_node(std::move(weight));
    alias_.emplace_back();
    return {static_cast<NodeId>(graph_.size() - 1), 0};
  }

  // batchnorm(conv2d(x, w) [+ b], scale, beta, mean, var) -> conv2d(x, w * s) + b'.
  void fold_batchnorm(NodeId id) {
    const Node& bn = graph_.node(id);
    const TensorRef x = bn.inputs[0];
    if (x.output != 0 || uses(x) != 1) return;
    NodeId conv = x.node;
    const tensor::Tensor* bias = nullptr;
    if (graph_.node(conv).op == Op::kEwAdd) {
      const Node& add = graph_.node(conv);
      for (int k = 0; k < 2 && !bias; ++k) {
        const TensorRef operand = add.inputs[k], other = add.inputs[1 - k];
        if (graph_.node(operand.node).op == Op::kConv2d && operand.output == 0 &&
            uses(operand) == 1 && value_of(other)) {
          conv = operand.node;
          bias = value_of(other);
        }
      }
      if (!bias) return;
    }
    if (graph_.node(conv).op != Op::kConv2d || !unfused(conv)) return;
    const tensor::Tensor* kernel = value_of(graph_.node(conv).inputs[1]);
    if (!kernel) return;
    const std::int64_t channels = kernel->shape[0];
    const tensor::Shape out_shape = graph_.type_of({conv, 0}).shape;
    // A bias must be one value per output channel, broadcast over the image.
    if (bias && (tensor::numel(bias->shape) != channels ||
                 tensor::numel(graph_.type_of(bn.inputs[0]).shape) != tensor::numel(out_shape)))
      return;
    if (bias && (bias->shape.size() < 3 || bias->shape[bias->shape.size() - 1] != 1 ||
                 bias->shape[bias->shape.size() - 2] != 1))
      return;
    const tensor::Tensor* params[4];
    for (int k = 0; k < 4; ++k) {
      params[k] = value_of(bn.inputs[static_cast<std::size_t>(k + 1)]);
      if (!params[k] || tensor::numel(params[k]->shape) != channels) return;
    }
    const auto& [scale, beta, mean, var] = params;
    tensor::Tensor folded_kernel = *kernel;
    tensor::Tensor folded_bias(tensor::Shape{channels, 1, 1});
    const std::size_t per_channel = kernel->size() / static_cast<std::size_t>(channels);
    for (std::size_t c = 0; c < static_cast<std::size_t>(channels); ++c) {
      const double s = scale->data[c] / std::sqrt(var->data[c] + kCatalogEpsilon);
      for (std::size_t i = 0; i < per_channel; ++i) folded_kernel.data[c * per_channel + i] *= s;
      folded_bias.data[c] = ((bias ? bias->data[c] : 0.0) - mean->data[c]) * s + beta->data[c];
    }
    const Node& w = graph_.node(graph_.node(conv).inputs[1].node);
    const std::string bn_name = bn.name;
    const tensor::DType dtype = graph_.type_of(x).dtype;
    const TensorRef new_kernel =
        add_weight(w.name + "/batchnorm_folded", std::move(folded_kernel), w.leaf_dtype);
    const TensorRef new_bias = add_weight(bn_name + "/bias", std::move(folded_bias), dtype);
    node(conv).inputs[1] = new_kernel;
    Node& add = node(id);  // the batchnorm node becomes the bias add, keeping its name
    add.op = Op::kEwAdd;
    add.inputs = {{conv, 0}, new_bias};
    add.attrs.clear();
    uses_[{conv, 0}] = 1;
  }

  // act(op(...)) -> op(..., act) when op's output is read by the activation alone.
  void fuse_activation(NodeId id) {
    const TensorRef x = resolve(graph_.node(id).inputs[0]);
    if (x.output != 0 || uses(x) != 1 || !unfused(x.node)) return;
    Node& fused = node(x.node);
    fused.attrs[*activation_slot(fused.op)] =
        static_cast<std::int64_t>(*activation_of(graph_.node(id).op));
    alias_[id] = x;
    uses_[x] = uses({id, 0});
  }

  Graph graph_;
  std::vector<std::optional<TensorRef>> alias_;  // a fused activation's output is its operand's
  std::map<TensorRef, int> uses_;                // readers of a tensor, graph outputs included
  std::set<std::string> names_;
  const std::set<std::string>& fused_activations_;
};

}  // namespace

Graph to_canonical_forms(const Graph& graph, const std::set<std::string>& fused_activations) {
  return Canonicalizer(graph, fused_activations).run();
}

}  // namespace mctsat::frontend
