// oneDNN primitives for each operator: convolution (grouped) and matmul (batched, broadcasting)
// with the activation fused as a post-op, binary operations with broadcasting, eltwise, pooling,
// mean reduction, concat, split parts as views or strided copies, softmax, batch normalization,
// layer normalization, attention composed of matmuls over strided views, and reorders for
// transposes. Attributes are decoded and checked here, with the reference kernels'
// conventions (SAME padding puts the odd cell at the end, average pooling counts padding).
#include "runtime/dnnl_primitives.hpp"

#include <limits>

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::runtime::dnnl_lowering {

using namespace tensor;
namespace {

using dnnl::algorithm;
using dnnl::memory;
using Dims = memory::dims;

Dims row_major_strides(const Dims& dims) {
  Dims strides(dims.size(), 1);
  for (std::size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  return strides;
}

Dims dims_of(const Shape& shape) {
  return shape.empty() ? Dims{1} : Dims(shape.begin(), shape.end());
}

// `shape` with leading ones up to `rank` (numpy broadcasting aligns trailing dimensions).
Shape padded(const Shape& shape, std::size_t rank) {
  Shape out(rank - std::min(rank, shape.size()), 1);
  out.insert(out.end(), shape.begin(), shape.end());
  return out;
}

// A plain buffer for `shape` that only the steps write (see in_arena_for_run).
memory fresh(const dnnl::engine& engine, ExecutorArena& arena, const Shape& shape) {
  return in_arena_for_run(plain_desc(shape), engine, arena);
}

algorithm eltwise_algorithm(Activation act) {
  switch (act) {
    case Activation::kSigmoid:
      return algorithm::eltwise_logistic;
    case Activation::kRelu:
      return algorithm::eltwise_relu;
    case Activation::kTanh:
      return algorithm::eltwise_tanh;
    case Activation::kNone:
      break;
  }
  MCTSAT_ASSERT(false && "no eltwise algorithm for the identity activation");
}

dnnl::primitive_attr fused(Activation act) {
  dnnl::primitive_attr attr;
  if (act != Activation::kNone) {
    dnnl::post_ops ops;
    ops.append_eltwise(1.0f, eltwise_algorithm(act), 0.0f, 0.0f);
    attr.set_post_ops(ops);
  }
  return attr;
}

// Runs `from -> to` now (constant operand) or at every execution.
void reorder(memory from, memory to, bool now, dnnl::stream& stream, std::vector<Step>& steps) {
  dnnl::reorder primitive(from, to);
  if (now) {
    primitive.execute(stream, from, to);
    stream.wait();
  } else {
    steps.push_back({primitive, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}});
  }
}

void eltwise(const dnnl::engine& engine, algorithm alg, float alpha, float beta, const memory& src,
             const memory& dst, std::vector<Step>& steps) {
  const dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, alg, src.get_desc(),
                                         alpha, beta);
  steps.push_back(
      {dnnl::eltwise_forward({desc, engine}), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}}});
}

// Padding before and after along the two spatial axes of a window operator (TENSAT's SAME / VALID,
// as kernels::pad_begin).
struct WindowPadding {
  Dims before, after;
};
WindowPadding window_padding(Padding pad, const Shape& in, const Shape& out, std::int64_t kernel_h,
                             std::int64_t kernel_w, std::int64_t stride_h, std::int64_t stride_w) {
  WindowPadding result{{0, 0}, {0, 0}};
  const std::int64_t kernels[2] = {kernel_h, kernel_w}, strides[2] = {stride_h, stride_w};
  for (std::size_t axis = 0; axis < 2; ++axis) {
    const std::int64_t size = in[axis + 2], out_size = out[axis + 2];
    if (pad == Padding::kValid) continue;
    const std::int64_t total =
        std::max<std::int64_t>((out_size - 1) * strides[axis] + kernels[axis] - size, 0);
    result.before[axis] = kernels::pad_begin(pad, size, kernels[axis], strides[axis], out_size);
    result.after[axis] = total - result.before[axis];
  }
  return result;
}

