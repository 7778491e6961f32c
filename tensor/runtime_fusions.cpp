// What a runtime fuses and copies, and the graph's cost as it runs it.
#include "tensor/runtime_fusions.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::tensor {
namespace {

// What the kernel computing a node's output can still take into its epilogue.
enum class Epilogue {
  kNone,        // nothing: not a kernel output the runtime fuses into
  kConv,        // a convolution's: a per-channel bias or scale, a residual sum, an activation
  kGemm,        // a rank-2 matrix product's: a bias along the last axis, an activation
  kFlatGemm,    // a product of higher rank by a rank-2 matrix, run as a Gemm between reshapes:
                // a bias along the last axis (an activation after it stays: a reshape between)
  kActivation,  // an activation only
};

bool is_activation(Op op) {
  return op == Op::kRelu || op == Op::kSigmoid || op == Op::kTanh || op == Op::kClip;
}

// True when `weight` broadcasts against `out` along `axis` only (a per-channel or per-column
// vector, right-aligned as numpy broadcasting aligns it).
bool broadcasts_along(const TensorType& weight, const TensorType& out, std::size_t axis) {
  const std::size_t rank = out.shape.size(), weight_rank = weight.shape.size();
  if (weight_rank > rank || axis >= rank) return false;
  for (std::size_t i = 0; i < weight_rank; ++i) {
    const std::size_t aligned = rank - weight_rank + i;
    const std::int64_t expected = aligned == axis ? out.shape[axis] : 1;
    if (weight.shape[i] != expected) return false;
  }
  return true;
}

class OnnxRuntimePlanner {
 public:
  explicit OnnxRuntimePlanner(const Graph& graph)
      : graph_(graph),
        order_(graph.topological_order()),
        weight_only_(graph.weight_only()),
        readers_(graph.size()),
        is_output_(graph.size(), false),
        epilogue_(graph.size(), Epilogue::kNone),
        blocked_(graph.size(), false) {
    plan_.fused.assign(graph.size(), false);
    plan_.dropped = graph.needed_for_outputs(order_);
    plan_.dropped.flip();
    for (NodeId id = 0; id < graph.size(); ++id)
      if (!plan_.dropped[id])
        for (const TensorRef& in : graph.node(id).inputs)
          readers_[in.node].push_back({id, in.output});
    for (const GraphOutput& out : graph.outputs()) is_output_[out.tensor.node] = true;
  }

  AsRunPlan plan() {
    for (NodeId id : order_) {
      if (weight_only_[id] || plan_.dropped[id] || plan_.fused[id]) continue;
      visit(id);
    }
    return std::move(plan_);
  }

 private:
  struct Reader {
    NodeId node;
    std::uint32_t output;
  };

  void visit(NodeId id) {
    const Node& node = graph_.node(id);
    switch (node.op) {
      case Op::kConv2d:
        epilogue_[id] = activation_attr(node.attrs[3]) == Activation::kNone ? Epilogue::kConv
                                                                            : Epilogue::kNone;
        blocked_[id] = true;
        return;
      case Op::kMatmul:
        if (activation_attr(node.attrs[0]) != Activation::kNone) return;
        if (node.outputs[0].shape.size() == 2)
          epilogue_[id] = Epilogue::kGemm;
        else if (graph_.type_of(node.inputs[1]).shape.size() == 2 &&
                 !reads_attention(node.inputs[0]))
          epilogue_[id] = Epilogue::kFlatGemm;
        return;
      case Op::kEwAdd:
      case Op::kEwMul:
        visit_binary(id);
        return;
      case Op::kSplit:
        visit_split(id);
        return;
      default:
        if (is_activation(node.op)) {
          const NodeId producer = node.inputs[0].node;
          if (absorbs(producer, id, {Epilogue::kConv, Epilogue::kGemm, Epilogue::kActivation}))
            fuse(id, producer, Epilogue::kNone);
        }
        return;
    }
  }

  void visit_binary(NodeId id) {
    const Node& node = graph_.node(id);
    const TensorRef a = node.inputs[0], b = node.inputs[1];
    const TensorType& out = node.outputs[0];
    if (weight_only_[a.node] != weight_only_[b.node]) {  // a bias or a scale
      const TensorRef operand = weight_only_[a.node] ? b : a;
      const TensorType& weight = graph_.type_of(weight_only_[a.node] ? a : b);
      if (absorbs(operand.node, id, {Epilogue::kConv}) && broadcasts_along(weight, out, 1)) {
        fuse(id, operand.node, Epilogue::kConv);
      } else if (node.op == Op::kEwAdd &&
                 absorbs(operand.node, id, {Epilogue::kGemm, Epilogue::kFlatGemm}) &&
                 broadcasts_along(weight, out, out.shape.size() - 1)) {
        fuse(id, operand.node,
             epilogue_[operand.node] == Epilogue::kGemm ? Epilogue::kActivation : Epilogue::kNone);
      }
      return;
    }
    if (node.op != Op::kEwAdd || graph_.type_of(a) != out || graph_.type_of(b) != out) return;
    for (const TensorRef operand : {a, b})  // a residual sum into one convolution
      if (absorbs(operand.node, id, {Epilogue::kConv})) {
        fuse(id, operand.node, Epilogue::kActivation);
        return;
      }
  }

