// Recognising exporters' self-attention (see decomposed_attention.hpp).
#include "frontend/decomposed_attention.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

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
using tensor::Shape;
using tensor::TensorRef;

// torch.nn.MultiheadAttention's packed projection ewadd(matmul(transpose(x), w), b), to be
// computed batch-major: ewadd(matmul(x, w), b).
struct SequenceMajorProjection {
  TensorRef x, weight, bias;
};

// One matched block.
struct AttentionMatch {
  TensorRef q, k, v;  // [B, S, N*h] each, unless `packed` or `projection` supplies them
  std::optional<TensorRef> packed;                    // [B, S, 3 N*h], split into q, k and v
  std::optional<SequenceMajorProjection> projection;  // torch's, split into q, k and v
  std::optional<TensorRef> bias;                      // additive, broadcasting to [B, N, S, S]
  // Swin's shift mask, added per window on top of `bias`: a weight broadcasting to
  // [B / windows, windows, N, S, S] (B counts the windows of every image).
  std::optional<TensorRef> window_mask;
  std::int64_t windows = 0;
  bool causal = false;
  double scale = 0;
  std::int64_t heads = 0, batch = 0, width = 0;  // B and N*h
  NodeId output = 0;  // the block's last node: its readers read the attention ([S * B, N*h]
                      // through a transpose and a reshape in torch's layout, with `projection`)
};

// A fill at most this low masks a score out (exp underflows to 0 next to unmasked scores).
constexpr double kMaskedOutScore = -1e4;

class AttentionRecogniser {
 public:
  explicit AttentionRecogniser(const Graph& graph) : graph_(graph), readers_(graph) {}

  RecognisedAttention run() {
    std::vector<AttentionMatch> blocks;  // matched on the graph as given, then rewritten
    for (NodeId id = 0; id < graph_.size(); ++id) {
      if (auto block = match_heads(id))
        blocks.push_back(std::move(*block));
      else if (auto torch = match_torch(id))
        blocks.push_back(std::move(*torch));
      else if (auto windows = match_windows(id))
        blocks.push_back(std::move(*windows));
    }
    if (blocks.empty()) return {graph_, 0};
    for (const AttentionMatch& block : blocks) rewrite(block);
    graph_.infer_and_validate();
    return {fold_weights(graph_), blocks.size()};
  }

 private:
  static constexpr NodeId kNone = GraphReaders::kNone;

  // Hugging Face's form: the block whose softmax is `softmax`, if it is one.
  std::optional<AttentionMatch> match_heads(NodeId softmax) const {
    const Node& sm = graph_.node(softmax);
    if (sm.op != Op::kSoftmax || sm.outputs[0].shape.size() != 4 ||
        tensor::attr_int(sm.attrs[0]) != 3 || !single_use(softmax))
      return std::nullopt;
    AttentionMatch block;
    // softmax(scaled scores [+ mask]) or softmax(where(causal, scaled scores, fill))
    NodeId scaled = sm.inputs[0].node;
    if (graph_.node(scaled).op == Op::kEwAdd) {
      const Node& add = graph_.node(scaled);
      if (!single_use(scaled)) return std::nullopt;
      const bool first = scaling(add.inputs[0].node).has_value();
      block.bias = add.inputs[first ? 1 : 0];
      scaled = add.inputs[first ? 0 : 1].node;
    } else if (opaque_of(graph_, {scaled, 0}, "Where")) {
      const Node& where = graph_.node(scaled);
      if (!single_use(scaled) || where.inputs.size() != 3 || !lower_triangular(where.inputs[0]))
        return std::nullopt;
      const auto fill = scalar_weight(graph_, where.inputs[2]);
      if (!fill || !(*fill <= kMaskedOutScore)) return std::nullopt;  // NaN is not masked out
      if (graph_.type_of(where.inputs[0]).shape.back() != sm.outputs[0].shape[3])
        return std::nullopt;
      block.causal = true;
      scaled = where.inputs[1].node;
    }
    const auto scale = scaling(scaled);
    if (!scale || !single_use(scaled)) return std::nullopt;
    block.scale = *scale;
    const NodeId scores = graph_.node(scaled).inputs[0].node;
    const Node& qk = graph_.node(scores);
    if (!plain_product(scores) || !single_use(scores)) return std::nullopt;
    const auto tail = context_tail(softmax, {0, 2, 1, 3});
    if (!tail) return std::nullopt;
    const Node& pv = graph_.node(tail->product);
    const std::pair<TensorRef, std::vector<std::int64_t>> heads[] = {
        {qk.inputs[0], {0, 2, 1, 3}}, {qk.inputs[1], {0, 2, 3, 1}}, {pv.inputs[1], {0, 2, 1, 3}}};
    TensorRef* operands[] = {&block.q, &block.k, &block.v};
    std::optional<Shape> split_shape;
    for (std::size_t part = 0; part < 3; ++part) {
      const auto split = head_split(heads[part].first, heads[part].second);
      if (!split) return std::nullopt;
      const Node& reshape = graph_.node(*split);
      const Shape& shape = reshape.outputs[0].shape;  // [B, S, N, h]
      const Shape& in = graph_.type_of(reshape.inputs[0]).shape;
      if (shape.size() != 4 || (split_shape && *split_shape != shape) ||
          in != Shape{shape[0], shape[1], shape[2] * shape[3]})
        return std::nullopt;
      split_shape = shape;
      *operands[part] = reshape.inputs[0];
    }
    const Shape& dims = *split_shape;
    block.batch = dims[0];
    block.heads = dims[2];
    block.width = dims[2] * dims[3];
    block.output = tail->reshape;
    if (graph_.node(block.output).outputs[0].shape != Shape{dims[0], dims[1], block.width})
      return std::nullopt;
    if (block.bias && !bias_fits(*block.bias, {dims[0], dims[2], dims[1], dims[1]}))
      return std::nullopt;
    return block;
  }

