// Reference kernels: the float64 semantics of every interpretable operator, written as plain
// loops for clarity. `evaluate_op` evaluates one operator application (one graph node or one
// e-node) on concrete tensors; the interpreter and the numeric rule verifier both use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tensor/attr.hpp"
#include "tensor/op.hpp"
#include "tensor/tensor_type.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::tensor {

// Evaluates `op` on `inputs` (positional tensor parameters) with `attrs` (attribute parameters in
// signature order). The output shapes are inferred from the input shapes with the operator's shape
// function; when `output_types` is non-empty it must agree with them (a recorded graph type).
// Throws mctsat::Error (without a location) when the shape function rejects the inputs, when the
// recorded types disagree, for an attribute the kernel cannot use (e.g. an unknown activation
// code), for leaves (input, weight: their values come from the caller) and for opaque operators.
std::vector<Tensor> evaluate_op(Op op, std::span<const Tensor> inputs, const Attrs& attrs,
                                std::span<const TensorType> output_types = {});

namespace kernels {

// A dimension or index already checked to be non-negative, as a size.
inline std::size_t to_size(std::int64_t value) {
  return static_cast<std::size_t>(value);
}

// The individual kernels behind evaluate_op. They expect inputs already accepted by the shape
// function and take the inferred output shape where it is not evident from the inputs.

void apply_activation(Tensor& x, Activation act);  // in place

Tensor matmul(const Tensor& a, const Tensor& b, const Shape& out_shape, Activation act);
Tensor transpose(const Tensor& x, const std::vector<std::int64_t>& perm);
Tensor concat(std::span<const Tensor> inputs, std::int64_t axis);
std::vector<Tensor> split(const Tensor& x, std::int64_t axis,
                          const std::vector<std::int64_t>& sizes);
Tensor global_avg_pool(const Tensor& x);
Tensor batchnorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean,
                 const Tensor& var);
Tensor softmax(const Tensor& x, std::int64_t axis);
// Over the last axis: (x - mean) / sqrt(variance + epsilon) * scale + bias, the variance biased
// (divided by the axis length), as ONNX's LayerNormalization.
Tensor layer_norm(const Tensor& x, const Tensor& scale, const Tensor& bias, double epsilon);
// x * (1 + erf(x / sqrt 2)) / 2, or with `tanh_approximation`
// x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) / 2.
Tensor gelu(const Tensor& x, bool tanh_approximation);
// Multi-head attention: q [B, S, D], k [B, L, D], v [B, L, E] split into `heads` equal slices of
// their last axis; per batch and head softmax(scale * q k^T + bias) v, the bias broadcast to
// [B, heads, S, L] and, when `causal`, keys after the query's position left out; the heads'
// results side by side, [B, S, E].
Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& bias,
                 std::int64_t heads, bool causal, double scale);

// Convolution and pooling (reference_conv_kernels.cpp). NCHW; `out_shape` is the inferred shape.
Tensor conv2d(const Tensor& x, const Tensor& w, std::int64_t stride_h, std::int64_t stride_w,
              Padding pad, Activation act, const Shape& out_shape);
Tensor pool(Op op, const Tensor& x, std::int64_t kernel_h, std::int64_t kernel_w,
            std::int64_t stride_h, std::int64_t stride_w, Padding pad, Activation act,
            const Shape& out_shape);
Tensor enlarge(const Tensor& w, const Shape& out_shape);
Tensor merge(const Tensor& w, std::int64_t count);

// Padding before the first element along one spatial axis (SAME: half the total, rounded down;
// SAME_LOWER: rounded up; VALID: none). `out` is the output size along that axis.
std::int64_t pad_begin(Padding pad, std::int64_t in, std::int64_t kernel, std::int64_t stride,
                       std::int64_t out);

}  // namespace kernels
}  // namespace mctsat::tensor
