// Recognising exporters' layer normalizations and GELUs (see decomposed_operators.hpp).
#include "frontend/decomposed_operators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include <fmt/format.h>

#include "frontend/onnx_opaque_payload.hpp"
#include "frontend/weight_folding.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Graph;
using tensor::Node;
using tensor::NodeId;
using tensor::Op;
using tensor::TensorRef;

bool near(double value, double target) {
  return std::abs(value - target) <= 1e-6 * std::abs(target);
}

class Recogniser {
 public:
  explicit Recogniser(const Graph& graph) : graph_(graph), readers_(graph.size()) {
    for (NodeId id = 0; id < graph_.size(); ++id)
      for (const TensorRef& in : graph_.node(id).inputs) readers_[in.node].push_back(id);
    for (const auto& out : graph_.outputs()) outputs_.push_back(out.tensor.node);
    for (const Node& node : graph_.nodes()) names_.push_back(node.name);
  }

  RecognisedOperators run() {
    RecognisedOperators result;
    for (NodeId id : graph_.topological_order()) {
      if (opaque_of(id, "ReduceMean") && layer_norm(id)) ++result.layer_norms;
      if (opaque_of(id, "Erf") && gelu(id)) ++result.gelus;
    }
    if (result.layer_norms + result.gelus == 0) {
      result.graph = graph_;
      return result;
    }
    graph_.infer_and_validate();
    result.graph = fold_weights(graph_);
    return result;
  }

 private:
  static constexpr NodeId kNone = static_cast<NodeId>(-1);

  bool opaque_of(NodeId id, std::string_view type) const {
    const Node& node = graph_.node(id);
    return node.op == Op::kOpaque && node.opaque && node.opaque->type == type &&
           node.outputs.size() == 1;
  }
  bool is_output(NodeId id) const { return std::ranges::find(outputs_, id) != outputs_.end(); }
  // The only node reading `id` (which is no graph output), or kNone.
  NodeId sole_reader(NodeId id) const {
    if (is_output(id) || readers_[id].size() != 1) return kNone;
    return readers_[id][0];
  }
  const tensor::Tensor* value_of(TensorRef ref) const {
    const Node& node = graph_.node(ref.node);
    return node.op == Op::kWeight ? node.value.get() : nullptr;
  }
  std::optional<double> scalar(TensorRef ref) const {
    const tensor::Tensor* value = value_of(ref);
    if (!value || value->size() != 1) return std::nullopt;
    return value->data[0];
  }
  // The operand of binary `id` other than `from`, when `from` is exactly one of its operands.
  std::optional<TensorRef> other_operand(NodeId id, NodeId from) const {
    const Node& node = graph_.node(id);
    if (node.inputs.size() != 2 || (node.inputs[0].node == from) == (node.inputs[1].node == from))
      return std::nullopt;
    return node.inputs[node.inputs[0].node == from ? 1 : 0];
  }

  // Whether opaque ReduceMean `id` averages its one graph operand over its last axis only, keeping
  // the dimension.
  bool mean_over_last_axis(NodeId id) const {
    const Node& node = graph_.node(id);
    const auto payload = OpaquePayload::parse(node.opaque->payload);
    if (!payload || node.inputs.empty()) return false;
    const auto rank = static_cast<std::int64_t>(graph_.type_of(node.inputs[0]).shape.size());
    std::vector<std::int64_t> axes;
    bool keepdims = true;
    for (const auto& attribute : payload->node().attribute()) {
      if (attribute.name() == "axes") axes.assign(attribute.ints().begin(), attribute.ints().end());
      if (attribute.name() == "keepdims") keepdims = attribute.i() != 0;
    }
    if (node.inputs.size() == 2) {  // axes as an input (opset 18)
      const tensor::Tensor* value = value_of(node.inputs[1]);
      if (!value) return false;
      axes.assign(value->data.begin(), value->data.end());
    } else if (node.inputs.size() != 1) {
      return false;
    }
    return keepdims && axes.size() == 1 && (axes[0] == -1 || axes[0] == rank - 1);
  }

  // A weight with values of shape [width].
  bool vector_weight(TensorRef ref, std::int64_t width) const {
    const tensor::Tensor* value = value_of(ref);
    return value && value->shape == tensor::Shape{width};
  }

  TensorRef add_constant(const std::string& base, std::int64_t width, double fill,
                         tensor::DType dtype) {
    std::string name = base;
    for (int k = 1; std::ranges::find(names_, name) != names_.end(); ++k)
      name = fmt::format("{}_{}", base, k);
    names_.push_back(name);
    Node weight;
    weight.name = name;
    weight.op = Op::kWeight;
    weight.attrs = {tensor::Shape{width}};
    weight.leaf_dtype = dtype;
    weight.outputs = {tensor::TensorType{{width}, dtype}};
    weight.value = std::make_shared<const tensor::Tensor>(tensor::Shape{width}, fill);
    return {graph_.add_node(std::move(weight)), 0};
  }

  // Turns node `last` into `op` of `inputs` and `attrs`, keeping its name.
  void replace(NodeId last, Op op, std::vector<TensorRef> inputs, tensor::Attrs attrs) {
    Node& node = graph_.nodes()[last];
    node.op = op;
    node.inputs = std::move(inputs);
    node.attrs = std::move(attrs);
    node.opaque.reset();
    node.value.reset();
  }