  // torch.nn.MultiheadAttention's export (its [S, B, E] layout): x [B, S, E] transposed to
  // [S, B, E], one packed projection ewadd(matmul(., W [E, 3E]), b [3E]) sliced into query, key
  // and value along the last axis, each reshaped to [S, B*N, h] (head n of batch b at b*N + n) and
  // transposed (key to [B*N, h, S]), the query divided by a constant, softmax over the last axis,
  // times the values, transposed back and reshaped to [S*B, E] (row s*B + b).
  std::optional<AttentionMatch> match_torch(NodeId softmax) const {
    const Node& sm = graph_.node(softmax);
    if (sm.op != Op::kSoftmax || sm.outputs[0].shape.size() != 3 ||
        tensor::attr_int(sm.attrs[0]) != 2 || !single_use(softmax))
      return std::nullopt;
    const NodeId scores = sm.inputs[0].node;
    const Node& qk = graph_.node(scores);
    if (!plain_product(scores) || !single_use(scores)) return std::nullopt;
    const auto tail = context_tail(softmax, {1, 0, 2});
    if (!tail) return std::nullopt;
    const Node& pv = graph_.node(tail->product);
    // The query: transpose(reshape(slice 0), [1, 0, 2]) scaled.
    const NodeId query = qk.inputs[0].node;
    const auto scale = scaling(query);
    if (!scale || !single_use(query)) return std::nullopt;
    const std::pair<TensorRef, std::vector<std::int64_t>> heads[] = {
        {graph_.node(query).inputs[0], {1, 0, 2}},
        {qk.inputs[1], {1, 2, 0}},
        {pv.inputs[1], {1, 0, 2}}};
    std::optional<TensorRef> projected;
    std::optional<Shape> split_shape;
    for (std::int64_t part = 0; part < 3; ++part) {
      const auto split = head_split(heads[part].first, heads[part].second);
      if (!split) return std::nullopt;
      const Node& reshape = graph_.node(*split);
      const Shape& shape = reshape.outputs[0].shape;                        // [S, B*N, h]
      const Shape& sliced_shape = graph_.type_of(reshape.inputs[0]).shape;  // [S, B, E]
      if (shape.size() != 3 || sliced_shape.size() != 3 || (split_shape && *split_shape != shape))
        return std::nullopt;
      split_shape = shape;
      const auto sliced = slice_of(reshape.inputs[0], part, sliced_shape[2]);
      if (!sliced || (projected && *projected != *sliced)) return std::nullopt;
      projected = sliced;
    }
    const Shape& dims = *split_shape;
    const Shape& packed = graph_.type_of(*projected).shape;  // [S, B, 3E]
    if (packed.size() != 3) return std::nullopt;
    const std::int64_t seq = dims[0], batch = packed[1], width = packed[2] / 3;
    if (packed[0] != seq || packed[2] % 3 != 0 || dims[1] % batch != 0) return std::nullopt;
    const std::int64_t heads_count = dims[1] / batch;
    if (heads_count * dims[2] != width) return std::nullopt;
    if (graph_.node(tail->reshape).outputs[0].shape != Shape{seq * batch, width})
      return std::nullopt;
    // The packed projection of x transposed to [S, B, E], read by the three slices only.
    const Node& add = graph_.node(projected->node);
    if (add.op != Op::kEwAdd || readers_.uses(projected->node) != 3) return std::nullopt;
    for (int side : {0, 1}) {
      const TensorRef product = add.inputs[side], bias = add.inputs[1 - side];
      const Node& mm = graph_.node(product.node);
      if (!plain_product(product.node) || !single_use(product.node) ||
          graph_.type_of(mm.inputs[1]).shape != Shape{width, 3 * width} ||
          graph_.type_of(bias).shape != Shape{3 * width})
        continue;
      const TensorRef transposed = mm.inputs[0];
      if (!is_transpose(transposed.node, {1, 0, 2}) || !single_use(transposed.node)) continue;
      const TensorRef x = graph_.node(transposed.node).inputs[0];
      if (graph_.type_of(x).shape != Shape{batch, seq, width}) continue;
      AttentionMatch block;
      block.projection = SequenceMajorProjection{x, mm.inputs[1], bias};
      block.scale = *scale;
      block.heads = heads_count;
      block.batch = batch;
      block.width = width;
      block.output = tail->reshape;
      return block;
    }
    return std::nullopt;
  }