  void visit_split(NodeId id) {
    const Node& node = graph_.node(id);
    const TensorRef in = node.inputs[0];
    plan_.copies.push_back(graph_.type_of(in));  // Split's own copy
    if (!blocked_[in.node]) return;
    plan_.copies.push_back(graph_.type_of(in));  // out of the blocked layout
    for (std::uint32_t k = 0; k < node.outputs.size(); ++k) {
      const bool read_by_conv = std::ranges::any_of(readers_[id], [&](const Reader& r) {
        return r.output == k && graph_.node(r.node).op == Op::kConv2d;
      });
      if (read_by_conv) plan_.copies.push_back(node.outputs[k]);  // back into it
    }
  }

  // Whether `ref` is an attention's result, whose projection ONNX Runtime leaves a MatMul (for
  // its attention fusion): an attention operator, its com.microsoft.Attention, or the
  // decomposition's reshape of a transpose of the product of a softmax.
  bool reads_attention(TensorRef ref) const {
    const Node& producer = graph_.node(ref.node);
    if (producer.op == Op::kAttention ||
        (producer.opaque && producer.opaque->type == kOnnxRuntimeAttention))
      return true;
    if (producer.op != Op::kReshape) return false;
    const Node& transpose = graph_.node(producer.inputs[0].node);
    if (transpose.op != Op::kTranspose) return false;
    const Node& product = graph_.node(transpose.inputs[0].node);
    return product.op == Op::kMatmul && graph_.node(product.inputs[0].node).op == Op::kSoftmax;
  }

  // True when `consumer` is the only reader of `producer`'s output, which is no graph output, and
  // the producer's kernel can take one of `epilogues`.
  bool absorbs(NodeId producer, NodeId consumer, std::initializer_list<Epilogue> epilogues) const {
    if (is_output_[producer] || readers_[producer].size() != 1 ||
        readers_[producer][0].node != consumer)
      return false;
    return std::ranges::find(epilogues, epilogue_[producer]) != epilogues.end();
  }

  void fuse(NodeId id, NodeId producer, Epilogue next) {
    plan_.fused[id] = true;
    epilogue_[id] = next;
    blocked_[id] = blocked_[producer];
  }

