// The table of operator signatures behind op.hpp.
#include <algorithm>
#include <array>
#include <limits>

#include "support/error.hpp"
#include "tensor/op.hpp"

namespace mctsat::tensor {
namespace {

constexpr auto kMaxRankAttr = static_cast<std::int64_t>(kMaxRank);
constexpr std::int64_t kMaxSize = std::int64_t{1} << 20;  // bound for strides, kernels, counts
constexpr std::int64_t kMaxId = std::numeric_limits<std::int64_t>::max();

constexpr Param tensor(std::string_view name) {
  return {name, ParamKind::kTensor};
}
constexpr Param tensors(std::string_view name) {
  return {name, ParamKind::kTensor, 0, 0, true};
}
constexpr Param integer(std::string_view name, std::int64_t min, std::int64_t max) {
  return {name, ParamKind::kInt, min, max};
}
constexpr Param ints(std::string_view name) {
  return {name, ParamKind::kInts};
}
constexpr Param real(std::string_view name) {
  return {name, ParamKind::kFloat};
}

constexpr Param kAct = integer("act", 0, 3);
constexpr Param kPad = integer("pad", 0, 2);  // Padding: SAME, VALID, SAME_LOWER

constexpr std::array kLeafParams = {ints("shape")};
constexpr std::array kMatmulParams = {kAct, tensor("a"), tensor("b")};
constexpr std::array kConvParams = {integer("stride_h", 1, kMaxSize),
                                    integer("stride_w", 1, kMaxSize),
                                    kPad,
                                    kAct,
                                    tensor("x"),
                                    tensor("w")};
constexpr std::array kBinaryParams = {tensor("a"), tensor("b")};
constexpr std::array kSmulParams = {tensor("x"), tensor("s")};
constexpr std::array kUnaryParams = {tensor("x")};
constexpr std::array kTransposeParams = {tensor("x"), ints("perm")};
constexpr std::array kReshapeParams = {tensor("x"), ints("shape")};
constexpr std::array kFlattenParams = {integer("axis", 0, kMaxRankAttr), tensor("x")};
constexpr std::array kEnlargeParams = {tensor("w"), tensor("ref")};
constexpr std::array kPoolParams = {tensor("x"),
                                    integer("kernel_h", 1, kMaxSize),
                                    integer("kernel_w", 1, kMaxSize),
                                    integer("stride_h", 1, kMaxSize),
                                    integer("stride_w", 1, kMaxSize),
                                    kPad,
                                    kAct};
constexpr std::array kConcatParams = {integer("axis", 0, kMaxRankAttr - 1),
                                      integer("ndim", 1, kMaxRankAttr), tensors("inputs")};
constexpr std::array kSplitParams = {integer("axis", 0, kMaxRankAttr - 1), ints("sizes"),
                                     tensor("x")};
constexpr std::array kMergeParams = {tensor("w"), integer("count", 1, kMaxSize)};
constexpr std::array kBatchNormParams = {tensor("x"), tensor("scale"), tensor("bias"),
                                         tensor("mean"), tensor("var")};
constexpr std::array kSoftmaxParams = {integer("axis", 0, kMaxRankAttr - 1), tensor("x")};
constexpr std::array kClipParams = {real("min"), real("max"), tensor("x")};
constexpr std::array kLayerNormParams = {real("epsilon"), tensor("x"), tensor("scale"),
                                         tensor("bias")};
constexpr std::array kGeluParams = {integer("approximate", 0, 1), tensor("x")};
constexpr std::array kAttentionParams = {integer("heads", 1, kMaxSize),
                                         integer("causal", 0, 1),
                                         real("scale"),
                                         tensor("q"),
                                         tensor("k"),
                                         tensor("v"),
                                         tensor("bias")};
constexpr std::array kOpaqueParams = {integer("id", 0, kMaxId), ints("output_shapes"),
                                      tensors("inputs")};

constexpr std::array<OpSignature, kOpCount> kSignatures = {{
    {Op::kInput, "input", kLeafParams, 1, true, "graph input"},
    {Op::kWeight, "weight", kLeafParams, 1, true, "parameter tensor"},
    {Op::kMatmul, "matmul", kMatmulParams, 1, false, "batched matrix product with activation"},
    {Op::kConv2d, "conv2d", kConvParams, 1, false,
     "2-D convolution (NCHW, grouped) with activation"},
    {Op::kEwAdd, "ewadd", kBinaryParams, 1, false, "elementwise add (broadcasting)"},
    {Op::kEwMul, "ewmul", kBinaryParams, 1, false, "elementwise multiply (broadcasting)"},
    {Op::kEwSub, "ewsub", kBinaryParams, 1, false, "elementwise subtract (broadcasting)"},
    {Op::kEwDiv, "ewdiv", kBinaryParams, 1, false, "elementwise divide (broadcasting)"},
    {Op::kSmul, "smul", kSmulParams, 1, false, "multiply by a one-element tensor"},
    {Op::kRelu, "relu", kUnaryParams, 1, false, "max(x, 0)"},
    {Op::kTanh, "tanh", kUnaryParams, 1, false, "hyperbolic tangent"},
    {Op::kSigmoid, "sigmoid", kUnaryParams, 1, false, "logistic function"},
    {Op::kDropout, "dropout", kUnaryParams, 1, true, "dropout (identity at inference)"},
    {Op::kIdentity, "identity", kUnaryParams, 1, true, "identity"},
    {Op::kTranspose, "transpose", kTransposeParams, 1, false, "permute dimensions"},
    {Op::kReshape, "reshape", kReshapeParams, 1, true, "reshape (same element count)"},
    {Op::kFlatten, "flatten", kFlattenParams, 1, true, "reshape to 2-D at an axis"},
    {Op::kEnlarge, "enlarge", kEnlargeParams, 1, false, "zero-pad a kernel to another's size"},
    {Op::kPoolMax, "poolmax", kPoolParams, 1, false, "2-D max pooling with activation"},
    {Op::kPoolAvg, "poolavg", kPoolParams, 1, false, "2-D average pooling (padding counted)"},
    {Op::kGlobalAvgPool, "globalavgpool", kUnaryParams, 1, false, "mean over H and W"},
    {Op::kConcat, "concat", kConcatParams, 1, false, "concatenate along an axis"},
    {Op::kSplit, "split", kSplitParams, -1, true, "split along an axis into given sizes"},
    {Op::kMerge, "merge", kMergeParams, 1, false, "merge grouped-convolution kernel groups"},
    {Op::kBatchNorm, "batchnorm", kBatchNormParams, 1, false, "inference batch normalization"},
    {Op::kSoftmax, "softmax", kSoftmaxParams, 1, false, "softmax along an axis"},
    {Op::kClip, "clip", kClipParams, 1, false, "clamp to [min, max]"},
    {Op::kLayerNorm, "layernorm", kLayerNormParams, 1, false,
     "layer normalization over the last axis"},
    {Op::kGelu, "gelu", kGeluParams, 1, false, "GELU (0 erf form, 1 tanh approximation)"},
    {Op::kAttention, "attention", kAttentionParams, 1, false,
     "multi-head attention: softmax(scale q k^T + bias) v per head"},
    {Op::kNoop, "noop", kBinaryParams, 1, true, "joins outputs (no data)"},
    {Op::kOpaque, "opaque", kOpaqueParams, -1, false, "operator mctsat cannot rewrite"},
}};

}  // namespace

std::size_t OpSignature::tensor_count() const {
  return static_cast<std::size_t>(std::count_if(
      params.begin(), params.end(), [](const Param& p) { return p.kind == ParamKind::kTensor; }));
}

std::size_t OpSignature::attr_count() const {
  return params.size() - tensor_count();
}

bool OpSignature::variadic() const {
  return std::any_of(params.begin(), params.end(), [](const Param& p) { return p.variadic; });
}

const Param& OpSignature::attr(std::size_t index) const {
  for (const Param& p : params) {
    if (p.kind != ParamKind::kTensor && index-- == 0) return p;
  }
  MCTSAT_ASSERT(false && "attribute index out of range");
}

const Param& OpSignature::tensor(std::size_t index) const {
  const Param* last = nullptr;
  for (const Param& p : params) {
    if (p.kind != ParamKind::kTensor) continue;
    if (index-- == 0) return p;
    last = &p;
  }
  MCTSAT_ASSERT(last != nullptr && last->variadic);
  return *last;
}

const OpSignature& signature(Op op) {
  MCTSAT_ASSERT(static_cast<std::size_t>(op) < kOpCount);
  const auto& sig = kSignatures[static_cast<std::size_t>(op)];
  MCTSAT_ASSERT(sig.op == op);
  return sig;
}

std::span<const OpSignature> all_signatures() {
  return kSignatures;
}

std::optional<Op> find_op(std::string_view name) {
  for (const auto& sig : kSignatures) {
    if (sig.name == name) return sig.op;
  }
  return std::nullopt;
}

}  // namespace mctsat::tensor
