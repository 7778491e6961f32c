// Reference kernels for the non-window operators (elementwise, matmul, layout, normalization) and
// the evaluate_op dispatcher that checks shapes and decodes attributes. Convolution and pooling
// live in reference_conv_kernels.cpp.
#include "tensor/reference_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {
namespace kernels {
namespace {

// Product of the dimensions in [begin, end).
std::int64_t product(const Shape& shape, std::size_t begin, std::size_t end) {
  std::int64_t n = 1;
  for (std::size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

// Row-major strides of `in`, aligned to the trailing dimensions of `out` as numpy broadcasting
// does: 0 for a dimension `in` lacks or has as 1 (repeated), `unit` times the usual stride
// otherwise.
std::vector<std::int64_t> broadcast_strides(const Shape& in, const Shape& out,
                                            std::int64_t unit = 1) {
  std::vector<std::int64_t> strides(out.size(), 0);
  std::int64_t stride = unit;
  for (std::size_t k = 0; k < in.size(); ++k) {
    const std::size_t i = in.size() - 1 - k;   // dimension of `in`
    const std::size_t o = out.size() - 1 - k;  // the aligned dimension of `out`
    strides[o] = in[i] == 1 ? 0 : stride;
    stride *= in[i];
  }
  return strides;
}

// Visits every index of `shape` in row-major order, calling f(linear index, offset_a, offset_b)
// where the offsets advance by `stride_a` / `stride_b` per dimension.
template <class F>
void walk(const Shape& shape, const std::vector<std::int64_t>& stride_a,
          const std::vector<std::int64_t>& stride_b, F&& f) {
  const std::size_t rank = shape.size();
  const std::int64_t count = numel(shape);
  std::vector<std::int64_t> index(rank, 0);
  std::int64_t offset_a = 0, offset_b = 0;
  for (std::int64_t linear = 0; linear < count; ++linear) {
    f(linear, offset_a, offset_b);
    for (std::size_t d = rank; d-- > 0;) {
      ++index[d];
      offset_a += stride_a[d];
      offset_b += stride_b[d];
      if (index[d] < shape[d]) break;
      offset_a -= stride_a[d] * shape[d];
      offset_b -= stride_b[d] * shape[d];
      index[d] = 0;
    }
  }
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

}  // namespace

void apply_activation(Tensor& x, Activation act) {
  switch (act) {
    case Activation::kNone:
      return;
    case Activation::kSigmoid:
      for (double& v : x.data) v = sigmoid(v);
      return;
    case Activation::kRelu:
      for (double& v : x.data) v = v > 0.0 ? v : 0.0;
      return;
    case Activation::kTanh:
      for (double& v : x.data) v = std::tanh(v);
      return;
  }
  throw Error(fmt::format("unknown activation code {}", static_cast<std::int64_t>(act)));
}

// Elementwise f(a, b) with numpy broadcasting into `out_shape` (evaluate_op's ewadd, ewmul,
// ewsub and ewdiv).
template <class F>
Tensor ew_binary(const Tensor& a, const Tensor& b, const Shape& out_shape, F f) {
  Tensor out(out_shape);
  const auto stride_a = broadcast_strides(a.shape, out_shape);
  const auto stride_b = broadcast_strides(b.shape, out_shape);
  walk(out_shape, stride_a, stride_b, [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
    out.data[to_size(i)] = f(a.data[to_size(ia)], b.data[to_size(ib)]);
  });
  return out;
}

Tensor matmul(const Tensor& a, const Tensor& b, const Shape& out_shape, Activation act) {
  const std::size_t rank = out_shape.size();
  const std::int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(), n = b.shape.back();
  const Shape batch(out_shape.begin(), out_shape.end() - 2);
  // Batch strides count whole matrices of each operand.
  const auto stride_a = broadcast_strides(Shape(a.shape.begin(), a.shape.end() - 2), batch, m * k);
  const auto stride_b = broadcast_strides(Shape(b.shape.begin(), b.shape.end() - 2), batch, k * n);
  Tensor out(out_shape);
  MCTSAT_ASSERT(rank >= 2 && out_shape[rank - 2] == m && out_shape[rank - 1] == n);
  walk(batch, stride_a, stride_b,
       [&](std::int64_t index, std::int64_t offset_a, std::int64_t offset_b) {
         const double* pa = a.data.data() + offset_a;
         const double* pb = b.data.data() + offset_b;
         double* pc = out.data.data() + index * m * n;
         for (std::int64_t i = 0; i < m; ++i) {
           double* row = pc + i * n;
           for (std::int64_t p = 0; p < k; ++p) {
             const double scale = pa[i * k + p];
             const double* brow = pb + p * n;
             for (std::int64_t j = 0; j < n; ++j) row[j] += scale * brow[j];
           }
         }
       });
  apply_activation(out, act);
  return out;
}

Tensor transpose(const Tensor& x, const std::vector<std::int64_t>& perm) {
  const std::size_t rank = x.shape.size();
  std::vector<std::int64_t> in_strides(rank, 1);
  for (std::size_t d = rank; d-- > 1;) in_strides[d - 1] = in_strides[d] * x.shape[d];
  Shape out_shape(rank);
  std::vector<std::int64_t> strides(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    out_shape[i] = x.shape[to_size(perm[i])];
    strides[i] = in_strides[to_size(perm[i])];
  }
  Tensor out(out_shape);
  const std::vector<std::int64_t> unused(rank, 0);
  walk(out_shape, strides, unused, [&](std::int64_t i, std::int64_t from, std::int64_t) {
    out.data[to_size(i)] = x.data[to_size(from)];
  });
  return out;
}

Tensor concat(std::span<const Tensor> inputs, std::int64_t axis) {
  const std::size_t ax = to_size(axis);
  Shape out_shape = inputs[0].shape;
  out_shape[ax] = 0;
  for (const Tensor& t : inputs) out_shape[ax] += t.shape[ax];
  Tensor out(out_shape);
  const std::int64_t outer = product(out_shape, 0, ax),
                     inner = product(out_shape, ax + 1, out_shape.size());
  auto dst = out.data.begin();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const Tensor& t : inputs) {
      const std::int64_t chunk = t.shape[ax] * inner;
      auto src = t.data.begin() + o * chunk;
      dst = std::copy(src, src + chunk, dst);
    }
  }
  return out;
}

std::vector<Tensor> split(const Tensor& x, std::int64_t axis,
                          const std::vector<std::int64_t>& sizes) {
  const std::size_t ax = to_size(axis);
  const std::int64_t outer = product(x.shape, 0, ax),
                     inner = product(x.shape, ax + 1, x.shape.size());
  const std::int64_t row = x.shape[ax] * inner;  // elements per outer index in x
  std::vector<Tensor> outputs;
  std::int64_t start = 0;  // first index along the axis of the current part
  for (std::int64_t size : sizes) {
    Shape shape = x.shape;
    shape[ax] = size;
    Tensor part(shape);
    const std::int64_t chunk = size * inner;
    for (std::int64_t o = 0; o < outer; ++o) {
      auto src = x.data.begin() + o * row + start * inner;
      std::copy(src, src + chunk, part.data.begin() + o * chunk);
    }
    outputs.push_back(std::move(part));
    start += size;
  }
  return outputs;
}

Tensor global_avg_pool(const Tensor& x) {
  Shape out_shape = x.shape;
  for (std::size_t i = 2; i < out_shape.size(); ++i) out_shape[i] = 1;
  Tensor out(out_shape);
  const std::int64_t inner = product(x.shape, 2, x.shape.size());
  for (std::size_t o = 0; o < out.size(); ++o) {
    double sum = 0.0;
    for (std::int64_t i = 0; i < inner; ++i) sum += x.data[o * to_size(inner) + to_size(i)];
    out.data[o] = sum / static_cast<double>(inner);
  }
  return out;
}

Tensor batchnorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean,
                 const Tensor& var) {
  constexpr double kEpsilon = 1e-5;
  Tensor out(x.shape);
  const std::int64_t channels = x.shape[1], inner = product(x.shape, 2, x.shape.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto c = to_size((static_cast<std::int64_t>(i) / inner) % channels);
    out.data[i] = scale.data[c] * (x.data[i] - mean.data[c]) / std::sqrt(var.data[c] + kEpsilon) +
                  bias.data[c];
  }
  return out;
}

Tensor softmax(const Tensor& x, std::int64_t axis) {
  const std::size_t ax = to_size(axis);
  const std::int64_t outer = product(x.shape, 0, ax), length = x.shape[ax],
                     inner = product(x.shape, ax + 1, x.shape.size());
  Tensor out(x.shape);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t i = 0; i < inner; ++i) {
      auto at = [&](std::int64_t j) { return to_size((o * length + j) * inner + i); };
      double top = -std::numeric_limits<double>::infinity();
      for (std::int64_t j = 0; j < length; ++j) top = std::max(top, x.data[at(j)]);
      double sum = 0.0;
      for (std::int64_t j = 0; j < length; ++j) {
        out.data[at(j)] = std::exp(x.data[at(j)] - top);
        sum += out.data[at(j)];
      }
      for (std::int64_t j = 0; j < length; ++j) out.data[at(j)] /= sum;
    }
  }
  return out;
}