  bool layer_norm(NodeId mean) {
    if (!mean_over_last_axis(mean)) return false;
    const TensorRef x = graph_.node(mean).inputs[0];
    const tensor::TensorType x_type = graph_.type_of(x);
    if (x_type.shape.empty()) return false;
    const std::int64_t width = x_type.shape.back();
    // d = x - mean, read by the square (once or twice) and the division.
    const NodeId centred = sole_reader(mean);
    if (centred == kNone || graph_.node(centred).op != Op::kEwSub ||
        graph_.node(centred).inputs[0] != x || is_output(centred))
      return false;
    NodeId square = kNone, divide = kNone;
    for (NodeId reader : readers_[centred]) {
      NodeId& slot = graph_.node(reader).op == Op::kEwDiv ? divide : square;
      if (slot != kNone && slot != reader) return false;
      slot = reader;
    }
    if (square == kNone || divide == kNone) return false;
    const Node& sq = graph_.node(square);
    const bool pow_two = opaque_of(square, "Pow") && sq.inputs.size() == 2 &&
                         sq.inputs[0].node == centred && scalar(sq.inputs[1]) == 2.0;
    const bool product = sq.op == Op::kEwMul && sq.inputs[0].node == centred &&
                         sq.inputs[1].node == centred;
    if (!pow_two && !product) return false;
    const NodeId variance = sole_reader(square);
    if (variance == kNone || !opaque_of(variance, "ReduceMean") || !mean_over_last_axis(variance))
      return false;
    const NodeId shifted = sole_reader(variance);
    if (shifted == kNone || graph_.node(shifted).op != Op::kEwAdd) return false;
    const auto epsilon_ref = other_operand(shifted, variance);
    const auto epsilon = epsilon_ref ? scalar(*epsilon_ref) : std::nullopt;
    if (!epsilon || !(*epsilon > 0 && std::isfinite(*epsilon))) return false;
    const NodeId root = sole_reader(shifted);
    if (root == kNone || !opaque_of(root, "Sqrt") || sole_reader(root) != divide) return false;
    const Node& div = graph_.node(divide);
    if (div.inputs[0].node != centred || div.inputs[1].node != root) return false;
    // [* gamma] [+ beta]
    NodeId last = divide;
    std::optional<TensorRef> gamma, beta;
    const NodeId scaled = sole_reader(divide);
    if (scaled != kNone && graph_.node(scaled).op == Op::kEwMul) {
      gamma = other_operand(scaled, divide);
      if (gamma && vector_weight(*gamma, width)) last = scaled;
      else gamma.reset();
    }
    const NodeId shifted_out = sole_reader(last);
    if (shifted_out != kNone && graph_.node(shifted_out).op == Op::kEwAdd) {
      beta = other_operand(shifted_out, last);
      if (beta && vector_weight(*beta, width)) last = shifted_out;
      else beta.reset();
    }
    if (graph_.type_of({last, 0}) != x_type) return false;
    const std::string& name = graph_.node(last).name;
    if (!gamma) gamma = add_constant(name + "/scale", width, 1.0, x_type.dtype);
    if (!beta) beta = add_constant(name + "/bias", width, 0.0, x_type.dtype);
    replace(last, Op::kLayerNorm, {x, *gamma, *beta}, {*epsilon});
    return true;
  }

  bool gelu(NodeId erf) {
    // x / sqrt 2 or x * (1 / sqrt 2)
    const NodeId scaled = graph_.node(erf).inputs[0].node;
    const Node& scale = graph_.node(scaled);
    if (sole_reader(scaled) != erf || scale.inputs.size() != 2 ||
        !((scale.op == Op::kEwDiv && scalar(scale.inputs[1]) &&
           near(*scalar(scale.inputs[1]), std::numbers::sqrt2)) ||
          (scale.op == Op::kEwMul && scalar(scale.inputs[1]) &&
           near(*scalar(scale.inputs[1]), 1 / std::numbers::sqrt2))))
      return false;
    const TensorRef x = scale.inputs[0];
    const tensor::TensorType x_type = graph_.type_of(x);
    const NodeId one_plus = sole_reader(erf);
    if (one_plus == kNone || graph_.node(one_plus).op != Op::kEwAdd) return false;
    const auto one = other_operand(one_plus, erf);
    if (!one || scalar(*one) != 1.0) return false;
    const NodeId product = sole_reader(one_plus);
    if (product == kNone || graph_.node(product).op != Op::kEwMul) return false;
    const auto factor = other_operand(product, one_plus);
    if (!factor) return false;
    NodeId last = kNone;
    if (*factor == x) {  // (x * (1 + erf)) * 0.5
      last = sole_reader(product);
      if (last == kNone || graph_.node(last).op != Op::kEwMul) return false;
      const auto half = other_operand(last, product);
      if (!half || scalar(*half) != 0.5) return false;
    } else {  // (x * 0.5) * (1 + erf)
      const NodeId halved = factor->node;
      const Node& h = graph_.node(halved);
      if (factor->output != 0 || h.op != Op::kEwMul || sole_reader(halved) != product ||
          h.inputs[0] != x || scalar(h.inputs[1]) != 0.5)
        return false;
      last = product;
    }
    if (graph_.type_of({last, 0}) != x_type) return false;
    replace(last, Op::kGelu, {x}, {});
    return true;
  }

  Graph graph_;
  std::vector<std::vector<NodeId>> readers_;  // one entry per reading input slot
  std::vector<NodeId> outputs_;
  std::vector<std::string> names_;
};

}  // namespace

RecognisedOperators recognise_decomposed_operators(const Graph& graph) {
  return Recogniser(graph).run();
}

}  // namespace mctsat::frontend
