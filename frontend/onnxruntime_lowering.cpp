// Lowering for ONNX Runtime (see onnxruntime_lowering.hpp).
#include "frontend/onnxruntime_lowering.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

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

// One matched self-attention block.
struct AttentionBlock {
  TensorRef x;  // the projections' common input, [B, S, H]
  // The query, key and value weights ([H, N*h], with values) and biases ([N*h]) to pack, or one
  // packed weight [H, 3*N*h] and bias [3*N*h].
  std::vector<NodeId> weights, biases;
  std::optional<TensorRef> mask;  // additive, broadcast to [B, N, S, S] (and expanded to it)
  // Swin's shift mask, added per window on top of `mask`: a weight broadcasting to
  // [B / windows, windows, N, S, S] (B counts the windows of every image).
  std::optional<TensorRef> window_mask;
  std::int64_t windows = 0;
  // Or Hugging Face's mask from token flags, (1 - flags[B, S]) * filter: the flags themselves.
  std::optional<TensorRef> flags;
  double filter = 0;
  bool causal = false;  // each position attends to itself and the ones before it only
  std::int64_t heads = 0;
  NodeId output = 0;  // the block's last node: its readers read the attention, [B, S, N*h]
                      // (reshaped to the node's shape when it differs)
  bool sequence_major = false;  // the output is [S * B, N*h] (torch.nn.MultiheadAttention)
};

class Matcher {
 public:
  explicit Matcher(const Graph& graph) : graph_(graph), readers_(graph) {}

  // The block whose softmax is `softmax`, if it is one.
  std::optional<AttentionBlock> match(NodeId softmax) const {
    const Node& sm = graph_.node(softmax);
    if (sm.op != Op::kSoftmax || sm.outputs[0].shape.size() != 4 ||
        tensor::attr_int(sm.attrs[0]) != 3 || !single_use(softmax))
      return std::nullopt;
    AttentionBlock block;
    // softmax(scores / sqrt(h) [+ mask])
    NodeId scaled = sm.inputs[0].node;
    std::int64_t causal_size = 0;
    if (graph_.node(scaled).op == Op::kEwAdd) {
      const Node& add = graph_.node(scaled);
      if (!single_use(scaled)) return std::nullopt;
      const bool first = graph_.node(add.inputs[0].node).op == Op::kEwDiv;
      block.mask = add.inputs[first ? 1 : 0];
      scaled = add.inputs[first ? 0 : 1].node;
    } else if (opaque_of({scaled, 0}, "Where")) {
      // GPT-2's causal mask: where(lower-triangular ones, scores, a very negative fill).
      const Node& where = graph_.node(scaled);
      if (!single_use(scaled) || where.inputs.size() != 3 || !lower_triangular(where.inputs[0]))
        return std::nullopt;
      const auto fill = scalar_value(where.inputs[2]);
      if (!fill || !(*fill <= kMaskedScore)) return std::nullopt;  // NaN is not masked out
      block.causal = true;
      causal_size = graph_.type_of(where.inputs[0]).shape.back();
      scaled = where.inputs[1].node;
    }
    const Node& div = graph_.node(scaled);
    if (div.op != Op::kEwDiv || !single_use(scaled)) return std::nullopt;
    const auto divisor = scalar_value(div.inputs[1]);
    const NodeId scores = div.inputs[0].node;
    const Node& qk = graph_.node(scores);
    if (qk.op != Op::kMatmul || tensor::attr_int(qk.attrs[0]) != 0 || !single_use(scores))
      return std::nullopt;
    // ... times the values, transposed and reshaped back.
    const auto tail = context_tail(softmax, {0, 2, 1, 3});
    if (!tail) return std::nullopt;
    const Node& pv = graph_.node(tail->product);
    const NodeId merged = tail->reshape;
    block.output = merged;

    const std::vector<std::pair<TensorRef, std::vector<std::int64_t>>> heads = {
        {qk.inputs[0], {0, 2, 1, 3}}, {qk.inputs[1], {0, 2, 3, 1}}, {pv.inputs[1], {0, 2, 1, 3}}};
    std::optional<std::vector<std::int64_t>> split_shape;
    for (const auto& [ref, perm] : heads) {
      if (ref.output != 0 || !is_transpose(ref.node, perm) || !single_use(ref.node))
        return std::nullopt;
      const NodeId split = graph_.node(ref.node).inputs[0].node;
      const Node& reshape = graph_.node(split);
      if (reshape.op != Op::kReshape || !single_use(split)) return std::nullopt;
      const auto& shape = reshape.outputs[0].shape;
      if (shape.size() != 4 || (split_shape && *split_shape != shape)) return std::nullopt;
      split_shape = shape;
      const auto projection = linear(reshape.inputs[0]);
      if (!projection) return std::nullopt;
      if (block.weights.empty()) block.x = projection->x;
      if (projection->x != block.x) return std::nullopt;
      block.weights.push_back(projection->weight);
      block.biases.push_back(projection->bias);
    }
    const auto& dims = *split_shape;  // [B, S, N, h]
    const tensor::Shape& x_shape = graph_.type_of(block.x).shape;
    if (x_shape.size() != 3 || x_shape[0] != dims[0] || x_shape[1] != dims[1]) return std::nullopt;
    if (graph_.node(merged).outputs[0].shape != tensor::Shape{dims[0], dims[1], dims[2] * dims[3]})
      return std::nullopt;
    if (!near_sqrt(divisor, dims[3])) return std::nullopt;
    if (block.mask && !mask_fits(*block.mask, dims)) return std::nullopt;
    if (block.causal && causal_size != dims[1]) return std::nullopt;
    if (block.mask)
      if (const auto flags = token_flags(*block.mask, dims)) {
        block.flags = flags->first;
        block.filter = flags->second;
        block.mask.reset();
      }
    block.heads = dims[2];
    return block;
  }