std::vector<memory> conv2d(const dnnl::engine& engine, ExecutorArena& arena, dnnl::stream& stream,
                           const Node& node, std::span<const Operand> in,
                           std::vector<Step>& steps) {
  const Shape &x = in[0].shape, &w = in[1].shape, &out = node.outputs[0].shape;
  const std::int64_t stride_h = attr_int(node.attrs[0]), stride_w = attr_int(node.attrs[1]);
  const WindowPadding pad =
      window_padding(padding_attr(node.attrs[2]), x, out, w[2], w[3], stride_h, stride_w);
  const std::int64_t groups = x[1] / w[1];
  const Dims weight_dims =
      groups == 1 ? Dims{w[0], w[1], w[2], w[3]} : Dims{groups, w[0] / groups, w[1], w[2], w[3]};
  const memory::desc any_weights(weight_dims, memory::data_type::f32, memory::format_tag::any);
  const memory dst = fresh(engine, arena, out);
  const dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, algorithm::convolution_direct, in[0].memory.get_desc(),
      any_weights, dst.get_desc(), {stride_h, stride_w}, pad.before, pad.after);
  const dnnl::convolution_forward::primitive_desc pd(desc, fused(activation_attr(node.attrs[3])),
                                                     engine);
  memory weights = view_of(in[1].memory, memory::desc(weight_dims, memory::data_type::f32,
                                                      row_major_strides(weight_dims)));
  if (pd.weights_desc() != weights.get_desc()) {
    memory blocked = in[1].constant ? in_arena(pd.weights_desc(), engine, arena)
                                    : in_arena_for_run(pd.weights_desc(), engine, arena);
    reorder(weights, blocked, in[1].constant, stream, steps);
    weights = blocked;
  }
  steps.push_back(
      {dnnl::convolution_forward(pd),
       {{DNNL_ARG_SRC, in[0].memory}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}}});
  return {dst};
}

std::vector<memory> matmul(const dnnl::engine& engine, ExecutorArena& arena, dnnl::stream& stream,
                           const Node& node, std::span<const Operand> in,
                           std::vector<Step>& steps) {
  const Shape& out = node.outputs[0].shape;
  const memory a = view_of(in[0].memory, plain_desc(padded(in[0].shape, out.size())));
  memory b = view_of(in[1].memory, plain_desc(padded(in[1].shape, out.size())));
  const memory dst = fresh(engine, arena, out);
  // Constant weights get the layout oneDNN prefers (reordered once); run-time ones stay plain.
  const memory::desc weights =
      in[1].constant
          ? memory::desc(b.get_desc().dims(), memory::data_type::f32, memory::format_tag::any)
          : b.get_desc();
  const dnnl::matmul::desc desc(a.get_desc(), weights, dst.get_desc());
  const dnnl::matmul::primitive_desc pd(desc, fused(activation_attr(node.attrs[0])), engine);
  if (pd.weights_desc() != b.get_desc()) {
    memory blocked = in_arena(pd.weights_desc(), engine, arena);
    reorder(b, blocked, true, stream, steps);
    b = blocked;
  }
  steps.push_back(
      {dnnl::matmul(pd), {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, dst}}});
  return {dst};
}

void binary(const dnnl::engine& engine, algorithm alg, const memory& a, const memory& b,
            const memory& dst, std::vector<Step>& steps) {
  const dnnl::binary::desc desc(alg, a.get_desc(), b.get_desc(), dst.get_desc());
  steps.push_back({dnnl::binary({desc, engine}),
                   {{DNNL_ARG_SRC_0, a}, {DNNL_ARG_SRC_1, b}, {DNNL_ARG_DST, dst}}});
}

