// Lowering for ONNX Runtime (see onnxruntime_lowering.hpp).
#include "frontend/onnxruntime_lowering.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "frontend/graph_edits.hpp"
#include "frontend/graph_readers.hpp"
#include "frontend/onnx_opaque_payload.hpp"
#include "frontend/onnx_tensor.hpp"
#include "tensor/runtime_fusions.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::frontend {

namespace {

using tensor::Graph;
using tensor::Node;
using tensor::NodeId;
using tensor::Op;
using tensor::TensorRef;

constexpr std::int64_t kContribOpset = 1;

// One attention operator whose projections ONNX Runtime's Attention can run.
struct AttentionBlock {
  NodeId attention = 0;  // the attention operator
  TensorRef x;           // the projections' common input, [B, S, H]
  // The query, key and value weights ([H, N*h], with values) and biases ([N*h]) to pack, or one
  // packed weight [H, 3*N*h] and bias [3*N*h].
  std::vector<NodeId> weights, biases;
  std::optional<TensorRef> bias;  // additive, broadcast to [B, N, S, S] (and expanded to it)
  // Or Hugging Face's mask from token flags, (1 - flags[B, S]) * filter: the flags themselves.
  std::optional<TensorRef> flags;
  double filter = 0;
};

class Matcher {
 public:
  explicit Matcher(const Graph& graph) : graph_(graph), readers_(graph) {}

  // The attention operator `id` with its projections, if ONNX Runtime's Attention can run it:
  // self-attention of equal widths whose q, k and v are three projections ewadd(matmul(x, W), b)
  // of one x, or the three equal parts of one such projection split along its last axis, each
  // read only by the attention.
  std::optional<AttentionBlock> match(NodeId id) const {
    const Node& node = graph_.node(id);
    if (node.op != Op::kAttention) return std::nullopt;
    const tensor::TensorType& q = graph_.type_of(node.inputs[0]);
    if (q.dtype != tensor::DType::kFloat32 || graph_.type_of(node.inputs[1]) != q ||
        graph_.type_of(node.inputs[2]) != q)
      return std::nullopt;
    AttentionBlock block;
    block.attention = id;
    const NodeId first = node.inputs[0].node;
    const Node& split = graph_.node(first);
    if (split.op == Op::kSplit && node.inputs[1].node == first && node.inputs[2].node == first &&
        node.inputs[0].output == 0 && node.inputs[1].output == 1 && node.inputs[2].output == 2 &&
        split.outputs.size() == 3 && tensor::attr_int(split.attrs[0]) == 2 &&
        readers_.uses(first) == 3) {
      const auto projection = linear(split.inputs[0]);
      if (!projection) return std::nullopt;
      block.x = projection->x;
      block.weights = {projection->weight};
      block.biases = {projection->bias};
    } else {
      for (const TensorRef& operand : {node.inputs[0], node.inputs[1], node.inputs[2]}) {
        const auto projection = operand.output == 0 ? linear(operand) : std::nullopt;
        if (!projection || (!block.weights.empty() && projection->x != block.x))
          return std::nullopt;
        block.x = projection->x;
        block.weights.push_back(projection->weight);
        block.biases.push_back(projection->bias);
      }
    }
    if (graph_.type_of(block.x).shape.size() != 3) return std::nullopt;
    const TensorRef bias = node.inputs[3];
    if (tensor::zero_weight(graph_, bias)) return block;
    const tensor::Shape& dims = q.shape;  // [B, S, N*h]
    if (const auto flags = token_flags(bias, dims)) {
      block.flags = flags->first;
      block.filter = flags->second;
    } else {
      block.bias = bias;
    }
    return block;
  }

  // The residual sum (residual_sum) that layer normalization `id` alone reads.
  std::optional<NodeId> match_layer_norm(NodeId id) const {
    const Node& norm = graph_.node(id);
    if (norm.op != Op::kLayerNorm) return std::nullopt;
    const NodeId sum = norm.inputs[0].node;
    if (!residual_sum(sum) || !single_use(sum)) return std::nullopt;
    return sum;
  }

 private:
  struct Projection {
    TensorRef x;
    NodeId weight = 0, bias = 0;
  };

  bool single_use(NodeId id) const { return readers_.uses(id) == 1; }

  // A float32 [B, S, H] sum of two operands of its own type.
  bool residual_sum(NodeId id) const {
    const Node& sum = graph_.node(id);
    return sum.op == Op::kEwAdd && sum.outputs[0].shape.size() == 3 &&
           sum.outputs[0].dtype == tensor::DType::kFloat32 &&
           graph_.type_of(sum.inputs[0]) == sum.outputs[0] &&
           graph_.type_of(sum.inputs[1]) == sum.outputs[0];
  }