  // torch.nn.MultiheadAttention's export (its [S, B, E] layout): x [B, S, E] transposed to
  // [S, B, E], one packed projection ewadd(matmul(., W [E, 3E]), b [3E]) sliced into query, key
  // and value along the last axis, each reshaped to [S, B*N, h] (head n of batch b at b*N + n) and
  // transposed (key to [B*N, h, S]), the query divided by sqrt(h), softmax over the last axis,
  // times the values, transposed back and reshaped to [S*B, E] (row s*B + b).
  std::optional<AttentionBlock> match_torch(NodeId softmax) const {
    const Node& sm = graph_.node(softmax);
    if (sm.op != Op::kSoftmax || sm.outputs[0].shape.size() != 3 ||
        tensor::attr_int(sm.attrs[0]) != 2 || !single_use(softmax))
      return std::nullopt;
    const NodeId scores = sm.inputs[0].node;
    const Node& qk = graph_.node(scores);
    if (qk.op != Op::kMatmul || tensor::attr_int(qk.attrs[0]) != 0 || !single_use(scores))
      return std::nullopt;
    const auto tail = context_tail(softmax, {1, 0, 2});
    if (!tail) return std::nullopt;
    const Node& pv = graph_.node(tail->product);
    const NodeId merged = tail->reshape;

    // The query: transpose(reshape(slice 0), [1, 0, 2]) / sqrt(h).
    const Node& div = graph_.node(qk.inputs[0].node);
    if (div.op != Op::kEwDiv || !single_use(qk.inputs[0].node)) return std::nullopt;
    const auto divisor = scalar_value(div.inputs[1]);
    const std::pair<TensorRef, std::vector<std::int64_t>> heads[] = {
        {div.inputs[0], {1, 0, 2}}, {qk.inputs[1], {1, 2, 0}}, {pv.inputs[1], {1, 0, 2}}};
    std::optional<TensorRef> projection;
    std::optional<tensor::Shape> split_shape;
    for (std::int64_t part = 0; part < 3; ++part) {
      const auto& [ref, perm] = heads[part];
      if (ref.output != 0 || !is_transpose(ref.node, perm) || !single_use(ref.node))
        return std::nullopt;
      const NodeId split = graph_.node(ref.node).inputs[0].node;
      const Node& reshape = graph_.node(split);
      if (reshape.op != Op::kReshape || !single_use(split)) return std::nullopt;
      const tensor::Shape& shape = reshape.outputs[0].shape;                        // [S, B*N, h]
      const tensor::Shape& sliced_shape = graph_.type_of(reshape.inputs[0]).shape;  // [S, B, E]
      if (shape.size() != 3 || sliced_shape.size() != 3 || (split_shape && *split_shape != shape))
        return std::nullopt;
      split_shape = shape;
      const auto sliced = slice_of(reshape.inputs[0], part, sliced_shape[2]);
      if (!sliced || (projection && *projection != *sliced)) return std::nullopt;
      projection = sliced;
    }
    const tensor::Shape& dims = *split_shape;
    const tensor::Shape& projected = graph_.type_of(*projection).shape;  // [S, B, 3E]
    const std::int64_t seq = dims[0], batch = projected[1], width = projected[2] / 3;
    if (projected[0] != seq || projected[2] % 3 != 0 || dims[1] % batch != 0) return std::nullopt;
    const std::int64_t heads_count = dims[1] / batch;
    if (heads_count * dims[2] != width || !near_sqrt(divisor, dims[2])) return std::nullopt;
    if (graph_.node(merged).outputs[0].shape != tensor::Shape{seq * batch, width})
      return std::nullopt;
    // The packed projection of x transposed to [S, B, E], read by the three slices only.
    const Node& add = graph_.node(projection->node);
    if (add.op != Op::kEwAdd || readers_.uses(projection->node) != 3) return std::nullopt;
    for (int side : {0, 1}) {
      const TensorRef product = add.inputs[side], bias = add.inputs[1 - side];
      const Node& mm = graph_.node(product.node);
      if (mm.op != Op::kMatmul || tensor::attr_int(mm.attrs[0]) != 0 || !single_use(product.node) ||
          !valued_weight(mm.inputs[1], 2) || !valued_weight(bias, 1) ||
          graph_.node(mm.inputs[1].node).value->shape[1] != 3 * width ||
          graph_.node(bias.node).value->shape[0] != 3 * width)
        continue;
      const TensorRef transposed = mm.inputs[0];
      if (!is_transpose(transposed.node, {1, 0, 2}) || !single_use(transposed.node)) continue;
      const TensorRef x = graph_.node(transposed.node).inputs[0];
      if (graph_.type_of(x).shape != tensor::Shape{batch, seq, width}) continue;
      AttentionBlock block;
      block.x = x;
      block.weights = {mm.inputs[1].node};
      block.biases = {bias.node};
      block.heads = heads_count;
      block.output = merged;
      block.sequence_major = true;
      return block;
    }
    return std::nullopt;
  }