Tensor layer_norm(const Tensor& x, const Tensor& scale, const Tensor& bias, double epsilon) {
  const std::int64_t length = x.shape.back(), rows = product(x.shape, 0, x.shape.size() - 1);
  Tensor out(x.shape);
  for (std::int64_t r = 0; r < rows; ++r) {
    const auto row = to_size(r * length);
    double mean = 0.0;
    for (std::int64_t j = 0; j < length; ++j) mean += x.data[row + to_size(j)];
    mean /= static_cast<double>(length);
    double variance = 0.0;
    for (std::int64_t j = 0; j < length; ++j) {
      const double centred = x.data[row + to_size(j)] - mean;
      variance += centred * centred;
    }
    variance /= static_cast<double>(length);
    const double inverse_deviation = 1.0 / std::sqrt(variance + epsilon);
    for (std::int64_t j = 0; j < length; ++j) {
      const auto at = row + to_size(j);
      out.data[at] =
          (x.data[at] - mean) * inverse_deviation * scale.data[to_size(j)] + bias.data[to_size(j)];
    }
  }
  return out;
}

Tensor gelu(const Tensor& x, bool tanh_approximation) {
  const double root_two_over_pi = std::sqrt(2 / std::numbers::pi);
  Tensor out = x;
  for (double& v : out.data)
    v = tanh_approximation
            ? v * (1.0 + std::tanh(root_two_over_pi * (v + 0.044715 * v * v * v))) / 2.0
            : v * (1.0 + std::erf(v / std::numbers::sqrt2)) / 2.0;
  return out;
}

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& bias,
                 std::int64_t heads, bool causal, double scale) {
  const std::int64_t batch = q.shape[0], queries = q.shape[1], keys = k.shape[1];
  const std::int64_t width = q.shape[2], value_width = v.shape[2];
  const std::int64_t depth = width / heads, value_depth = value_width / heads;
  // The bias's strides over [B, heads, S, L], 0 along its broadcast axes.
  std::int64_t bias_strides[4] = {0, 0, 0, 0};
  const std::size_t offset = 4 - bias.shape.size();
  std::int64_t stride = 1;
  for (std::size_t i = bias.shape.size(); i-- > 0;) {
    bias_strides[offset + i] = bias.shape[i] == 1 ? 0 : stride;
    stride *= bias.shape[i];
  }
  Tensor out(Shape{batch, queries, value_width});
  std::vector<double> weights(to_size(keys));
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t n = 0; n < heads; ++n)
      for (std::int64_t s = 0; s < queries; ++s) {
        const std::int64_t visible = causal ? s + 1 : keys;
        double top = -std::numeric_limits<double>::infinity();
        for (std::int64_t l = 0; l < visible; ++l) {
          double dot = 0.0;
          for (std::int64_t j = 0; j < depth; ++j)
            dot += q.data[to_size((b * queries + s) * width + n * depth + j)] *
                   k.data[to_size((b * keys + l) * width + n * depth + j)];
          const std::int64_t at =
              b * bias_strides[0] + n * bias_strides[1] + s * bias_strides[2] + l * bias_strides[3];
          weights[to_size(l)] = scale * dot + bias.data[to_size(at)];
          top = std::max(top, weights[to_size(l)]);
        }
        double sum = 0.0;
        for (std::int64_t l = 0; l < visible; ++l) {
          weights[to_size(l)] = std::exp(weights[to_size(l)] - top);
          sum += weights[to_size(l)];
        }
        for (std::int64_t j = 0; j < value_depth; ++j) {
          double total = 0.0;
          for (std::int64_t l = 0; l < visible; ++l)
            total += weights[to_size(l)] *
                     v.data[to_size((b * keys + l) * value_width + n * value_depth + j)];
          out.data[to_size((b * queries + s) * value_width + n * value_depth + j)] = total / sum;
        }
      }
  return out;
}

}  // namespace kernels