  std::optional<double> scalar_value(TensorRef ref) const { return scalar_weight(graph_, ref); }

  // ewadd(matmul(x, W), b) in either operand order, read once.
  std::optional<Projection> linear(TensorRef ref) const {
    const Node& add = graph_.node(ref.node);
    if (add.op != Op::kEwAdd || !single_use(ref.node)) return std::nullopt;
    for (int side : {0, 1}) {
      const TensorRef product = add.inputs[side], bias = add.inputs[1 - side];
      const Node& mm = graph_.node(product.node);
      if (mm.op != Op::kMatmul || tensor::attr_int(mm.attrs[0]) != 0 || !single_use(product.node) ||
          !valued_weight(graph_, mm.inputs[1], 2) || !valued_weight(graph_, bias, 1))
        continue;
      if (graph_.node(bias.node).value->shape[0] != graph_.node(mm.inputs[1].node).value->shape[1])
        continue;
      return Projection{mm.inputs[0], mm.inputs[1].node, bias.node};
    }
    return std::nullopt;
  }

  // (1 - float(unsqueeze(unsqueeze(flags)))) * filter, flags [B, S] of integers or booleans and
  // the mask [B, 1, 1, S]: the flags and the filter. The filter is finite: an infinite or NaN one
  // makes 0 * filter NaN where a flag is 1 (every output NaN), which mask_index would not compute;
  // such a mask stays an additive one (attention_bias), computed as written.
  std::optional<std::pair<TensorRef, double>> token_flags(
      TensorRef mask, const std::vector<std::int64_t>& dims) const {
    const Node& mul = graph_.node(mask.node);
    if (mul.op != Op::kEwMul || graph_.type_of(mask).shape != tensor::Shape{dims[0], 1, 1, dims[1]})
      return std::nullopt;
    for (int side : {0, 1}) {
      const auto filter = scalar_value(mul.inputs[1 - side]);
      const Node& sub = graph_.node(mul.inputs[side].node);
      if (!filter || !std::isfinite(*filter) || sub.op != Op::kEwSub ||
          scalar_value(sub.inputs[0]) != 1.0)
        continue;
      const TensorRef cast = sub.inputs[1];
      if (!opaque_of(graph_, cast, "Cast")) continue;
      const TensorRef outer = graph_.node(cast.node).inputs.at(0);
      if (!opaque_of(graph_, outer, "Unsqueeze")) continue;
      const TensorRef inner = graph_.node(outer.node).inputs.at(0);
      if (!opaque_of(graph_, inner, "Unsqueeze")) continue;
      const TensorRef flags = graph_.node(inner.node).inputs.at(0);
      const tensor::TensorType& type = graph_.type_of(flags);
      const bool integral = type.dtype == tensor::DType::kInt64 ||
                            type.dtype == tensor::DType::kInt32 ||
                            type.dtype == tensor::DType::kBool;
      if (integral && type.shape == tensor::Shape{dims[0], dims[1]})
        return std::make_pair(flags, *filter);
    }
    return std::nullopt;
  }

  const Graph& graph_;
  GraphReaders readers_;
};

// Writes the matched blocks into a copy of the graph: per block the packed weight and bias, the
// mask's Expand and the Attention, all opaque or weights; the final reshape's readers read the
// Attention. The replaced nodes stay, unread (the exporter writes only what outputs need).
class Rewriter {
 public:
  explicit Rewriter(const Graph& graph) : graph_(graph) {
    for (const Node& node : graph.nodes())
      if (node.op == Op::kOpaque)
        next_id_ = std::max(next_id_, tensor::attr_int(node.attrs[0]) + 1);
  }