  const Graph& graph_;
  const std::vector<NodeId> order_;
  const std::vector<bool> weight_only_;
  std::vector<std::vector<Reader>> readers_;
  std::vector<bool> is_output_;
  std::vector<Epilogue> epilogue_;
  std::vector<bool> blocked_;  // the output is in a blocked layout (a convolution's, fused or not)
  AsRunPlan plan_;
};

// The model's cost of `op` over operands and a result of `dtype` and these shapes.
double priced(const CostModel& model, Op op, std::vector<Shape> in, Attrs attrs, Shape out,
              DType dtype) {
  std::vector<TensorType> inputs;
  for (Shape& shape : in) inputs.push_back({std::move(shape), dtype});
  const std::vector<TensorType> outputs{{std::move(out), dtype}};
  return checked_cost(model, OpInstance{op, inputs, std::move(attrs), outputs});
}

// ONNX Runtime's com.microsoft.Attention over x [B, S, H] with the packed [H, 3 H'] weight, as
// the model prices the matrix products it runs: the projection [B*S, H] x [H, 3 H'], the scores
// [B, S, H'] x [B, H', S] and the context [B, S, S] x [B, S, H'] (the heads split H' without
// changing these products' work). nullopt for another shape.
std::optional<double> attention_cost(const Graph& graph, const Node& node, const CostModel& model) {
  if (node.inputs.size() < 2) return std::nullopt;
  const Shape& x = graph.type_of(node.inputs[0]).shape;
  const Shape& w = graph.type_of(node.inputs[1]).shape;
  if (x.size() != 3 || w.size() != 2 || w[0] != x[2] || w[1] % 3 != 0) return std::nullopt;
  const std::int64_t b = x[0], s = x[1], h = x[2], inner = w[1] / 3;
  const DType dtype = graph.type_of(node.inputs[0]).dtype;
  auto product = [&](Shape a, Shape bb, Shape out) {
    return priced(model, Op::kMatmul, {std::move(a), std::move(bb)},
                  {static_cast<std::int64_t>(Activation::kNone)}, std::move(out), dtype);
  };
  return product({b * s, h}, {h, 3 * inner}, {b * s, 3 * inner}) +
         product({b, s, inner}, {b, inner, s}, {b, s, s}) +
         product({b, s, s}, {b, s, inner}, {b, s, inner});
}

// An attention operator as ONNX Runtime runs its export, the decomposition onnx_export.cpp writes
// (ONNX Runtime 1.30 fuses none of it): q, k and v transposed to [B, N, ., h] (their reshapes are
// views), the scores' product, the scale, the bias unless it is a zero weight, for causal
// attention a Where, softmax, the context's product and its transpose back to [B, S, N, h'].
double decomposed_attention_cost(const Graph& graph, const Node& node, const CostModel& model) {
  const DType dtype = graph.type_of(node.inputs[0]).dtype;
  const Shape &q = graph.type_of(node.inputs[0]).shape, &k = graph.type_of(node.inputs[1]).shape,
              &v = graph.type_of(node.inputs[2]).shape;
  const std::int64_t heads = attr_int(node.attrs[0]);
  const std::int64_t b = q[0], s = q[1], l = k[1], h = q[2] / heads, hv = v[2] / heads;
  auto cost = [&](Op op, std::vector<Shape> in, Attrs attrs, Shape out) {
    return priced(model, op, std::move(in), std::move(attrs), std::move(out), dtype);
  };
  auto transpose = [&](Shape in, std::vector<std::int64_t> perm) {
    Shape out;
    for (const std::int64_t axis : perm) out.push_back(in[static_cast<std::size_t>(axis)]);
    return cost(Op::kTranspose, {std::move(in)}, {perm}, std::move(out));
  };
  const Attrs plain{static_cast<std::int64_t>(Activation::kNone)};
  const Shape scores = {b, heads, s, l};
  double total = transpose({b, s, heads, h}, {0, 2, 1, 3}) +
                 transpose({b, l, heads, h}, {0, 2, 3, 1}) +
                 transpose({b, l, heads, hv}, {0, 2, 1, 3}) +
                 cost(Op::kMatmul, {{b, heads, s, h}, {b, heads, h, l}}, plain, scores) +
                 cost(Op::kEwMul, {scores, {}}, {}, scores) +
                 cost(Op::kSoftmax, {scores}, {std::int64_t{3}}, scores) +
                 cost(Op::kMatmul, {scores, {b, heads, l, hv}}, plain, {b, heads, s, hv}) +
                 transpose({b, heads, s, hv}, {0, 2, 1, 3});
  if (!zero_weight(graph, node.inputs[3]))
    total += cost(Op::kEwAdd, {scores, graph.type_of(node.inputs[3]).shape}, {}, scores);
  if (attr_int(node.attrs[1]) == 1) total += cost(Op::kEwAdd, {scores, {s, l}}, {}, scores);
  return total;
}

}  // namespace

AsRunPlan as_run_plan(const Graph& graph, RuntimeFusions runtime) {
  switch (runtime) {
    case RuntimeFusions::kNone:
      return {std::vector<bool>(graph.size(), false), std::vector<bool>(graph.size(), false), {}};
    case RuntimeFusions::kOnnxRuntime:
      return OnnxRuntimePlanner(graph).plan();
  }
  MCTSAT_ASSERT(false && "unknown runtime");
  return {};
}

AsRunCosts as_run_costs(const Graph& graph, const CostModel& model) {
  AsRunCosts costs{node_costs(graph, model)};
  const AsRunPlan plan = as_run_plan(graph, model.runtime_fusions());
  for (NodeCost& cost : costs.nodes) {
    if (plan.fused[cost.node]) {
      cost.cost_ms = 0;
      ++costs.fused;
    }
    if (plan.dropped[cost.node]) cost.cost_ms = 0;
    const Node& node = graph.node(cost.node);
    if (model.runtime_fusions() != RuntimeFusions::kOnnxRuntime || cost.cost_ms == 0) continue;
    if (node.opaque && node.opaque->type == kOnnxRuntimeAttention)
      if (const auto priced = attention_cost(graph, node, model)) cost.cost_ms = *priced;
    if (node.op == Op::kAttention) cost.cost_ms = decomposed_attention_cost(graph, node, model);
  }
  const Attrs no_attrs;
  for (const TensorType& copied : plan.copies) {
    const std::vector<TensorType> types{copied};
    costs.copies_ms += checked_cost(model, OpInstance{Op::kRelu, types, no_attrs, types});
  }
  costs.total_ms = costs.copies_ms;
  for (const NodeCost& cost : costs.nodes) costs.total_ms += cost.cost_ms;
  return costs;
}

double as_run_cost(const Graph& graph, const CostModel& model) {
  return as_run_costs(graph, model).total_ms;
}

FusingCostModel::FusingCostModel(std::shared_ptr<const CostModel> base, RuntimeFusions runtime)
    : base_(std::move(base)), runtime_(runtime) {}

std::string FusingCostModel::name() const {
  return fmt::format("{} as {} runs it", base_->name(), name_of(kRuntimeFusionNames, runtime_));
}

}  // namespace mctsat::tensor