namespace {

Tensor copy_with_activation(const Tensor& x, Activation act) {
  Tensor out = x;
  kernels::apply_activation(out, act);
  return out;
}

// Runs the shape function on the inputs' shapes: the kernels rely on its checks.
std::vector<Shape> checked_output_shapes(Op op, std::span<const Tensor> inputs, const Attrs& attrs,
                                         std::span<const TensorType> output_types) {
  std::vector<TensorType> input_types;
  input_types.reserve(inputs.size());
  for (const Tensor& t : inputs) {
    MCTSAT_ASSERT(t.data.size() == static_cast<std::size_t>(numel(t.shape)));
    input_types.push_back({t.shape, DType::kFloat64});
  }
  InferResult inferred = infer_types(op, input_types, attrs, DType::kFloat64);
  if (!inferred.ok()) throw Error(inferred.error);
  std::vector<Shape> shapes;
  for (auto& type : inferred.outputs) shapes.push_back(std::move(type.shape));
  if (!output_types.empty()) {
    bool same = output_types.size() == shapes.size();
    for (std::size_t i = 0; same && i < shapes.size(); ++i)
      same = output_types[i].shape == shapes[i];
    if (!same)
      throw Error(fmt::format("{}: recorded output shape {} disagrees with the inferred {}",
                              op_name(op), shape_string(output_types[0].shape),
                              shape_string(shapes[0])));
  }
  return shapes;
}

}  // namespace