  void add(const AttentionBlock& block) {
    // Copies: adding nodes moves the graph's nodes.
    const Node attention_node = graph_.node(block.attention);
    const std::string base = attention_node.name + "/attention";
    const tensor::Shape x = graph_.type_of(block.x).shape;  // [B, S, H]
    const auto packed_or_given = [&](const std::string& name, const std::vector<NodeId>& parts,
                                     std::size_t axis) {
      return parts.size() == 1 ? TensorRef{parts[0], 0} : packed(name, parts, axis);
    };
    std::vector<TensorRef> inputs = {block.x,
                                     packed_or_given(base + "/qkv_weight", block.weights, 1),
                                     packed_or_given(base + "/qkv_bias", block.biases, 0)};
    std::vector<std::string> names = {"x", "weight", "bias"};
    const std::int64_t heads = tensor::attr_int(attention_node.attrs[0]);
    if (block.flags) {
      inputs.push_back(int32_flags(base + "/mask_index", *block.flags));
      names.push_back("mask_index");
    } else if (block.bias) {
      const tensor::Shape m = graph_.type_of(*block.bias).shape;
      // ONNX Runtime 1.20's CPU Attention reads attention_bias as [B, N, S, S] when B > 1 (a
      // [B, 1, S, S] bias gave other outputs at batch 2): the bias is expanded to the full shape.
      const tensor::Shape full = {x[0], heads, x[1], x[1]};
      inputs.push_back(m == full ? *block.bias : expand(base + "/mask", *block.bias, full));
      names.insert(names.end(), {"", "", "attention_bias"});
    }
    onnx::NodeProto node;
    node.set_op_type("Attention");
    node.set_domain("com.microsoft");
    node.set_name(base);
    for (const auto& name : names) node.add_input(name);
    node.add_output("y");
    auto attribute = [&](const char* name, onnx::AttributeProto::AttributeType type) {
      auto* added = node.add_attribute();
      added->set_name(name);
      added->set_type(type);
      return added;
    };
    attribute("num_heads", onnx::AttributeProto::INT)->set_i(heads);
    attribute("scale", onnx::AttributeProto::FLOAT)
        ->set_f(static_cast<float>(tensor::attr_float(attention_node.attrs[2])));
    if (tensor::attr_int(attention_node.attrs[1]) == 1)
      attribute("unidirectional", onnx::AttributeProto::INT)->set_i(1);
    if (block.flags)
      attribute("mask_filter_value", onnx::AttributeProto::FLOAT)
          ->set_f(static_cast<float>(block.filter));
    replaced_.push_back(
        {block.attention, opaque(base, std::string(tensor::kOnnxRuntimeAttention), node, {},
                                 "com.microsoft", std::move(inputs), attention_node.outputs[0])});
  }

  // The sum of [B*S, H] views of its operands, viewed back as [B, S, H]: ONNX Runtime's
  // SkipLayerNormalization fusion wants the sum's operands of rank 3, so the normalization stays
  // its LayerNormalization (reshapes only relabel a buffer).
  void add_flat_sum(NodeId id) {
    const Node sum = graph_.node(id);  // a copy: adding nodes moves the graph's nodes
    const tensor::Shape& shape = sum.outputs[0].shape;
    const tensor::Shape flat = {shape[0] * shape[1], shape[2]};
    const auto reshaped = [&](const std::string& name, TensorRef in, const tensor::Shape& to) {
      Node reshape;
      reshape.name = name;
      reshape.op = Op::kReshape;
      reshape.inputs = {in};
      reshape.attrs = {to};
      return add_node(std::move(reshape));
    };
    Node flat_sum;
    flat_sum.name = sum.name + "/flat";
    flat_sum.op = Op::kEwAdd;
    flat_sum.inputs = {reshaped(sum.name + "/flat_a", sum.inputs[0], flat),
                       reshaped(sum.name + "/flat_b", sum.inputs[1], flat)};
    const TensorRef added = add_node(std::move(flat_sum));
    replaced_.push_back({id, reshaped(sum.name + "/unflat", added, shape)});
  }

  Graph finish() && {
    std::map<NodeId, TensorRef> by;
    for (const auto& [old_id, new_ref] : replaced_) by[old_id] = new_ref;
    auto redirect = [&](TensorRef& ref) {
      if (const auto it = by.find(ref.node); it != by.end()) ref = it->second;
    };
    Graph result;
    for (Node& node : graph_.nodes()) {
      for (TensorRef& in : node.inputs) redirect(in);
      result.add_node(std::move(node));
    }
    for (tensor::GraphOutput out : graph_.outputs()) {
      redirect(out.tensor);
      result.add_output(std::move(out.name), out.tensor);
    }
    result.infer_and_validate();
    return result;
  }

 private:
  TensorRef add_node(Node node) { return add_named(graph_, std::move(node)); }

  // The weights' values concatenated along `axis` (0 for vectors, 1 for [H, n] matrices).
  TensorRef packed(const std::string& name, const std::vector<NodeId>& weights, std::size_t axis) {
    std::vector<const tensor::Tensor*> parts;
    for (NodeId id : weights) parts.push_back(graph_.node(id).value.get());
    const std::int64_t rows = axis == 0 ? 1 : parts[0]->shape[0];
    std::int64_t columns = 0;
    for (const auto* part : parts) columns += part->shape[axis];
    tensor::Tensor value(axis == 0 ? tensor::Shape{columns} : tensor::Shape{rows, columns});
    std::size_t at = 0;
    for (std::int64_t r = 0; r < rows; ++r)
      for (const auto* part : parts) {
        const std::int64_t width = part->shape[axis];
        for (std::int64_t c = 0; c < width; ++c)
          value.data[at++] = part->data[static_cast<std::size_t>(r * width + c)];
      }
    return add_weight(graph_, name, std::move(value));
  }

