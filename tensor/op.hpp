// The operator catalog: every tensor operator mctsat knows, with its signature (positional
// parameters that are tensors or integer / integer-list / float attributes, and its outputs).
// The DSL checks rules against these signatures; the graph validator checks nodes against them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mctsat::tensor {

// The highest tensor rank of any operator's operands and results.
inline constexpr std::size_t kMaxRank = 8;

enum class Op : std::uint8_t {
  kInput,   // graph input: shape attribute, named
  kWeight,  // parameter tensor: shape attribute, named, values optional
  kMatmul,  // act a b: (batched) matrix product with fused activation
  kConv2d,  // stride_h stride_w pad act x w: NCHW convolution, groups = C_in / w.dim(1)
  kEwAdd,   // a b: elementwise with numpy broadcasting
  kEwMul,
  kEwSub,
  kEwDiv,
  kSmul,  // x s: multiply by a one-element tensor
  kRelu,
  kTanh,
  kSigmoid,
  kDropout,  // identity at inference
  kIdentity,
  kTranspose,      // x perm
  kReshape,        // x shape (fully resolved target shape)
  kFlatten,        // axis x: to 2-D [prod(d < axis), prod(d >= axis)]
  kEnlarge,        // w ref: zero-pad kernel w (centred) to ref's kernel size
  kPoolMax,        // x kernel_h kernel_w stride_h stride_w pad act
  kPoolAvg,        // same; padded cells count as zeros (TASO's semantics)
  kGlobalAvgPool,  // x: NCHW -> NC11
  kConcat,         // axis ndim x...: any number of inputs of rank ndim
  kSplit,          // axis sizes x: one output per size
  kMerge,          // w count: merge groups of a grouped-convolution kernel, count at a time
  kBatchNorm,      // x scale bias mean var: inference batch normalization, epsilon 1e-5
  kSoftmax,        // axis x
  kClip,           // min max x: clamp to [min, max]
  kLayerNorm,      // epsilon x scale bias: layer normalization over the last axis
  kGelu,           // approximate x: GELU, 0 the erf form, 1 the tanh approximation
  kAttention,      // heads causal scale q k v bias: multi-head scaled dot-product attention
  kNoop,           // a b: joins outputs under one root (e-graph only), no data
  kOpaque,         // any other operator: id output_shapes x...; type and attributes kept aside
};
inline constexpr std::size_t kOpCount = static_cast<std::size_t>(Op::kOpaque) + 1;

enum class ParamKind : std::uint8_t { kTensor, kInt, kInts, kFloat };

// Fused activations of matmul, conv2d and pooling (TENSAT's codes).
enum class Activation : std::int64_t { kNone = 0, kSigmoid = 1, kRelu = 2, kTanh = 3 };
// Padding modes of conv2d and pooling. 0 and 1 are TENSAT's codes (the rule files use them as
// literals): SAME: output = ceil(in / stride), the total padding split with the extra cell at the
// end (as ONNX SAME_UPPER); VALID: no padding. 2, SAME_LOWER: SAME with the extra cell at the start
// (ONNX SAME_LOWER; what TASO's SAME does). Why a third code rather than explicit pad amounts:
// the operator keeps its arity (the rules, the e-graph and the verifier are unchanged), and the
// symmetric pads of PyTorch exports, pad = (kernel - 1) / 2 with stride 1 or 2 (ResNet's 7x7
// stride-2 pad 3, its stride-2 3x3 convolutions and max pooling), are always SAME or SAME_LOWER.
// Whenever SAME_LOWER pads like SAME (an even total on both axes), importers write SAME, so the
// rules' literal 0 still matches. Other explicit pads stay out of the catalog.
enum class Padding : std::int64_t { kSame = 0, kValid = 1, kSameLower = 2 };

// One positional parameter. Integer attributes have an allowed range [min, max] (also used by the
// verifier to bound attribute variables). Only a trailing tensor parameter may be variadic.
struct Param {
  std::string_view name;
  ParamKind kind;
  std::int64_t min = 0;
  std::int64_t max = 0;
  bool variadic = false;  // tensor parameter repeated one or more times
};

struct OpSignature {
  Op op;
  std::string_view name;  // DSL and JSON name
  std::span<const Param> params;
  int outputs;  // number of outputs; -1 = one per element of the `sizes` attribute (split),
                // or the count recorded in `output_shapes` (opaque)
  bool view;    // costs nothing at run time (layout-only or no data)
  std::string_view summary;

  std::size_t tensor_count() const;  // tensor parameters (a variadic one counted once)
  std::size_t attr_count() const;
  bool variadic() const;
  // The attribute parameters in order (the i-th attribute slot).
  const Param& attr(std::size_t index) const;
  const Param& tensor(std::size_t index) const;  // clamps to the variadic last one
};

const OpSignature& signature(Op op);
std::span<const OpSignature> all_signatures();
std::optional<Op> find_op(std::string_view name);
inline std::string_view op_name(Op op) {
  return signature(op).name;
}

}  // namespace mctsat::tensor