// oneDNN broadcasts only the second operand: a commutative operation swaps its operands when
// only the first one is broadcast, otherwise the first one is expanded (added to zeros) first.
std::vector<memory> elementwise(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                                std::span<const Operand> in, algorithm alg, bool commutative,
                                std::vector<Step>& steps) {
  const Shape& out = node.outputs[0].shape;
  const std::size_t rank = std::max<std::size_t>(out.size(), 1);
  const Shape shape_a = padded(in[0].shape, rank), shape_b = padded(in[1].shape, rank);
  const Shape out_shape = padded(out, rank);
  memory a = view_of(in[0].memory, plain_desc(shape_a));
  memory b = view_of(in[1].memory, plain_desc(shape_b));
  if (shape_a != out_shape) {
    if (commutative && shape_b == out_shape) {
      std::swap(a, b);
    } else {
      const memory zeros = in_arena(plain_desc(out_shape), engine, arena);  // zero at every run
      const memory expanded = fresh(engine, arena, out_shape);
      binary(engine, algorithm::binary_add, zeros, a, expanded, steps);
      a = expanded;
    }
  }
  const memory dst = fresh(engine, arena, out);
  binary(engine, alg, a, b, view_of(dst, plain_desc(out_shape)), steps);
  return {dst};
}

std::vector<memory> pool(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                         std::span<const Operand> in, std::vector<Step>& steps) {
  const Shape& out = node.outputs[0].shape;
  const std::int64_t kernel_h = attr_int(node.attrs[0]), kernel_w = attr_int(node.attrs[1]);
  const std::int64_t stride_h = attr_int(node.attrs[2]), stride_w = attr_int(node.attrs[3]);
  const WindowPadding pad = window_padding(padding_attr(node.attrs[4]), in[0].shape, out, kernel_h,
                                           kernel_w, stride_h, stride_w);
  const Activation act = activation_attr(node.attrs[5]);
  const memory dst = fresh(engine, arena, out);
  const algorithm alg =
      node.op == Op::kPoolMax ? algorithm::pooling_max : algorithm::pooling_avg_include_padding;
  const dnnl::pooling_forward::desc desc(
      dnnl::prop_kind::forward_inference, alg, in[0].memory.get_desc(), dst.get_desc(),
      {stride_h, stride_w}, {kernel_h, kernel_w}, pad.before, pad.after);
  steps.push_back(
      {dnnl::pooling_forward({desc, engine}), {{DNNL_ARG_SRC, in[0].memory}, {DNNL_ARG_DST, dst}}});
  if (act != Activation::kNone) eltwise(engine, eltwise_algorithm(act), 0, 0, dst, dst, steps);
  return {dst};
}

std::vector<memory> split(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                          const Operand& x, std::vector<Step>& steps) {
  const auto axis = static_cast<std::size_t>(attr_int(node.attrs[0]));
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < x.shape.size(); ++d) {
    if (d < axis) outer *= x.shape[d];
    if (d > axis) inner *= x.shape[d];
  }
  std::vector<memory> parts;
  std::int64_t start = 0;
  for (const TensorType& part : node.outputs) {
    if (outer == 1) {
      parts.push_back(view_of(x.memory, plain_desc(part.shape), start * inner));
    } else {
      Dims offsets(x.shape.size(), 0);
      offsets[axis] = start;
      const memory window =
          view_of(x.memory, x.memory.get_desc().submemory_desc(dims_of(part.shape), offsets));
      parts.push_back(fresh(engine, arena, part.shape));
      steps.push_back({dnnl::reorder(window, parts.back()),
                       {{DNNL_ARG_FROM, window}, {DNNL_ARG_TO, parts.back()}}});
    }
    start += part.shape[axis];
  }
  return parts;
}

std::vector<memory> transpose(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                              const Operand& x, std::vector<Step>& steps) {
  const std::vector<std::int64_t>& perm = attr_ints(node.attrs[0]);
  const Shape& out = node.outputs[0].shape;
  if (out.size() < 2) return {view_of(x.memory, plain_desc(out))};
  const Dims in_strides = row_major_strides(dims_of(x.shape));
  Dims strides(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) strides[i] = in_strides[perm[i]];
  const memory permuted =
      view_of(x.memory, memory::desc(dims_of(out), memory::data_type::f32, strides));
  const memory dst = fresh(engine, arena, out);
  steps.push_back({dnnl::reorder(permuted, dst), {{DNNL_ARG_FROM, permuted}, {DNNL_ARG_TO, dst}}});
  return {dst};
}

