// Recognising exporters' layer normalizations and GELUs (see decomposed_operators.hpp).
#include "frontend/decomposed_operators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "frontend/graph_edits.hpp"
#include "frontend/graph_readers.hpp"
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
  explicit Recogniser(const Graph& graph) : graph_(graph), readers_(graph) {}

  RecognisedOperators run() {
    RecognisedOperators result;
    for (NodeId id : graph_.topological_order()) {
      if (opaque_of(id, "ReduceMean") && layer_norm(id)) ++result.layer_norms;
      if (const auto x = opaque_of(id, "Erf") ? erf_argument(id) : std::nullopt)
        if (gelu(id, *x, 0)) ++result.gelus;
      if (const auto x = graph_.node(id).op == Op::kTanh ? tanh_argument(id) : std::nullopt)
        if (gelu(id, *x, 1)) ++result.gelus;
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
  static constexpr NodeId kNone = GraphReaders::kNone;

  bool opaque_of(NodeId id, std::string_view type) const {
    return frontend::opaque_of(graph_, {id, 0}, type);
  }
  NodeId sole_reader(NodeId id) const { return readers_.sole_reader(id); }
  const tensor::Tensor* value_of(TensorRef ref) const {
    const Node& node = graph_.node(ref.node);
    return node.op == Op::kWeight ? node.value.get() : nullptr;
  }
  std::optional<double> scalar(TensorRef ref) const { return scalar_weight(graph_, ref); }
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

  // When `last`'s only reader is `op` with a weight of shape [width] beside it: that weight, and
  // `last` moves on to the reader.
  std::optional<TensorRef> affine_step(NodeId& last, Op op, std::int64_t width) const {
    const NodeId reader = sole_reader(last);
    if (reader == kNone || graph_.node(reader).op != op) return std::nullopt;
    const auto operand = other_operand(reader, last);
    if (!operand || !vector_weight(*operand, width)) return std::nullopt;
    last = reader;
    return operand;
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
        graph_.node(centred).inputs[0] != x || readers_.is_output(centred))
      return false;
    NodeId square = kNone, divide = kNone;
    for (NodeId reader : readers_.of(centred)) {
      NodeId& slot = graph_.node(reader).op == Op::kEwDiv ? divide : square;
      if (slot != kNone && slot != reader) return false;
      slot = reader;
    }
    if (square == kNone || divide == kNone) return false;
    const Node& sq = graph_.node(square);
    const bool pow_two = opaque_of(square, "Pow") && sq.inputs.size() == 2 &&
                         sq.inputs[0].node == centred && scalar(sq.inputs[1]) == 2.0;
    const bool product =
        sq.op == Op::kEwMul && sq.inputs[0].node == centred && sq.inputs[1].node == centred;
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
    std::optional<TensorRef> gamma = affine_step(last, Op::kEwMul, width);
    std::optional<TensorRef> beta = affine_step(last, Op::kEwAdd, width);
    if (graph_.type_of({last, 0}) != x_type) return false;
    const std::string& name = graph_.node(last).name;
    if (!gamma)
      gamma = add_weight(graph_, name + "/scale", tensor::Tensor({width}, 1.0), x_type.dtype);
    if (!beta)
      beta = add_weight(graph_, name + "/bias", tensor::Tensor({width}, 0.0), x_type.dtype);
    turn_into(graph_, last, Op::kLayerNorm, {x, *gamma, *beta}, {*epsilon});
    return true;
  }

  // x when `erf` computes erf(x / sqrt 2) (or erf(x * (1 / sqrt 2))).
  std::optional<TensorRef> erf_argument(NodeId erf) const {
    const NodeId scaled = graph_.node(erf).inputs[0].node;
    const Node& scale = graph_.node(scaled);
    if (sole_reader(scaled) != erf || scale.inputs.size() != 2) return std::nullopt;
    const auto factor = scalar(scale.inputs[1]);
    if (!factor || !((scale.op == Op::kEwDiv && near(*factor, std::numbers::sqrt2)) ||
                     (scale.op == Op::kEwMul && near(*factor, 1 / std::numbers::sqrt2))))
      return std::nullopt;
    return scale.inputs[0];
  }

  // x when `tanh` computes tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)), the cube as Pow(x, 3) or
  // x * x * x.
  std::optional<TensorRef> tanh_argument(NodeId tanh) const {
    const NodeId scaled = graph_.node(tanh).inputs[0].node;
    if (sole_reader(scaled) != tanh || graph_.node(scaled).op != Op::kEwMul) return std::nullopt;
    const Node& scale = graph_.node(scaled);
    for (int side : {0, 1}) {
      const auto factor = scalar(scale.inputs[1 - side]);
      if (!factor || !near(*factor, std::sqrt(2 / std::numbers::pi))) continue;
      const NodeId inner = scale.inputs[side].node;
      if (sole_reader(inner) != scaled || graph_.node(inner).op != Op::kEwAdd) continue;
      const Node& sum = graph_.node(inner);
      for (int term : {0, 1}) {
        const TensorRef x = sum.inputs[term];
        const NodeId weighted = sum.inputs[1 - term].node;
        if (sole_reader(weighted) != inner || graph_.node(weighted).op != Op::kEwMul) continue;
        const Node& w = graph_.node(weighted);
        for (int k : {0, 1}) {
          const auto kappa = scalar(w.inputs[1 - k]);
          if (kappa && near(*kappa, 0.044715) && sole_reader(w.inputs[k].node) == weighted &&
              cube_of(w.inputs[k].node, x))
            return x;
        }
      }
    }
    return std::nullopt;
  }

  // Whether `cube` computes x^3: Pow(x, 3), x * (x * x) or (x * x) * x.
  bool cube_of(NodeId cube, TensorRef x) const {
    const Node& node = graph_.node(cube);
    if (opaque_of(cube, "Pow"))
      return node.inputs.size() == 2 && node.inputs[0] == x && scalar(node.inputs[1]) == 3.0;
    if (node.op != Op::kEwMul) return false;
    for (int k : {0, 1}) {
      const NodeId square = node.inputs[k].node;
      const Node& sq = graph_.node(square);
      if (node.inputs[1 - k] == x && square != x.node && sole_reader(square) == cube &&
          sq.op == Op::kEwMul && sq.inputs[0] == x && sq.inputs[1] == x)
        return true;
    }
    return false;
  }

  // GELU around `activation` (erf or tanh of x's scaled form): 1 + activation, then times x and
  // 0.5 in either order; becomes gelu(approximate, x).
  bool gelu(NodeId activation, TensorRef x, std::int64_t approximate) {
    const tensor::TensorType x_type = graph_.type_of(x);
    const NodeId one_plus = sole_reader(activation);
    if (one_plus == kNone || graph_.node(one_plus).op != Op::kEwAdd) return false;
    const auto one = other_operand(one_plus, activation);
    if (!one || scalar(*one) != 1.0) return false;
    const NodeId product = sole_reader(one_plus);
    if (product == kNone || graph_.node(product).op != Op::kEwMul) return false;
    const auto factor = other_operand(product, one_plus);
    if (!factor) return false;
    NodeId last = kNone;
    if (*factor == x) {  // (x * (1 + a)) * 0.5
      last = sole_reader(product);
      if (last == kNone || graph_.node(last).op != Op::kEwMul) return false;
      const auto half = other_operand(last, product);
      if (!half || scalar(*half) != 0.5) return false;
    } else {  // (x * 0.5) * (1 + a)
      const NodeId halved = factor->node;
      const auto half = other_operand(halved, x.node);
      if (factor->output != 0 || graph_.node(halved).op != Op::kEwMul ||
          sole_reader(halved) != product || !half || *half == x || scalar(*half) != 0.5)
        return false;
      last = product;
    }
    if (graph_.type_of({last, 0}) != x_type) return false;
    turn_into(graph_, last, Op::kGelu, {x}, {approximate});
    return true;
  }

  Graph graph_;
  GraphReaders readers_;  // of the graph as given (nodes added later are read by none of it)
};

}  // namespace

RecognisedOperators recognise_decomposed_operators(const Graph& graph) {
  return Recogniser(graph).run();
}

}  // namespace mctsat::frontend