std::vector<Tensor> evaluate_op(Op op, std::span<const Tensor> inputs, const Attrs& attrs,
                                std::span<const TensorType> output_types) {
  if (op == Op::kInput || op == Op::kWeight)
    throw Error(fmt::format("{} is a leaf: its value comes from the caller", op_name(op)));
  if (op == Op::kOpaque) throw Error("opaque operators cannot be interpreted");
  const std::vector<Shape> shapes = checked_output_shapes(op, inputs, attrs, output_types);
  auto integer = [&](std::size_t i) { return attr_int(attrs[i]); };

  switch (op) {
    case Op::kMatmul:
      return {kernels::matmul(inputs[0], inputs[1], shapes[0], activation_attr(attrs[0]))};
    case Op::kConv2d:
      return {kernels::conv2d(inputs[0], inputs[1], integer(0), integer(1), padding_attr(attrs[2]),
                              activation_attr(attrs[3]), shapes[0])};
    case Op::kEwAdd:
      return {kernels::ew_binary(inputs[0], inputs[1], shapes[0], std::plus<double>())};
    case Op::kEwMul:
      return {kernels::ew_binary(inputs[0], inputs[1], shapes[0], std::multiplies<double>())};
    case Op::kEwSub:
      return {kernels::ew_binary(inputs[0], inputs[1], shapes[0], std::minus<double>())};
    case Op::kEwDiv:
      return {kernels::ew_binary(inputs[0], inputs[1], shapes[0], std::divides<double>())};
    case Op::kSmul: {
      Tensor out = inputs[0];
      const double factor = inputs[1].data.at(0);
      for (double& v : out.data) v *= factor;
      return {std::move(out)};
    }
    case Op::kRelu:
      return {copy_with_activation(inputs[0], Activation::kRelu)};
    case Op::kTanh:
      return {copy_with_activation(inputs[0], Activation::kTanh)};
    case Op::kSigmoid:
      return {copy_with_activation(inputs[0], Activation::kSigmoid)};
    case Op::kDropout:
    case Op::kIdentity:
      return {inputs[0]};
    case Op::kTranspose:
      return {kernels::transpose(inputs[0], attr_ints(attrs[0]))};
    case Op::kReshape:
    case Op::kFlatten:
      return {Tensor(shapes[0], inputs[0].data)};
    case Op::kEnlarge:
      return {kernels::enlarge(inputs[0], shapes[0])};
    case Op::kPoolMax:
    case Op::kPoolAvg:
      return {kernels::pool(op, inputs[0], integer(0), integer(1), integer(2), integer(3),
                            padding_attr(attrs[4]), activation_attr(attrs[5]), shapes[0])};
    case Op::kGlobalAvgPool:
      return {kernels::global_avg_pool(inputs[0])};
    case Op::kConcat:
      return {kernels::concat(inputs, integer(0))};
    case Op::kSplit:
      return kernels::split(inputs[0], integer(0), attr_ints(attrs[1]));
    case Op::kMerge:
      return {kernels::merge(inputs[0], integer(0))};
    case Op::kBatchNorm:
      return {kernels::batchnorm(inputs[0], inputs[1], inputs[2], inputs[3], inputs[4])};
    case Op::kSoftmax:
      return {kernels::softmax(inputs[0], integer(0))};
    case Op::kClip: {
      const double low = attr_float(attrs[0]), high = attr_float(attrs[1]);
      Tensor out = inputs[0];
      // max then min: NaN stays NaN, and min > max yields max everywhere (as numpy.clip).
      for (double& v : out.data) v = std::min(std::max(v, low), high);
      return {std::move(out)};
    }
    case Op::kLayerNorm:
      return {kernels::layer_norm(inputs[0], inputs[1], inputs[2], attr_float(attrs[0]))};
    case Op::kGelu:
      return {kernels::gelu(inputs[0], integer(0) == 1)};
    case Op::kAttention:
      return {kernels::attention(inputs[0], inputs[1], inputs[2], inputs[3], integer(0),
                                 integer(1) == 1, attr_float(attrs[2]))};
    case Op::kNoop:
      return {Tensor(Shape{}, 0.0)};
    case Op::kInput:
    case Op::kWeight:
    case Op::kOpaque:
      break;  // refused above
  }
  MCTSAT_ASSERT(false && "evaluate_op: operator without a kernel");
}

}  // namespace mctsat::tensor