std::vector<memory> batchnorm(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                              std::span<const Operand> in, std::vector<Step>& steps) {
  if (in[0].shape.size() > 5)
    throw Error(fmt::format("oneDNN's batch normalization takes rank <= 5, got rank {}",
                            in[0].shape.size()));
  constexpr float kEpsilon = 1e-5f;
  const auto flags = dnnl::normalization_flags::use_global_stats |
                     dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  const dnnl::batch_normalization_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                     in[0].memory.get_desc(), kEpsilon, flags);
  steps.push_back({dnnl::batch_normalization_forward({desc, engine}),
                   {{DNNL_ARG_SRC, in[0].memory},
                    {DNNL_ARG_SCALE, in[1].memory},
                    {DNNL_ARG_SHIFT, in[2].memory},
                    {DNNL_ARG_MEAN, in[3].memory},
                    {DNNL_ARG_VARIANCE, in[4].memory},
                    {DNNL_ARG_DST, dst}}});
  return {dst};
}

// Layer normalization over the last axis, mean and variance computed at run time.
std::vector<memory> layer_norm(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                               std::span<const Operand> in, std::vector<Step>& steps) {
  if (in[0].shape.size() < 2 || in[0].shape.size() > 5)
    throw Error(fmt::format("oneDNN's layer normalization takes rank 2 to 5, got rank {}",
                            in[0].shape.size()));
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  const dnnl::layer_normalization_forward::desc desc(
      dnnl::prop_kind::forward_inference, in[0].memory.get_desc(),
      static_cast<float>(attr_float(node.attrs[0])), flags);
  steps.push_back({dnnl::layer_normalization_forward({desc, engine}),
                   {{DNNL_ARG_SRC, in[0].memory},
                    {DNNL_ARG_SCALE, in[1].memory},
                    {DNNL_ARG_SHIFT, in[2].memory},
                    {DNNL_ARG_DST, dst}}});
  return {dst};
}

// One-input operators: an eltwise algorithm (relu, tanh, logistic), clip, softmax, or the mean
// over the spatial axes (global average pooling).
std::vector<memory> unary(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                          const Operand& x, algorithm alg, std::vector<Step>& steps) {
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  eltwise(engine, alg, 0, 0, x.memory, dst, steps);
  return {dst};
}

std::vector<memory> clip(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                         const Operand& x, std::vector<Step>& steps) {
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  const auto low = static_cast<float>(attr_float(node.attrs[0]));
  const auto high = static_cast<float>(attr_float(node.attrs[1]));
  // min > max clamps everything to max, as the reference (numpy.clip) does.
  if (low > high)
    eltwise(engine, algorithm::eltwise_linear, 0, high, x.memory, dst, steps);
  else
    eltwise(engine, algorithm::eltwise_clip, low, high, x.memory, dst, steps);
  return {dst};
}

std::vector<memory> softmax(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                            const Operand& x, std::vector<Step>& steps) {
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  const dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, x.memory.get_desc(),
                                         static_cast<int>(attr_int(node.attrs[0])));
  steps.push_back(
      {dnnl::softmax_forward({desc, engine}), {{DNNL_ARG_SRC, x.memory}, {DNNL_ARG_DST, dst}}});
  return {dst};
}

std::vector<memory> global_avg_pool(const dnnl::engine& engine, ExecutorArena& arena,
                                    const Node& node, const Operand& x, std::vector<Step>& steps) {
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  const dnnl::reduction::desc desc(algorithm::reduction_mean, x.memory.get_desc(), dst.get_desc(),
                                   0.0f, 0.0f);
  steps.push_back(
      {dnnl::reduction({desc, engine}), {{DNNL_ARG_SRC, x.memory}, {DNNL_ARG_DST, dst}}});
  return {dst};
}