  // torchvision's Swin Transformer window attention: windows x [B, S, C]; one packed projection ewadd(matmul(x, W [C, 3C]), b [3C])
  // reshaped to [B, S, 3, N, h] and transposed to [3, B, N, S, h]; query, key and value gathered
  // at 0, 1 and 2 of its first axis; the query times 1/sqrt(h), the key transposed to
  // [B, N, h, S]; the scores plus a weight broadcasting to [B, N, S, S] (the relative position
  // bias), for shifted windows viewed as [B / nW, nW, N, S, S] plus the shift mask (a weight
  // broadcasting to that) and viewed back, softmax over the last axis (a dropout may follow), times
  // the values, transposed back and reshaped to [B, S, C].
  std::optional<AttentionBlock> match_windows(NodeId softmax) const {
    const Node& sm = graph_.node(softmax);
    if (sm.op != Op::kSoftmax || sm.outputs[0].shape.size() != 4 ||
        tensor::attr_int(sm.attrs[0]) != 3 || !single_use(softmax))
      return std::nullopt;
    // A shifted window's scores plus bias, viewed as [B / nW, nW, N, S, S], plus the shift mask,
    // viewed back.
    NodeId biased = sm.inputs[0].node;
    std::optional<TensorRef> window_mask;
    std::int64_t windows = 0;
    if (graph_.node(biased).op == Op::kReshape) {
      const NodeId masked = graph_.node(biased).inputs[0].node;
      const Node& shift = graph_.node(masked);
      if (!single_use(biased) || shift.op != Op::kEwAdd || !single_use(masked) ||
          !valued_weight(shift.inputs[1], 5))
        return std::nullopt;
      const NodeId view = shift.inputs[0].node;
      const tensor::Shape& viewed = graph_.node(view).outputs[0].shape;
      const tensor::Shape& back = sm.outputs[0].shape;
      const tensor::Shape& mask = graph_.type_of(shift.inputs[1]).shape;
      if (graph_.node(view).op != Op::kReshape || !single_use(view) || viewed.size() != 5 ||
          viewed[0] * viewed[1] != back[0] ||
          !std::equal(viewed.begin() + 2, viewed.end(), back.begin() + 1) ||
          graph_.type_of(graph_.node(view).inputs[0]).shape != back)
        return std::nullopt;
      for (std::size_t k = 0; k < 5; ++k)
        if (mask[k] != viewed[k] && (k >= 3 || mask[k] != 1)) return std::nullopt;
      window_mask = shift.inputs[1];
      windows = viewed[1];
      biased = graph_.node(view).inputs[0].node;
    }
    const Node& add = graph_.node(biased);
    if (add.op != Op::kEwAdd || !single_use(biased)) return std::nullopt;
    const TensorRef scores = add.inputs[0], bias = add.inputs[1];
    if (!valued_weight(bias, 4) && !valued_weight(bias, 3)) return std::nullopt;
    const Node& qk = graph_.node(scores.node);
    if (qk.op != Op::kMatmul || tensor::attr_int(qk.attrs[0]) != 0 || !single_use(scores.node))
      return std::nullopt;
    const auto tail = context_tail(softmax, {0, 2, 1, 3});
    if (!tail) return std::nullopt;
    const Node& pv = graph_.node(tail->product);
    // The query times the scale, the key transposed, the values as they are.
    const Node& mul = graph_.node(qk.inputs[0].node);
    if (mul.op != Op::kEwMul || !single_use(qk.inputs[0].node)) return std::nullopt;
    const auto scale = scalar_value(mul.inputs[1]);
    if (!is_transpose(qk.inputs[1].node, {0, 1, 3, 2}) || !single_use(qk.inputs[1].node))
      return std::nullopt;
    const TensorRef parts[] = {mul.inputs[0], graph_.node(qk.inputs[1].node).inputs[0],
                               pv.inputs[1]};
    std::optional<NodeId> packed;
    for (std::int64_t part = 0; part < 3; ++part) {
      const auto gathered = gather_of(parts[part], part);
      if (!gathered || (packed && *packed != *gathered)) return std::nullopt;
      packed = gathered;
    }
    if (!is_transpose(*packed, {2, 0, 3, 1, 4}) || readers_.uses(*packed) != 3) return std::nullopt;
    const NodeId split = graph_.node(*packed).inputs[0].node;
    const Node& reshape = graph_.node(split);
    if (reshape.op != Op::kReshape || !single_use(split)) return std::nullopt;
    const tensor::Shape& dims5 = reshape.outputs[0].shape;  // [B, S, 3, N, h]
    if (dims5.size() != 5 || dims5[2] != 3) return std::nullopt;
    const std::vector<std::int64_t> dims = {dims5[0], dims5[1], dims5[3], dims5[4]};
    const auto projection = linear(reshape.inputs[0]);
    if (!projection) return std::nullopt;
    const std::int64_t width = dims[2] * dims[3];
    if (graph_.type_of(projection->x).shape != tensor::Shape{dims[0], dims[1], width} ||
        graph_.node(projection->weight).value->shape != tensor::Shape{width, 3 * width})
      return std::nullopt;
    if (!scale || *scale <= 0 || !near_sqrt(1.0 / *scale, dims[3])) return std::nullopt;
    if (graph_.node(tail->reshape).outputs[0].shape != tensor::Shape{dims[0], dims[1], width})
      return std::nullopt;
    const tensor::TensorType& bias_type = graph_.type_of(bias);
    const tensor::Shape full = {dims[2], dims[1], dims[1]};
    const tensor::Shape& b = bias_type.shape;
    if (!std::equal(full.rbegin(), full.rend(), b.rbegin()) || (b.size() == 4 && b[0] != 1))
      return std::nullopt;
    AttentionBlock block;
    block.x = projection->x;
    block.weights = {projection->weight};
    block.biases = {projection->bias};
    block.mask = bias;
    block.window_mask = window_mask;
    block.windows = windows;
    block.heads = dims[2];
    block.output = tail->reshape;
    return block;
  }