  // The token flags as int32 (what Attention's mask_index takes), one Cast per flags tensor.
  TensorRef int32_flags(const std::string& name, TensorRef flags) {
    if (const auto it = casts_.find(flags); it != casts_.end()) return it->second;
    onnx::NodeProto node;
    node.set_op_type("Cast");
    node.set_name(name);
    node.add_input("flags");
    node.add_output("y");
    auto* to = node.add_attribute();
    to->set_name("to");
    to->set_type(onnx::AttributeProto::INT);
    to->set_i(onnx::TensorProto::INT32);
    const TensorRef cast = opaque(name, "Cast", node, {}, "", {flags},
                                  {graph_.type_of(flags).shape, tensor::DType::kInt32});
    casts_.emplace(flags, cast);
    return cast;
  }

  // ONNX Expand of `mask` to `shape`, the shape embedded as a Constant.
  TensorRef expand(const std::string& name, TensorRef mask, const tensor::Shape& shape) {
    onnx::NodeProto constant;
    constant.set_op_type("Constant");
    constant.add_output("shape");
    auto* value = constant.add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    tensor::Tensor dims({static_cast<std::int64_t>(shape.size())});
    for (std::size_t k = 0; k < shape.size(); ++k) dims.data[k] = static_cast<double>(shape[k]);
    onnx_io::tensor_to_proto(dims, tensor::DType::kInt64, *value->mutable_t());
    onnx::NodeProto node;
    node.set_op_type("Expand");
    node.set_name(name);
    node.add_input("mask");
    node.add_input("shape");
    node.add_output("y");
    return opaque(name, "Expand", node, {std::move(constant)}, "", {mask},
                  {shape, tensor::DType::kFloat32});
  }

  TensorRef opaque(const std::string& name, const std::string& type, const onnx::NodeProto& node,
                   std::vector<onnx::NodeProto> embedded, const std::string& domain,
                   std::vector<TensorRef> inputs, const tensor::TensorType& output) {
    return opaque(name, type, node, std::move(embedded), domain, std::move(inputs),
                  std::vector<tensor::TensorType>{output});
  }
  // The first output of an opaque node with `outputs` (in the node's order, empty names skipped).
  TensorRef opaque(const std::string& name, const std::string& type, const onnx::NodeProto& node,
                   std::vector<onnx::NodeProto> embedded, const std::string& domain,
                   std::vector<TensorRef> inputs, const std::vector<tensor::TensorType>& outputs) {
    google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto> opsets;
    onnx::OperatorSetIdProto* opset = opsets.Add();
    opset->set_domain(domain);
    opset->set_version(domain.empty() ? 13 : kContribOpset);
    Node opaque;
    opaque.name = name;
    opaque.op = Op::kOpaque;
    opaque.inputs = std::move(inputs);
    opaque.attrs = {next_id_++, tensor::encode_output_types(outputs)};
    opaque.opaque = std::make_shared<const tensor::OpaqueInfo>(
        tensor::OpaqueInfo{type, OpaquePayload::print(node, std::move(embedded), opsets)});
    return add_node(std::move(opaque));
  }

  Graph graph_;
  std::int64_t next_id_ = 0;
  std::vector<std::pair<NodeId, TensorRef>> replaced_;
  std::map<TensorRef, TensorRef> casts_;
};

}  // namespace

OnnxRuntimeLowering lower_for_onnxruntime(const tensor::Graph& graph) {
  const Matcher matcher(graph);
  std::vector<AttentionBlock> blocks;
  std::vector<NodeId> sums;  // residual sums only a layer norm reads
  for (NodeId id = 0; id < graph.size(); ++id) {
    if (auto block = matcher.match(id))
      blocks.push_back(std::move(*block));
    else if (auto sum = matcher.match_layer_norm(id))
      sums.push_back(*sum);
  }
  if (blocks.empty() && sums.empty()) return {graph, 0, 0};
  Rewriter rewriter(graph);
  for (const AttentionBlock& block : blocks) rewriter.add(block);
  for (const NodeId sum : sums) rewriter.add_flat_sum(sum);
  return {std::move(rewriter).finish(), blocks.size(), sums.size()};
}

}  // namespace mctsat::frontend