// Multi-head attention by composition: one batched matmul over strided views of q and k (every
// batch and head at once) gives the scores, scaled by a post-op; the bias is added (broadcast),
// then for causal attention a constant mask of 0 and -infinity; softmax over the keys; one batched
// matmul over the probabilities and a strided view of v writes each head's slice of the output.
std::vector<memory> attention(const dnnl::engine& engine, ExecutorArena& arena, const Node& node,
                              std::span<const Operand> in, std::vector<Step>& steps) {
  const Shape &q = in[0].shape, &k = in[1].shape, &v = in[2].shape;
  const std::int64_t batch = q[0], queries = q[1], keys = k[1], width = q[2], value_width = v[2];
  const std::int64_t heads = attr_int(node.attrs[0]);
  const std::int64_t depth = width / heads, value_depth = value_width / heads;
  const auto f32 = memory::data_type::f32;
  const memory::desc q_heads({batch, heads, queries, depth}, f32,
                             {queries * width, depth, width, 1});
  const memory::desc k_heads_transposed({batch, heads, depth, keys}, f32,
                                        {keys * width, depth, 1, width});
  const memory::desc v_heads({batch, heads, keys, value_depth}, f32,
                             {keys * value_width, value_depth, value_width, 1});
  const memory::desc out_heads({batch, heads, queries, value_depth}, f32,
                               {queries * value_width, value_depth, value_width, 1});
  const Shape score_shape = {batch, heads, queries, keys};
  const memory scores = fresh(engine, arena, score_shape);
  dnnl::post_ops scaled;
  scaled.append_eltwise(1.0f, algorithm::eltwise_linear,
                        static_cast<float>(attr_float(node.attrs[2])), 0.0f);
  dnnl::primitive_attr scale_attr;
  scale_attr.set_post_ops(scaled);
  const dnnl::matmul::desc score_desc(q_heads, k_heads_transposed, scores.get_desc());
  steps.push_back({dnnl::matmul({score_desc, scale_attr, engine}),
                   {{DNNL_ARG_SRC, view_of(in[0].memory, q_heads)},
                    {DNNL_ARG_WEIGHTS, view_of(in[1].memory, k_heads_transposed)},
                    {DNNL_ARG_DST, scores}}});
  binary(engine, algorithm::binary_add, scores,
         view_of(in[3].memory, plain_desc(padded(in[3].shape, 4))), scores, steps);
  if (attr_int(node.attrs[1]) == 1) {
    const memory mask = in_arena(plain_desc({1, 1, queries, keys}), engine, arena);
    auto* cells = static_cast<float*>(mask.get_data_handle());
    for (std::int64_t s = 0; s < queries; ++s)
      for (std::int64_t l = 0; l < keys; ++l)
        cells[s * keys + l] = l <= s ? 0.0f : -std::numeric_limits<float>::infinity();
    binary(engine, algorithm::binary_add, scores, mask, scores, steps);
  }
  const memory probabilities = fresh(engine, arena, score_shape);
  const dnnl::softmax_forward::desc softmax_desc(dnnl::prop_kind::forward_inference,
                                                 scores.get_desc(), 3);
  steps.push_back({dnnl::softmax_forward({softmax_desc, engine}),
                   {{DNNL_ARG_SRC, scores}, {DNNL_ARG_DST, probabilities}}});
  const memory dst = fresh(engine, arena, node.outputs[0].shape);
  const dnnl::matmul::desc context_desc(probabilities.get_desc(), v_heads, out_heads);
  steps.push_back({dnnl::matmul({context_desc, engine}),
                   {{DNNL_ARG_SRC, probabilities},
                    {DNNL_ARG_WEIGHTS, view_of(in[2].memory, v_heads)},
                    {DNNL_ARG_DST, view_of(dst, out_heads)}}});
  return {dst};
}

}  // namespace

memory::desc plain_desc(const Shape& shape) {
  const Dims dims = dims_of(shape);
  return memory::desc(dims, memory::data_type::f32, row_major_strides(dims));
}

memory in_arena(const memory::desc& desc, const dnnl::engine& engine, ExecutorArena& arena) {
  return memory(desc, engine, arena.allocate(desc.get_size()));
}

memory in_arena_for_run(const memory::desc& desc, const dnnl::engine& engine,
                        ExecutorArena& arena) {
  return memory(desc, engine, arena.allocate_for_run(desc.get_size()));
}

memory view_of(const memory& base, const memory::desc& desc, std::int64_t offset_elements) {
  auto* data = static_cast<float*>(base.get_data_handle()) + offset_elements;
  return memory(desc, base.get_engine(), data);
}