  // The tensor an opaque Gather of index `index` along axis 0 reads, when it is its only reader.
  std::optional<NodeId> gather_of(TensorRef ref, std::int64_t index) const {
    if (!opaque_of(ref, "Gather") || !single_use(ref.node)) return std::nullopt;
    const Node& gather = graph_.node(ref.node);
    if (gather.inputs.size() != 2 || scalar_value(gather.inputs[1]) != static_cast<double>(index) ||
        gather.inputs[0].output != 0)
      return std::nullopt;
    const auto payload = OpaquePayload::parse(gather.opaque->payload);
    if (!payload) return std::nullopt;
    for (const auto& attribute : payload->node().attribute())
      if (attribute.name() == "axis" && attribute.i() != 0) return std::nullopt;
    const tensor::Shape& in = graph_.type_of(gather.inputs[0]).shape;
    if (in.empty() || gather.outputs[0].shape != tensor::Shape(in.begin() + 1, in.end()))
      return std::nullopt;
    return gather.inputs[0].node;
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
  static constexpr NodeId kNone = GraphReaders::kNone;

  struct Tail {
    NodeId product = 0, reshape = 0;
  };

  // The probabilities times the values (a plain product reading `softmax`, or a dropout of it,
  // first), transposed by `perm` and reshaped: the product and the reshape, each step the only
  // reader of the one before.
  std::optional<Tail> context_tail(NodeId softmax, const std::vector<std::int64_t>& perm) const {
    NodeId probabilities = softmax;
    NodeId product = sole_consumer(softmax);
    if (product != kNone && graph_.node(product).op == Op::kDropout) {  // identity at inference
      probabilities = product;
      product = sole_consumer(product);
    }
    if (product == kNone) return std::nullopt;
    const Node& pv = graph_.node(product);
    if (pv.op != Op::kMatmul || tensor::attr_int(pv.attrs[0]) != 0 ||
        pv.inputs[0].node != probabilities || !single_use(product))
      return std::nullopt;
    const NodeId back = sole_consumer(product);
    if (back == kNone || !is_transpose(back, perm) || !single_use(back)) return std::nullopt;
    const NodeId reshape = sole_consumer(back);
    if (reshape == kNone || graph_.node(reshape).op != Op::kReshape) return std::nullopt;
    return Tail{product, reshape};
  }

  // Whether a scale is sqrt(h) (NaN is not: Attention would compute finite outputs).
  static bool near_sqrt(std::optional<double> divisor, std::int64_t h) {
    const double root = std::sqrt(static_cast<double>(h));
    return divisor && std::abs(*divisor - root) <= 1e-6 * root;
  }

  // A fill at most this low masks a score out (exp underflows to 0 next to unmasked scores), as
  // ONNX Runtime's unidirectional Attention does.
  static constexpr double kMaskedScore = -1e4;

  // The tensor an opaque Slice of the last axis, [part * width, (part + 1) * width), reads.
  std::optional<TensorRef> slice_of(TensorRef ref, std::int64_t part, std::int64_t width) const {
    if (!opaque_of(ref, "Slice") || !single_use(ref.node)) return std::nullopt;
    const Node& slice = graph_.node(ref.node);
    if (slice.inputs.size() != 4) return std::nullopt;  // data, starts, ends, axes
    const auto start = scalar_value(slice.inputs[1]), end = scalar_value(slice.inputs[2]),
               axis = scalar_value(slice.inputs[3]);
    const std::int64_t rank =
        static_cast<std::int64_t>(graph_.type_of(slice.inputs[0]).shape.size());
    if (!start || !end || !axis || *start != static_cast<double>(part * width) ||
        *end != static_cast<double>((part + 1) * width) ||
        (*axis != -1.0 && *axis != static_cast<double>(rank - 1)))
      return std::nullopt;
    return slice.inputs[0];
  }

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

  NodeId sole_consumer(NodeId id) const { return readers_.sole_reader(id); }

  bool is_transpose(NodeId id, const std::vector<std::int64_t>& perm) const {
    const Node& node = graph_.node(id);
    return node.op == Op::kTranspose && tensor::attr_ints(node.attrs[0]) == perm;
  }

  bool valued_weight(TensorRef ref, std::size_t rank) const {
    const Node& node = graph_.node(ref.node);
    return node.op == Op::kWeight && node.value && node.value->shape.size() == rank &&
           node.outputs[0].dtype == tensor::DType::kFloat32;
  }

  std::optional<double> scalar_value(TensorRef ref) const { return scalar_weight(graph_, ref); }

  // ewadd(matmul(x, W), b) in either operand order, read only by its reshape.
  std::optional<Projection> linear(TensorRef ref) const {
    const Node& add = graph_.node(ref.node);
    if (add.op != Op::kEwAdd || !single_use(ref.node)) return std::nullopt;
    for (int side : {0, 1}) {
      const TensorRef product = add.inputs[side], bias = add.inputs[1 - side];
      const Node& mm = graph_.node(product.node);
      if (mm.op != Op::kMatmul || tensor::attr_int(mm.attrs[0]) != 0 || !single_use(product.node) ||
          !valued_weight(mm.inputs[1], 2) || !valued_weight(bias, 1))
        continue;
      if (graph_.node(bias.node).value->shape[0] != graph_.node(mm.inputs[1].node).value->shape[1])
        continue;
      return Projection{mm.inputs[0], mm.inputs[1].node, bias.node};
    }
    return std::nullopt;
  }

  // A float mask of rank 4 whose dimensions broadcast to [B, N, S, S] (each one or the full size).
  bool mask_fits(TensorRef mask, const std::vector<std::int64_t>& dims) const {
    const tensor::TensorType& type = graph_.type_of(mask);
    if (type.dtype != tensor::DType::kFloat32 || type.shape.size() != 4) return false;
    const std::int64_t full[4] = {dims[0], dims[2], dims[1], dims[1]};
    for (int k = 0; k < 4; ++k)
      if (type.shape[k] != 1 && type.shape[k] != full[k]) return false;
    return true;
  }

  // A weight with values, [.., S, S] with leading ones, that is 1 on and below the diagonal and 0
  // above it.
  bool lower_triangular(TensorRef ref) const {
    const Node& node = graph_.node(ref.node);
    if (node.op != Op::kWeight || !node.value) return false;
    const tensor::Shape& shape = node.value->shape;
    if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2]) return false;
    const std::int64_t n = shape.back();
    if (tensor::numel(shape) != n * n) return false;
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t c = 0; c < n; ++c)
        if (node.value->data[static_cast<std::size_t>(r * n + c)] != (c <= r ? 1.0 : 0.0))
          return false;
    return true;
  }

  bool opaque_of(TensorRef ref, std::string_view type) const {
    const Node& node = graph_.node(ref.node);
    return node.op == Op::kOpaque && node.opaque->type == type && node.outputs.size() == 1;
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
      if (!opaque_of(cast, "Cast")) continue;
      const TensorRef outer = graph_.node(cast.node).inputs.at(0);
      if (!opaque_of(outer, "Unsqueeze")) continue;
      const TensorRef inner = graph_.node(outer.node).inputs.at(0);
      if (!opaque_of(inner, "Unsqueeze")) continue;
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
    const tensor::TensorType result = graph_.node(block.output).outputs[0];
    const std::string base = graph_.node(block.output).name + "/attention";
    const tensor::Shape x = graph_.type_of(block.x).shape;  // [B, S, H]
    const tensor::TensorType attended{{x[0], x[1], tensor::numel(result.shape) / (x[0] * x[1])},
                                      tensor::DType::kFloat32};
    const auto packed_or_given = [&](const std::string& name, const std::vector<NodeId>& parts,
                                     std::size_t axis) {
      return parts.size() == 1 ? TensorRef{parts[0], 0} : packed(name, parts, axis);
    };
    std::vector<TensorRef> inputs = {block.x,
                                     packed_or_given(base + "/qkv_weight", block.weights, 1),
                                     packed_or_given(base + "/qkv_bias", block.biases, 0)};
    std::vector<std::string> names = {"x", "weight", "bias"};
    if (block.flags) {
      inputs.push_back(int32_flags(base + "/mask_index", *block.flags));
      names.push_back("mask_index");
    } else if (block.mask) {
      const tensor::Shape m = graph_.type_of(*block.mask).shape;
      // ONNX Runtime 1.20's CPU Attention reads attention_bias as [B, N, S, S] when B > 1 (a
      // [B, 1, S, S] bias gave other outputs at batch 2): the mask is expanded to the full shape.
      const tensor::Shape full = {x[0], block.heads, x[1], x[1]};
      if (block.window_mask)
        inputs.push_back(shifted_bias(base + "/shifted_bias", block, full));
      else
        inputs.push_back(m == full ? *block.mask : expand(base + "/mask", *block.mask, full));
      names.insert(names.end(), {"", "", "attention_bias"});
    }
    onnx::NodeProto node;
    node.set_op_type("Attention");
    node.set_domain("com.microsoft");
    node.set_name(base);
    for (const auto& name : names) node.add_input(name);
    node.add_output("y");
    auto* heads = node.add_attribute();
    heads->set_name("num_heads");
    heads->set_type(onnx::AttributeProto::INT);
    heads->set_i(block.heads);
    if (block.causal) {
      auto* unidirectional = node.add_attribute();
      unidirectional->set_name("unidirectional");
      unidirectional->set_type(onnx::AttributeProto::INT);
      unidirectional->set_i(1);
    }
    if (block.flags) {
      auto* filter = node.add_attribute();
      filter->set_name("mask_filter_value");
      filter->set_type(onnx::AttributeProto::FLOAT);
      filter->set_f(static_cast<float>(block.filter));
    }
    TensorRef attention = opaque(base, std::string(tensor::kOnnxRuntimeAttention), node, {}, "com.microsoft",
                                 std::move(inputs), attended);
    if (block.sequence_major && x[0] > 1) {  // [B, S, E] to torch's [S, B, E]
      Node transpose;
      transpose.name = base + "/transpose";
      transpose.op = Op::kTranspose;
      transpose.inputs = {attention};
      transpose.attrs = {std::vector<std::int64_t>{1, 0, 2}};
      attention = add_node(std::move(transpose));
    }
    if (attended.shape != result.shape) {  // the same elements in the same order
      Node reshape;
      reshape.name = base + "/reshape";
      reshape.op = Op::kReshape;
      reshape.inputs = {attention};
      reshape.attrs = {result.shape};
      attention = add_node(std::move(reshape));
    }
    replaced_.push_back({block.output, attention});
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
  TensorRef add_node(Node node) {
    node.name = unique(node.name);
    return {graph_.add_node(std::move(node)), 0};
  }

  std::string unique(const std::string& base) const {
    std::string name = base;
    for (int k = 1; graph_.find(name); ++k) name = fmt::format("{}_{}", base, k);
    return name;
  }

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
    return weight(name, std::move(value));
  }

  // Swin's bias for every window of every image, [B, N, S, S]: the relative position bias
  // ([1, N, S, S] or [N, S, S]) plus the shift mask of window w % windows.
  TensorRef shifted_bias(const std::string& name, const AttentionBlock& block,
                         const tensor::Shape& full) {
    const tensor::Tensor& bias = *graph_.node(block.mask->node).value;
    const tensor::Tensor& mask = *graph_.node(block.window_mask->node).value;
    const std::int64_t heads = full[1], length = full[2], square = length * length;
    tensor::Tensor value(full);
    for (std::int64_t w = 0; w < full[0]; ++w) {
      const std::int64_t image = mask.shape[0] == 1 ? 0 : w / block.windows;
      const std::int64_t window = mask.shape[1] == 1 ? 0 : w % block.windows;
      for (std::int64_t n = 0; n < heads; ++n) {
        const std::int64_t head = mask.shape[2] == 1 ? 0 : n;
        const std::int64_t mask_at =
            ((image * mask.shape[1] + window) * mask.shape[2] + head) * square;
        for (std::int64_t ij = 0; ij < square; ++ij)
          value.data[static_cast<std::size_t>((w * heads + n) * square + ij)] =
              bias.data[static_cast<std::size_t>(n * square + ij)] +
              mask.data[static_cast<std::size_t>(mask_at + ij)];
      }
    }
    return weight(name, std::move(value));
  }

  TensorRef weight(const std::string& name, tensor::Tensor value) {
    Node node;
    node.name = name;
    node.op = Op::kWeight;
    node.attrs = {value.shape};
    node.leaf_dtype = tensor::DType::kFloat32;
    node.value = std::make_shared<const tensor::Tensor>(std::move(value));
    return add_node(std::move(node));
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
    else if (auto torch = matcher.match_torch(id))
      blocks.push_back(std::move(*torch));
    else if (auto windows = matcher.match_windows(id))
      blocks.push_back(std::move(*windows));
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