  // torchvision's Swin Transformer window attention: windows P [B, S, 3C] reshaped to
  // [B, S, 3, N, h] and transposed to [3, B, N, S, h]; query, key and value gathered at 0, 1 and 2
  // of its first axis; the query times a constant, the key transposed to [B, N, h, S]; the scores
  // plus a weight broadcasting to [B, N, S, S] (the relative position bias), for shifted windows
  // viewed as [B / nW, nW, N, S, S] plus the shift mask (a weight broadcasting to that) and viewed
  // back, softmax over the last axis (a dropout may follow), times the values, transposed back and
  // reshaped to [B, S, C].
  std::optional<AttentionMatch> match_windows(NodeId softmax) const {
    const Node& sm = graph_.node(softmax);
    if (sm.op != Op::kSoftmax || sm.outputs[0].shape.size() != 4 ||
        tensor::attr_int(sm.attrs[0]) != 3 || !single_use(softmax))
      return std::nullopt;
    NodeId biased = sm.inputs[0].node;
    std::optional<TensorRef> window_mask;
    std::int64_t windows = 0;
    if (graph_.node(biased).op == Op::kReshape) {
      const NodeId masked = graph_.node(biased).inputs[0].node;
      const Node& shift = graph_.node(masked);
      if (!single_use(biased) || shift.op != Op::kEwAdd || !single_use(masked) ||
          !valued_weight(graph_, shift.inputs[1], 5))
        return std::nullopt;
      const NodeId view = shift.inputs[0].node;
      const Shape& viewed = graph_.node(view).outputs[0].shape;
      const Shape& back = sm.outputs[0].shape;
      const Shape& mask = graph_.type_of(shift.inputs[1]).shape;
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
    if (!valued_weight(graph_, bias, 4) && !valued_weight(graph_, bias, 3)) return std::nullopt;
    const Node& qk = graph_.node(scores.node);
    if (!plain_product(scores.node) || !single_use(scores.node)) return std::nullopt;
    const auto tail = context_tail(softmax, {0, 2, 1, 3});
    if (!tail) return std::nullopt;
    const Node& pv = graph_.node(tail->product);
    // The query times the scale, the key transposed, the values as they are.
    const NodeId query = qk.inputs[0].node;
    const Node& mul = graph_.node(query);
    const auto scale = scaling(query);
    if (mul.op != Op::kEwMul || !scale || !single_use(query)) return std::nullopt;
    if (!is_transpose(qk.inputs[1].node, {0, 1, 3, 2}) || !single_use(qk.inputs[1].node))
      return std::nullopt;
    const TensorRef parts[] = {mul.inputs[0], graph_.node(qk.inputs[1].node).inputs[0],
                               pv.inputs[1]};
    std::optional<NodeId> gathered_from;
    for (std::int64_t part = 0; part < 3; ++part) {
      const auto gathered = gather_of(parts[part], part);
      if (!gathered || (gathered_from && *gathered_from != *gathered)) return std::nullopt;
      gathered_from = gathered;
    }
    if (!is_transpose(*gathered_from, {2, 0, 3, 1, 4}) || readers_.uses(*gathered_from) != 3)
      return std::nullopt;
    const NodeId split = graph_.node(*gathered_from).inputs[0].node;
    const Node& reshape = graph_.node(split);
    if (reshape.op != Op::kReshape || !single_use(split)) return std::nullopt;
    const Shape& dims5 = reshape.outputs[0].shape;  // [B, S, 3, N, h]
    if (dims5.size() != 5 || dims5[2] != 3) return std::nullopt;
    const std::int64_t width = dims5[3] * dims5[4];
    if (graph_.type_of(reshape.inputs[0]).shape != Shape{dims5[0], dims5[1], 3 * width} ||
        graph_.node(tail->reshape).outputs[0].shape != Shape{dims5[0], dims5[1], width})
      return std::nullopt;
    const Shape& b = graph_.type_of(bias).shape;
    const Shape full = {dims5[3], dims5[1], dims5[1]};
    if (!std::equal(full.rbegin(), full.rend(), b.rbegin()) || (b.size() == 4 && b[0] != 1))
      return std::nullopt;
    AttentionMatch block;
    block.packed = reshape.inputs[0];
    block.bias = bias;
    block.window_mask = window_mask;
    block.windows = windows;
    block.scale = *scale;
    block.heads = dims5[3];
    block.batch = dims5[0];
    block.width = width;
    block.output = tail->reshape;
    return block;
  }

  struct Tail {
    NodeId product = 0, reshape = 0;
  };

  // The probabilities times the values (a plain product reading `softmax`, or a dropout of it,
  // first), transposed by `perm` and reshaped: the product and the reshape, each step the only
  // reader of the one before.
  std::optional<Tail> context_tail(NodeId softmax, const std::vector<std::int64_t>& perm) const {
    NodeId probabilities = softmax;
    NodeId product = readers_.sole_reader(softmax);
    if (product != kNone && graph_.node(product).op == Op::kDropout) {  // identity at inference
      probabilities = product;
      product = readers_.sole_reader(product);
    }
    if (product == kNone || !plain_product(product) ||
        graph_.node(product).inputs[0].node != probabilities || !single_use(product))
      return std::nullopt;
    const NodeId back = readers_.sole_reader(product);
    if (back == kNone || !is_transpose(back, perm) || !single_use(back)) return std::nullopt;
    const NodeId reshape = readers_.sole_reader(back);
    if (reshape == kNone || graph_.node(reshape).op != Op::kReshape) return std::nullopt;
    return Tail{product, reshape};
  }

  // The reshape that transpose `ref` (by `perm`) reads, each read only by the next.
  std::optional<NodeId> head_split(TensorRef ref, const std::vector<std::int64_t>& perm) const {
    if (ref.output != 0 || !is_transpose(ref.node, perm) || !single_use(ref.node))
      return std::nullopt;
    const NodeId split = graph_.node(ref.node).inputs[0].node;
    if (graph_.node(split).op != Op::kReshape || !single_use(split)) return std::nullopt;
    return split;
  }

  // The factor by which node `id` scales its first operand: 1 / c for a division by a one-element
  // weight c, c for a product with one; finite and nonzero.
  std::optional<double> scaling(NodeId id) const {
    const Node& node = graph_.node(id);
    if ((node.op != Op::kEwDiv && node.op != Op::kEwMul) || node.inputs.size() != 2 ||
        node.outputs[0].shape != graph_.type_of(node.inputs[0]).shape)
      return std::nullopt;
    const auto value = scalar_weight(graph_, node.inputs[1]);
    if (!value || *value == 0 || !std::isfinite(*value)) return std::nullopt;
    const double factor = node.op == Op::kEwDiv ? 1.0 / *value : *value;
    return std::isfinite(factor) ? std::optional<double>(factor) : std::nullopt;
  }

  bool plain_product(NodeId id) const {
    const Node& node = graph_.node(id);
    return node.op == Op::kMatmul &&
           tensor::attr_int(node.attrs[0]) == static_cast<std::int64_t>(tensor::Activation::kNone);
  }

  bool single_use(NodeId id) const { return readers_.uses(id) == 1; }

  bool is_transpose(NodeId id, const std::vector<std::int64_t>& perm) const {
    const Node& node = graph_.node(id);
    return node.op == Op::kTranspose && tensor::attr_ints(node.attrs[0]) == perm;
  }

  // A float tensor of rank <= 4 broadcasting to `scores` ([B, N, S, L]) without growing it.
  bool bias_fits(TensorRef bias, const Shape& scores) const {
    const tensor::TensorType& type = graph_.type_of(bias);
    if (type.dtype != tensor::DType::kFloat32 || type.shape.size() > 4) return false;
    const std::size_t offset = 4 - type.shape.size();
    for (std::size_t k = 0; k < type.shape.size(); ++k)
      if (type.shape[k] != 1 && type.shape[k] != scores[offset + k]) return false;
    return true;
  }

  // A weight with values, [.., S, S] with leading ones, that is 1 on and below the diagonal and 0
  // above it.
  bool lower_triangular(TensorRef ref) const {
    const Node& node = graph_.node(ref.node);
    if (node.op != Op::kWeight || !node.value) return false;
    const Shape& shape = node.value->shape;
    if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2]) return false;
    const std::int64_t n = shape.back();
    if (tensor::numel(shape) != n * n) return false;
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t c = 0; c < n; ++c)
        if (node.value->data[static_cast<std::size_t>(r * n + c)] != (c <= r ? 1.0 : 0.0))
          return false;
    return true;
  }

  // The tensor an opaque Slice of the last axis, [part * width, (part + 1) * width), reads.
  std::optional<TensorRef> slice_of(TensorRef ref, std::int64_t part, std::int64_t width) const {
    if (!opaque_of(graph_, ref, "Slice") || !single_use(ref.node)) return std::nullopt;
    const Node& slice = graph_.node(ref.node);
    if (slice.inputs.size() != 4) return std::nullopt;  // data, starts, ends, axes
    const auto start = scalar_weight(graph_, slice.inputs[1]),
               end = scalar_weight(graph_, slice.inputs[2]),
               axis = scalar_weight(graph_, slice.inputs[3]);
    const auto rank = static_cast<std::int64_t>(graph_.type_of(slice.inputs[0]).shape.size());
    if (!start || !end || !axis || *start != static_cast<double>(part * width) ||
        *end != static_cast<double>((part + 1) * width) ||
        (*axis != -1.0 && *axis != static_cast<double>(rank - 1)))
      return std::nullopt;
    return slice.inputs[0];
  }

  // The tensor an opaque Gather of index `index` along axis 0 reads, when it is its only reader.
  std::optional<NodeId> gather_of(TensorRef ref, std::int64_t index) const {
    if (!opaque_of(graph_, ref, "Gather") || !single_use(ref.node)) return std::nullopt;
    const Node& gather = graph_.node(ref.node);
    if (gather.inputs.size() != 2 ||
        scalar_weight(graph_, gather.inputs[1]) != static_cast<double>(index) ||
        gather.inputs[0].output != 0)
      return std::nullopt;
    const auto payload = OpaquePayload::parse(gather.opaque->payload);
    if (!payload) return std::nullopt;
    for (const auto& attribute : payload->node().attribute())
      if (attribute.name() == "axis" && attribute.i() != 0) return std::nullopt;
    const Shape& in = graph_.type_of(gather.inputs[0]).shape;
    if (in.empty() || gather.outputs[0].shape != Shape(in.begin() + 1, in.end()))
      return std::nullopt;
    return gather.inputs[0].node;
  }

  // Rewriting a matched block: its operands, its bias and the attention, which the block's last
  // node becomes (or, in torch's layout, reads through a transpose and a reshape). The replaced
  // nodes stay, unread, until fold_weights drops them.
  void rewrite(const AttentionMatch& block) {
    const std::string base = graph_.node(block.output).name;
    TensorRef q = block.q, k = block.k, v = block.v;
    std::optional<TensorRef> packed = block.packed;
    if (block.projection) {
      const SequenceMajorProjection& p = *block.projection;
      const TensorRef product =
          add_operator(graph_, base + "/qkv_product", Op::kMatmul, {p.x, p.weight},
                       {static_cast<std::int64_t>(tensor::Activation::kNone)});
      packed = add_operator(graph_, base + "/qkv", Op::kEwAdd, {product, p.bias}, {});
    }
    if (packed) {
      const TensorRef split =
          add_operator(graph_, base + "/qkv_split", Op::kSplit, {*packed},
                       {std::int64_t{2}, std::vector<std::int64_t>(3, block.width)});
      q = {split.node, 0};
      k = {split.node, 1};
      v = {split.node, 2};
    }
    TensorRef bias = block.bias
                         ? *block.bias
                         : add_weight(graph_, base + "/no_bias", tensor::Tensor({1, 1, 1, 1}, 0.0));
    if (block.window_mask) bias = add_weight(graph_, base + "/shifted_bias", shifted_bias(block));
    const tensor::Attrs attrs = {block.heads, std::int64_t{block.causal ? 1 : 0}, block.scale};
    if (!block.projection) {
      turn_into(graph_, block.output, Op::kAttention, {q, k, v, bias}, attrs);
      return;
    }
    // torch's layout: [B, S, E] to [S, B, E] (for B > 1), then the block's [S * B, E].
    TensorRef attended =
        add_operator(graph_, base + "/attention", Op::kAttention, {q, k, v, bias}, attrs);
    if (block.batch > 1)
      attended = add_operator(graph_, base + "/sequence_major", Op::kTranspose, {attended},
                              {std::vector<std::int64_t>{1, 0, 2}});
    const Shape shape = graph_.node(block.output).outputs[0].shape;
    turn_into(graph_, block.output, Op::kReshape, {attended}, {shape});
  }

  // Swin's bias for every window of every image, [B, N, S, S]: the relative position bias
  // ([1, N, S, S] or [N, S, S]) plus the shift mask of window w % windows.
  tensor::Tensor shifted_bias(const AttentionMatch& block) const {
    const tensor::Tensor& bias = *graph_.node(block.bias->node).value;
    const tensor::Tensor& mask = *graph_.node(block.window_mask->node).value;
    const std::int64_t length = bias.shape.back(), square = length * length;
    const Shape full = {block.batch, block.heads, length, length};
    tensor::Tensor value(full);
    for (std::int64_t w = 0; w < block.batch; ++w) {
      const std::int64_t image = mask.shape[0] == 1 ? 0 : w / block.windows;
      const std::int64_t window = mask.shape[1] == 1 ? 0 : w % block.windows;
      for (std::int64_t n = 0; n < block.heads; ++n) {
        const std::int64_t head = mask.shape[2] == 1 ? 0 : n;
        const std::int64_t mask_at =
            ((image * mask.shape[1] + window) * mask.shape[2] + head) * square;
        for (std::int64_t ij = 0; ij < square; ++ij)
          value.data[static_cast<std::size_t>((w * block.heads + n) * square + ij)] =
              bias.data[static_cast<std::size_t>(n * square + ij)] +
              mask.data[static_cast<std::size_t>(mask_at + ij)];
      }
    }
    return value;
  }

  Graph graph_;
  GraphReaders readers_;  // of the graph as given (nodes added later are read by none of it)
};

}  // namespace

RecognisedAttention recognise_attention(const Graph& graph) {
  return AttentionRecogniser(graph).run();
}

}  // namespace mctsat::frontend