std::vector<memory> lower_node(const dnnl::engine& engine, ExecutorArena& arena,
                               dnnl::stream& stream, const Node& node,
                               std::span<const Operand> operands, std::vector<Step>& steps) {
  switch (node.op) {
    case Op::kConv2d:
      return conv2d(engine, arena, stream, node, operands, steps);
    case Op::kMatmul:
      return matmul(engine, arena, stream, node, operands, steps);
    case Op::kEwAdd:
      return elementwise(engine, arena, node, operands, algorithm::binary_add, true, steps);
    case Op::kEwMul:
      return elementwise(engine, arena, node, operands, algorithm::binary_mul, true, steps);
    case Op::kEwSub:
      return elementwise(engine, arena, node, operands, algorithm::binary_sub, false, steps);
    case Op::kEwDiv:
      return elementwise(engine, arena, node, operands, algorithm::binary_div, false, steps);
    case Op::kSmul: {
      const Shape& out = node.outputs[0].shape;
      const memory dst = fresh(engine, arena, out);
      const Shape ones(std::max<std::size_t>(out.size(), 1), 1);
      binary(engine, algorithm::binary_mul, operands[0].memory,
             view_of(operands[1].memory, plain_desc(ones)), dst, steps);
      return {dst};
    }
    case Op::kRelu:
      return unary(engine, arena, node, operands[0], algorithm::eltwise_relu, steps);
    case Op::kTanh:
      return unary(engine, arena, node, operands[0], algorithm::eltwise_tanh, steps);
    case Op::kSigmoid:
      return unary(engine, arena, node, operands[0], algorithm::eltwise_logistic, steps);
    case Op::kGelu:
      return unary(
          engine, arena, node, operands[0],
          attr_int(node.attrs[0]) == 1 ? algorithm::eltwise_gelu_tanh : algorithm::eltwise_gelu_erf,
          steps);
    case Op::kClip:
      return clip(engine, arena, node, operands[0], steps);
    case Op::kSoftmax:
      return softmax(engine, arena, node, operands[0], steps);
    case Op::kGlobalAvgPool:
      return global_avg_pool(engine, arena, node, operands[0], steps);
    case Op::kDropout:
    case Op::kIdentity:
    case Op::kReshape:
    case Op::kFlatten:
      return {view_of(operands[0].memory, plain_desc(node.outputs[0].shape))};
    case Op::kTranspose:
      return transpose(engine, arena, node, operands[0], steps);
    case Op::kPoolMax:
    case Op::kPoolAvg:
      return pool(engine, arena, node, operands, steps);
    case Op::kConcat: {
      std::vector<memory::desc> sources;
      for (const Operand& operand : operands) sources.push_back(operand.memory.get_desc());
      const memory dst = fresh(engine, arena, node.outputs[0].shape);
      const dnnl::concat::primitive_desc pd(
          dst.get_desc(), static_cast<int>(attr_int(node.attrs[0])), sources, engine);
      Step step{dnnl::concat(pd), {{DNNL_ARG_DST, dst}}};
      for (std::size_t i = 0; i < operands.size(); ++i)
        step.args.emplace(DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i), operands[i].memory);
      steps.push_back(std::move(step));
      return {dst};
    }
    case Op::kSplit:
      return split(engine, arena, node, operands[0], steps);
    case Op::kBatchNorm:
      return batchnorm(engine, arena, node, operands, steps);
    case Op::kLayerNorm:
      return layer_norm(engine, arena, node, operands, steps);
    case Op::kAttention:
      return attention(engine, arena, node, operands, steps);
    case Op::kEnlarge:
    case Op::kMerge:
      throw Error(fmt::format(
          "{} transforms convolution kernels: the oneDNN executor pre-computes it on weights, but "
          "here its input is computed at run time",
          op_name(node.op)));
    case Op::kNoop:
      throw Error("noop carries no data (it only joins e-graph roots) and cannot be executed");
    case Op::kInput:
    case Op::kWeight:
    case Op::kOpaque:
      break;
  }
  throw Error(fmt::format("the oneDNN executor has no primitive for {}", op_name(node.op)));
}

}  // namespace mctsat::runtime::dnnl_lowering
