// ONNX operators on concrete tensors (see onnx_reference_ops.hpp). Each operator is a function
// from the node and its input values to its output values; a table maps op_type to it.
#include "frontend/onnx_reference_ops.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "frontend/onnx_attributes.hpp"
#include "frontend/onnx_reference_layers.hpp"
#include "frontend/onnx_tensor.hpp"
#include "support/error.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::frontend {
namespace {

using onnx::NodeProto;
using tensor::DType;
using tensor::Shape;
using tensor::Tensor;
using Inputs = std::span<const std::optional<OnnxValue>>;
using Outputs = std::vector<std::optional<OnnxValue>>;

// The largest result evaluate_onnx_node may create, set for the duration of a call.
thread_local std::int64_t max_elements = kDefaultMaxElements;

const OnnxValue& required(Inputs inputs, std::size_t k, const NodeProto& node) {
  if (k >= inputs.size() || !inputs[k]) reject(fmt::format("{} needs input {}", node.op_type(), k));
  return *inputs[k];
}

bool integral(DType dtype) {
  return dtype != DType::kFloat32 && dtype != DType::kFloat64 && dtype != DType::kFloat16;
}

std::int64_t checked_numel(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) {
    if (d < 0) reject(fmt::format("negative dimension in shape [{}]", fmt::join(shape, ", ")));
    if (d != 0 && n > max_elements / d)
      reject(fmt::format("a result of shape [{}] is too large", fmt::join(shape, ", ")));
    n *= d;
  }
  return n;
}

Tensor make_tensor(Shape shape, double fill = 0.0) {
  checked_numel(shape);
  return Tensor(std::move(shape), fill);
}

std::vector<std::int64_t> strides_of(const Shape& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

std::int64_t axis_of(std::int64_t axis, std::size_t rank, const NodeProto& node) {
  const std::int64_t normalized = onnx_attr::normalize_axis(axis, static_cast<std::int64_t>(rank));
  if (normalized < 0)
    reject(fmt::format("{}: axis {} is out of range for rank {}", node.op_type(), axis, rank));
  return normalized;
}

// Rounds a value to what its element type can hold (integers truncate toward zero, as C casts do).
double convert(double v, DType to) {
  switch (to) {
    case DType::kFloat32:
      return static_cast<float>(v);
    case DType::kFloat16:
    case DType::kFloat64:
      return v;
    case DType::kBool:
      return v != 0 ? 1.0 : 0.0;
    default:
      return std::isfinite(v) ? std::trunc(v) : 0.0;
  }
}

OnnxValue with_dtype(Tensor value, DType dtype) {
  for (double& v : value.data) v = convert(v, dtype);
  return {std::move(value), dtype};
}

Outputs one(OnnxValue value) {
  Outputs out;
  out.emplace_back(std::move(value));
  return out;
}

// --- broadcasting ------------------------------------------------------------------------------

Shape broadcast_shapes(const std::vector<const Shape*>& shapes, const NodeProto& node) {
  std::size_t rank = 0;
  for (const Shape* s : shapes) rank = std::max(rank, s->size());
  Shape out(rank, 1);
  for (const Shape* s : shapes) {
    const std::size_t offset = rank - s->size();
    for (std::size_t d = 0; d < s->size(); ++d) {
      const std::int64_t dim = (*s)[d];
      std::int64_t& o = out[offset + d];
      if (dim == o || dim == 1) continue;
      if (o != 1)
        reject(fmt::format("{}: shapes cannot broadcast ({} against {})", node.op_type(), dim, o));
      o = dim;
    }
  }
  return out;
}

// For each element of `out_shape`, the index of the element of `in` it reads under broadcasting.
std::vector<std::int64_t> broadcast_index(const Shape& in, const Shape& out_shape) {
  const auto out_strides = strides_of(out_shape);
  const auto in_strides = strides_of(in);
  const std::size_t offset = out_shape.size() - in.size();
  const std::int64_t n = tensor::numel(out_shape);
  std::vector<std::int64_t> index(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t rest = i, at = 0;
    for (std::size_t d = 0; d < out_shape.size(); ++d) {
      const std::int64_t coord = rest / out_strides[d];
      rest %= out_strides[d];
      if (d >= offset && in[d - offset] != 1) at += coord * in_strides[d - offset];
    }
    index[static_cast<std::size_t>(i)] = at;
  }
  return index;
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  Tensor out = make_tensor(shape);
  const auto index = broadcast_index(x.shape, shape);
  for (std::size_t i = 0; i < out.data.size(); ++i)
    out.data[i] = x.data[static_cast<std::size_t>(index[i])];
  return out;
}

// --- element-wise operators --------------------------------------------------------------------

using UnaryFn = std::function<double(double, const NodeProto&)>;
using BinaryFn = std::function<double(double, double, bool integer)>;

Outputs unary(const NodeProto& node, Inputs inputs, const UnaryFn& f) {
  OnnxValue x = required(inputs, 0, node);
  for (double& v : x.value.data) v = convert(f(v, node), x.dtype);
  return one(std::move(x));
}

Outputs variadic(const NodeProto& node, Inputs inputs, const BinaryFn& f, bool boolean_result) {
  std::vector<const Shape*> shapes;
  for (std::size_t k = 0; k < inputs.size(); ++k)
    shapes.push_back(&required(inputs, k, node).value.shape);
  if (shapes.empty()) reject(fmt::format("{} needs inputs", node.op_type()));
  const Shape out_shape = broadcast_shapes(shapes, node);
  const DType dtype = inputs[0]->dtype;
  Tensor out = broadcast_to(inputs[0]->value, out_shape);
  for (std::size_t k = 1; k < inputs.size(); ++k) {
    const Tensor other = broadcast_to(inputs[k]->value, out_shape);
    for (std::size_t i = 0; i < out.data.size(); ++i)
      out.data[i] = f(out.data[i], other.data[i], integral(dtype));
  }
  if (boolean_result) return one({std::move(out), DType::kBool});
  return one(with_dtype(std::move(out), dtype));
}

Outputs where(const NodeProto& node, Inputs inputs) {
  const auto &cond = required(inputs, 0, node), &x = required(inputs, 1, node),
             &y = required(inputs, 2, node);
  const Shape shape = broadcast_shapes({&cond.value.shape, &x.value.shape, &y.value.shape}, node);
  const Tensor c = broadcast_to(cond.value, shape), a = broadcast_to(x.value, shape),
               b = broadcast_to(y.value, shape);
  Tensor out = make_tensor(shape);
  for (std::size_t i = 0; i < out.data.size(); ++i)
    out.data[i] = c.data[i] != 0 ? a.data[i] : b.data[i];
  return one({std::move(out), x.dtype});
}

// --- shape and data movement -------------------------------------------------------------------

// ScatterND: data with the slices `indices` address replaced by (or, with reduction add or mul,
// combined with) updates; in index order, so a repeated index keeps the last update.
Outputs scatter_nd(const NodeProto& node, Inputs inputs) {
  const OnnxValue& data = required(inputs, 0, node);
  const Tensor& indices = required(inputs, 1, node).value;
  const Tensor& updates = required(inputs, 2, node).value;
  const Shape& in = data.value.shape;
  if (indices.shape.empty()) reject("ScatterND: indices must have rank 1 or more");
  const auto k = static_cast<std::size_t>(indices.shape.back());
  if (k < 1 || k > in.size()) reject("ScatterND: the index length must be 1 to the data's rank");
  std::int64_t slice = 1;
  for (std::size_t d = k; d < in.size(); ++d) slice *= in[d];
  const std::size_t count = indices.data.size() / k;
  if (updates.data.size() != count * static_cast<std::size_t>(slice))
    reject("ScatterND: updates do not match the indices and the data");
  const std::string reduction = onnx_attr::get_string(node, "reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    reject(fmt::format("ScatterND: reduction '{}' is not supported", reduction));
  Tensor out = data.value;
  for (std::size_t n = 0; n < count; ++n) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < k; ++d) {
      auto i = static_cast<std::int64_t>(indices.data[n * k + d]);
      if (i < 0) i += in[d];
      if (i < 0 || i >= in[d]) reject("ScatterND: an index is out of range");
      offset = offset * in[d] + i;
    }
    for (std::int64_t e = 0; e < slice; ++e) {
      double& target = out.data[static_cast<std::size_t>(offset * slice + e)];
      const double update =
          updates.data[n * static_cast<std::size_t>(slice) + static_cast<std::size_t>(e)];
      target = reduction == "add" ? target + update : reduction == "mul" ? target * update : update;
    }
  }
  return one({std::move(out), data.dtype});
}

Tensor int_tensor(const std::vector<std::int64_t>& values) {
  Tensor t(Shape{static_cast<std::int64_t>(values.size())});
  for (std::size_t i = 0; i < values.size(); ++i) t.data[i] = static_cast<double>(values[i]);
  return t;
}

Outputs shape_op(const NodeProto& node, Inputs inputs) {
  const Shape& shape = required(inputs, 0, node).value.shape;
  const auto rank = static_cast<std::int64_t>(shape.size());
  auto clamp = [&](std::int64_t v) {
    return std::clamp(v < 0 ? v + rank : v, std::int64_t{0}, rank);
  };
  const std::int64_t start = clamp(onnx_attr::get_int(node, "start", 0));
  const std::int64_t end = clamp(onnx_attr::get_int(node, "end", rank));
  std::vector<std::int64_t> dims;
  for (std::int64_t d = start; d < end; ++d) dims.push_back(shape[static_cast<std::size_t>(d)]);
  return one({int_tensor(dims), DType::kInt64});
}

Outputs size_op(const NodeProto& node, Inputs inputs) {
  const auto n = static_cast<double>(tensor::numel(required(inputs, 0, node).value.shape));
  return one({Tensor(Shape{}, std::vector<double>{n}), DType::kInt64});
}

Outputs cast(const NodeProto& node, Inputs inputs) {
  const auto to =
      onnx_io::dtype_from_onnx(static_cast<std::int32_t>(onnx_attr::get_int(node, "to", 0)));
  if (!to) reject("Cast to an element type mctsat does not have");
  return one(with_dtype(required(inputs, 0, node).value, *to));
}

Outputs reshape(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const auto target = onnx_attr::to_ints(required(inputs, 1, node).value);
  const bool allow_zero = onnx_attr::get_int(node, "allowzero", 0) != 0;
  Shape shape;
  std::int64_t known = 1, infer_at = -1;
  for (std::size_t i = 0; i < target.size(); ++i) {
    std::int64_t d = target[i];
    if (d == 0 && !allow_zero) {
      if (i >= x.value.shape.size()) reject("Reshape: a 0 beyond the input's rank");
      d = x.value.shape[i];
    }
    if (d == -1) {
      if (infer_at >= 0) reject("Reshape: more than one -1");
      infer_at = static_cast<std::int64_t>(i);
    } else if (d < 0) {
      reject(fmt::format("Reshape: dimension {}", d));
    } else {
      known *= d;
    }
    shape.push_back(d);
  }
  const std::int64_t n = tensor::numel(x.value.shape);
  if (infer_at >= 0) {
    if (known == 0 || n % known != 0) reject("Reshape: the -1 dimension cannot be inferred");
    shape[static_cast<std::size_t>(infer_at)] = n / known;
  }
  if (tensor::numel(shape) != n)
    reject(fmt::format("Reshape: {} elements cannot take shape [{}]", n, fmt::join(shape, ", ")));
  return one({Tensor(shape, x.value.data), x.dtype});
}

Outputs flatten(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const auto rank = static_cast<std::int64_t>(x.value.shape.size());
  std::int64_t axis = onnx_attr::get_int(node, "axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) reject("Flatten: axis out of range");
  std::int64_t outer = 1;
  for (std::int64_t d = 0; d < axis; ++d) outer *= x.value.shape[static_cast<std::size_t>(d)];
  const std::int64_t n = tensor::numel(x.value.shape);
  return one({Tensor(Shape{outer, outer == 0 ? 0 : n / outer}, x.value.data), x.dtype});
}

// Axes from the attribute (older opsets) or the second input.
std::optional<std::vector<std::int64_t>> axes_of(const NodeProto& node, Inputs inputs,
                                                 std::size_t input_index) {
  if (const OnnxValue* axes = optional_input(inputs, input_index))
    return onnx_attr::to_ints(axes->value);
  return onnx_attr::get_ints(node, "axes");
}

Outputs squeeze(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const auto axes = axes_of(node, inputs, 1);
  std::vector<bool> drop(x.value.shape.size(), false);
  if (axes) {
    for (auto a : *axes) {
      const auto d = static_cast<std::size_t>(axis_of(a, x.value.shape.size(), node));
      if (x.value.shape[d] != 1) reject(fmt::format("Squeeze: dimension {} is not 1", a));
      drop[d] = true;
    }
  } else {
    for (std::size_t d = 0; d < drop.size(); ++d) drop[d] = x.value.shape[d] == 1;
  }
  Shape shape;
  for (std::size_t d = 0; d < drop.size(); ++d)
    if (!drop[d]) shape.push_back(x.value.shape[d]);
  return one({Tensor(shape, x.value.data), x.dtype});
}

Outputs unsqueeze(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const auto axes = axes_of(node, inputs, 1);
  if (!axes) reject("Unsqueeze needs axes");
  const std::size_t rank = x.value.shape.size() + axes->size();
  std::vector<bool> inserted(rank, false);
  for (auto a : *axes) {
    const auto d = static_cast<std::size_t>(axis_of(a, rank, node));
    if (inserted[d]) reject("Unsqueeze: repeated axis");
    inserted[d] = true;
  }
  Shape shape;
  std::size_t next = 0;
  for (std::size_t d = 0; d < rank; ++d) shape.push_back(inserted[d] ? 1 : x.value.shape[next++]);
  return one({Tensor(shape, x.value.data), x.dtype});
}

Outputs concat(const NodeProto& node, Inputs inputs) {
  std::vector<Tensor> parts;
  for (std::size_t k = 0; k < inputs.size(); ++k) parts.push_back(required(inputs, k, node).value);
  if (parts.empty()) reject("Concat needs inputs");
  const std::int64_t axis =
      axis_of(onnx_attr::get_int(node, "axis", 0), parts[0].shape.size(), node);
  for (const Tensor& p : parts) {
    if (p.shape.size() != parts[0].shape.size()) reject("Concat: inputs of different ranks");
    for (std::size_t d = 0; d < p.shape.size(); ++d)
      if (static_cast<std::int64_t>(d) != axis && p.shape[d] != parts[0].shape[d])
        reject("Concat: inputs differ outside the axis");
  }
  return one({tensor::kernels::concat(parts, axis), inputs[0]->dtype});
}

Outputs gather(const NodeProto& node, Inputs inputs) {
  const OnnxValue& data = required(inputs, 0, node);
  const Tensor& indices = required(inputs, 1, node).value;
  const Shape& in = data.value.shape;
  const auto axis =
      static_cast<std::size_t>(axis_of(onnx_attr::get_int(node, "axis", 0), in.size(), node));
  Shape shape(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(axis));
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), in.begin() + static_cast<std::ptrdiff_t>(axis) + 1, in.end());
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= in[d];
  for (std::size_t d = axis + 1; d < in.size(); ++d) inner *= in[d];
  Tensor out = make_tensor(shape);
  std::size_t at = 0;
  for (std::int64_t o = 0; o < outer; ++o) {
    for (double raw : indices.data) {
      auto i = static_cast<std::int64_t>(raw);
      if (i < 0) i += in[axis];
      if (i < 0 || i >= in[axis]) reject(fmt::format("Gather: index {} out of range", raw));
      const std::int64_t base = (o * in[axis] + i) * inner;
      for (std::int64_t k = 0; k < inner; ++k)
        out.data[at++] = data.value.data[static_cast<std::size_t>(base + k)];
    }
  }
  return one({std::move(out), data.dtype});
}

Outputs slice(const NodeProto& node, std::int64_t opset, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const Shape& in = x.value.shape;
  std::vector<std::int64_t> starts, ends, axes, steps;
  if (opset < 10) {
    starts = onnx_attr::get_ints(node, "starts").value_or(std::vector<std::int64_t>{});
    ends = onnx_attr::get_ints(node, "ends").value_or(std::vector<std::int64_t>{});
    axes = onnx_attr::get_ints(node, "axes").value_or(std::vector<std::int64_t>{});
  } else {
    starts = onnx_attr::to_ints(required(inputs, 1, node).value);
    ends = onnx_attr::to_ints(required(inputs, 2, node).value);
    if (const OnnxValue* a = optional_input(inputs, 3)) axes = onnx_attr::to_ints(a->value);
    if (const OnnxValue* s = optional_input(inputs, 4)) steps = onnx_attr::to_ints(s->value);
  }
  if (axes.empty())
    for (std::size_t d = 0; d < starts.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    reject("Slice: starts, ends, axes and steps differ in length");
  std::vector<std::int64_t> first(in.size(), 0), step(in.size(), 1);
  Shape shape = in;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const auto d = static_cast<std::size_t>(axis_of(axes[k], in.size(), node));
    const std::int64_t dim = in[d], s = steps[k];
    if (s == 0) reject("Slice: step 0");
    auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
      if (v < 0) v += dim;
      return std::clamp(v, lo, hi);
    };
    const std::int64_t begin = s > 0 ? clamp(starts[k], 0, dim) : clamp(starts[k], 0, dim - 1);
    const std::int64_t end = s > 0 ? clamp(ends[k], 0, dim) : clamp(ends[k], -1, dim - 1);
    const std::int64_t count = s > 0 ? std::max<std::int64_t>(0, (end - begin + s - 1) / s)
                                     : std::max<std::int64_t>(0, (begin - end - s - 1) / -s);
    first[d] = begin;
    step[d] = s;
    shape[d] = count;
  }
  Tensor out = make_tensor(shape);
  const auto in_strides = strides_of(in), out_strides = strides_of(shape);
  for (std::size_t i = 0; i < out.data.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i), at = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      const std::int64_t coord = rest / out_strides[d];
      rest %= out_strides[d];
      at += (first[d] + coord * step[d]) * in_strides[d];
    }
    out.data[i] = x.value.data[static_cast<std::size_t>(at)];
  }
  return one({std::move(out), x.dtype});
}

Outputs transpose(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  std::vector<std::int64_t> perm(x.value.shape.size());
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (auto given = onnx_attr::get_ints(node, "perm")) perm = *given;
  std::vector<std::int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t d = 0; d < sorted.size(); ++d)
    if (sorted[d] != static_cast<std::int64_t>(d) || perm.size() != x.value.shape.size())
      reject("Transpose: perm is not a permutation of the axes");
  return one({tensor::kernels::transpose(x.value, perm), x.dtype});
}

Outputs expand(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const Shape target = onnx_attr::to_ints(required(inputs, 1, node).value);
  const Shape shape = broadcast_shapes({&x.value.shape, &target}, node);
  return one({broadcast_to(x.value, shape), x.dtype});
}

Outputs tile(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const auto repeats = onnx_attr::to_ints(required(inputs, 1, node).value);
  if (repeats.size() != x.value.shape.size()) reject("Tile: one repeat per axis");
  Shape shape = x.value.shape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (repeats[d] < 0) reject("Tile: negative repeat");
    shape[d] *= repeats[d];
  }
  Tensor out = make_tensor(shape);
  const auto in_strides = strides_of(x.value.shape), out_strides = strides_of(shape);
  for (std::size_t i = 0; i < out.data.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i), at = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      at += (rest / out_strides[d]) % x.value.shape[d] * in_strides[d];
      rest %= out_strides[d];
    }
    out.data[i] = x.value.data[static_cast<std::size_t>(at)];
  }
  return one({std::move(out), x.dtype});
}

Outputs constant_of_shape(const NodeProto& node, Inputs inputs) {
  const Shape shape = onnx_attr::to_ints(required(inputs, 0, node).value);
  double fill = 0;
  DType dtype = DType::kFloat32;
  if (const auto* value = onnx_attr::find(node, "value")) {
    const Tensor t = onnx_io::tensor_from_proto(value->t(), node.output(0));
    if (t.data.size() != 1) reject("ConstantOfShape: value must have one element");
    fill = t.data[0];
    dtype = *onnx_io::dtype_from_onnx(value->t().data_type());
  }
  return one({make_tensor(shape, fill), dtype});
}

Outputs range(const NodeProto& node, Inputs inputs) {
  const OnnxValue& start = required(inputs, 0, node);
  const double first = start.value.data.at(0), limit = required(inputs, 1, node).value.data.at(0),
               delta = required(inputs, 2, node).value.data.at(0);
  if (delta == 0) reject("Range: delta 0");
  const double count = std::max(0.0, std::ceil((limit - first) / delta));
  if (count > static_cast<double>(max_elements)) reject("Range: too many elements");
  Tensor out = make_tensor(Shape{static_cast<std::int64_t>(count)});
  for (std::size_t i = 0; i < out.data.size(); ++i)
    out.data[i] = first + static_cast<double>(i) * delta;
  return one(with_dtype(std::move(out), start.dtype));
}

Outputs split(const NodeProto& node, std::int64_t opset, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const Shape& in = x.value.shape;
  const auto axis =
      static_cast<std::size_t>(axis_of(onnx_attr::get_int(node, "axis", 0), in.size(), node));
  std::vector<std::int64_t> sizes;
  if (opset < 13) {
    sizes = onnx_attr::get_ints(node, "split").value_or(std::vector<std::int64_t>{});
  } else if (const OnnxValue* given = optional_input(inputs, 1)) {
    sizes = onnx_attr::to_ints(given->value);
  }
  const auto parts = static_cast<std::int64_t>(node.output_size());
  if (sizes.empty()) {
    if (parts == 0 || in[axis] % parts != 0) reject("Split: uneven equal split");
    sizes.assign(static_cast<std::size_t>(parts), in[axis] / parts);
  }
  if (static_cast<std::int64_t>(sizes.size()) != parts) reject("Split: one size per output");
  std::int64_t total = 0;
  for (auto size : sizes) {
    if (size < 0) reject("Split: negative size");
    total += size;
  }
  if (total != in[axis])
    reject(fmt::format("Split: sizes [{}] do not add up to {}", fmt::join(sizes, ", "), in[axis]));
  Outputs outputs;
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= in[d];
  for (std::size_t d = axis + 1; d < in.size(); ++d) inner *= in[d];
  std::int64_t offset = 0;
  for (auto size : sizes) {
    Shape shape = in;
    shape[axis] = size;
    Tensor part = make_tensor(shape);
    std::size_t at = 0;
    for (std::int64_t o = 0; o < outer; ++o) {
      const std::int64_t base = (o * in[axis] + offset) * inner;
      for (std::int64_t k = 0; k < size * inner; ++k)
        part.data[at++] = x.value.data[static_cast<std::size_t>(base + k)];
    }
    outputs.emplace_back(OnnxValue{std::move(part), x.dtype});
    offset += size;
  }
  return outputs;
}

// Pad in constant, edge or reflect mode; negative pads crop.
Outputs pad(const NodeProto& node, std::int64_t opset, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const Shape& in = x.value.shape;
  const std::size_t rank = in.size();
  std::vector<std::int64_t> pads;
  double fill = 0;
  if (opset < 11) {
    pads = onnx_attr::get_ints(node, "pads").value_or(std::vector<std::int64_t>{});
    fill = onnx_attr::get_float(node, "value", 0.0);
  } else {
    pads = onnx_attr::to_ints(required(inputs, 1, node).value);
    if (const OnnxValue* value = optional_input(inputs, 2)) {
      if (value->value.data.size() != 1) reject("Pad: constant_value must have one element");
      fill = value->value.data[0];
    }
  }
  std::vector<std::int64_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  if (const OnnxValue* given = optional_input(inputs, 3)) {
    axes = onnx_attr::to_ints(given->value);
    for (auto& a : axes) a = axis_of(a, rank, node);
  }
  if (pads.size() != 2 * axes.size()) reject("Pad: pads must hold two values per axis");
  std::vector<std::int64_t> begin(rank, 0), end(rank, 0);
  for (std::size_t k = 0; k < axes.size(); ++k) {
    begin[static_cast<std::size_t>(axes[k])] = pads[k];
    end[static_cast<std::size_t>(axes[k])] = pads[axes.size() + k];
  }
  const std::string mode = onnx_attr::get_string(node, "mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    reject(fmt::format("Pad: mode '{}' is not supported", mode));
  Shape shape(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    shape[d] = in[d] + begin[d] + end[d];
    if (shape[d] < 0) reject("Pad: a negative output dimension");
    if (mode != "constant" && shape[d] > 0 && in[d] == 0) reject("Pad: an empty axis to extend");
    if (mode == "reflect" && (begin[d] >= in[d] || end[d] >= in[d]) && (begin[d] > 0 || end[d] > 0))
      reject("Pad: reflect pads must be shorter than the axis");
  }
  Tensor out = make_tensor(shape, convert(fill, x.dtype));
  const auto in_strides = strides_of(in), out_strides = strides_of(shape);
  for (std::size_t i = 0; i < out.data.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i), at = 0;
    bool inside = true;
    for (std::size_t d = 0; d < rank; ++d) {
      std::int64_t coord = rest / out_strides[d] - begin[d];
      rest %= out_strides[d];
      if (coord < 0 || coord >= in[d]) {
        if (mode == "constant") {
          inside = false;
          break;
        }
        if (mode == "edge") {
          coord = std::clamp<std::int64_t>(coord, 0, in[d] - 1);
        } else {
          coord = coord < 0 ? -coord : 2 * (in[d] - 1) - coord;
        }
      }
      at += coord * in_strides[d];
    }
    if (inside) out.data[i] = x.value.data[static_cast<std::size_t>(at)];
  }
  return one({std::move(out), x.dtype});
}

// --- reductions --------------------------------------------------------------------------------

enum class Reduce { kMean, kSum, kMax, kMin };

Outputs reduce(const NodeProto& node, std::int64_t opset, Inputs inputs, Reduce kind) {
  const OnnxValue& x = required(inputs, 0, node);
  const Shape& in = x.value.shape;
  // ReduceSum takes its axes as an input from opset 13, the others from opset 18.
  const bool axes_input = kind == Reduce::kSum ? opset >= 13 : opset >= 18;
  auto axes = axes_input ? axes_of(node, inputs, 1) : onnx_attr::get_ints(node, "axes");
  const bool keep = onnx_attr::get_int(node, "keepdims", 1) != 0;
  std::vector<bool> reduced(in.size(), false);
  if (!axes || axes->empty()) {
    if (onnx_attr::get_int(node, "noop_with_empty_axes", 0) != 0) return one(x);
    reduced.assign(in.size(), true);
  } else {
    for (auto a : *axes) reduced[static_cast<std::size_t>(axis_of(a, in.size(), node))] = true;
  }
  Shape kept_shape;  // the output's shape with reduced axes as 1
  for (std::size_t d = 0; d < in.size(); ++d) kept_shape.push_back(reduced[d] ? 1 : in[d]);
  const double init = kind == Reduce::kMax ? -HUGE_VAL : kind == Reduce::kMin ? HUGE_VAL : 0.0;
  Tensor out = make_tensor(kept_shape, init);
  const auto in_strides = strides_of(in), out_strides = strides_of(kept_shape);
  for (std::size_t i = 0; i < x.value.data.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i), at = 0;
    for (std::size_t d = 0; d < in.size(); ++d) {
      const std::int64_t coord = rest / in_strides[d];
      rest %= in_strides[d];
      if (!reduced[d]) at += coord * out_strides[d];
    }
    double& acc = out.data[static_cast<std::size_t>(at)];
    const double v = x.value.data[i];
    acc = kind == Reduce::kMax   ? std::max(acc, v)
          : kind == Reduce::kMin ? std::min(acc, v)
                                 : acc + v;
  }
  if (kind == Reduce::kMean) {
    const double count =
        static_cast<double>(x.value.data.size()) / static_cast<double>(out.data.size());
    for (double& v : out.data) v /= count;
  }
  if (!keep) {
    Shape shape;
    for (std::size_t d = 0; d < in.size(); ++d)
      if (!reduced[d]) shape.push_back(in[d]);
    out.shape = shape;
  }
  return one(with_dtype(std::move(out), x.dtype));
}

// --- Resize ------------------------------------------------------------------------------------

// The input coordinate output coordinate `o` reads along one axis.
double source_coordinate(const std::string& mode, double o, double scale, std::int64_t in) {
  if (mode == "asymmetric") return o / scale;
  // ONNX scales by the unrounded resized length, in * scale.
  const double resized = static_cast<double>(in) * scale;
  if (mode == "align_corners")
    return resized <= 1 ? 0.0 : o * static_cast<double>(in - 1) / (resized - 1);
  if (mode == "pytorch_half_pixel") return resized > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
  if (mode == "tf_half_pixel_for_nearest" || mode == "tf_half_pixel_for_nn")
    return (o + 0.5) / scale;
  if (mode == "half_pixel") return (o + 0.5) / scale - 0.5;
  reject(fmt::format("Resize: coordinate_transformation_mode '{}' is not supported", mode));
}

std::int64_t nearest_index(const std::string& mode, double x) {
  if (mode == "floor") return static_cast<std::int64_t>(std::floor(x));
  if (mode == "ceil") return static_cast<std::int64_t>(std::ceil(x));
  const double f = std::floor(x);
  const bool half = x - f == 0.5;
  if (mode == "round_prefer_floor") return static_cast<std::int64_t>(half ? f : std::round(x));
  if (mode == "round_prefer_ceil") return static_cast<std::int64_t>(half ? f + 1 : std::round(x));
  reject(fmt::format("Resize: nearest_mode '{}' is not supported", mode));
}

// Resizes `x` along `axis` to `out_dim` (nearest or linear; both are separable by axis).
Tensor resize_axis(const Tensor& x, std::size_t axis, std::int64_t out_dim, double scale,
                   const NodeProto& node) {
  const std::string mode = onnx_attr::get_string(node, "mode", "nearest");
  const std::string transform =
      onnx_attr::get_string(node, "coordinate_transformation_mode", "half_pixel");
  const std::string nearest = onnx_attr::get_string(node, "nearest_mode", "round_prefer_floor");
  const std::int64_t in_dim = x.shape[axis];
  Shape shape = x.shape;
  shape[axis] = out_dim;
  Tensor out = make_tensor(shape);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= x.shape[d];
  for (std::size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  for (std::int64_t o = 0; o < out_dim; ++o) {
    const double src = source_coordinate(transform, static_cast<double>(o), scale, in_dim);
    std::int64_t lo = 0, hi = 0;
    double w_hi = 0;
    if (mode == "nearest") {
      lo = hi = std::clamp<std::int64_t>(nearest_index(nearest, src), 0, in_dim - 1);
    } else if (mode == "linear") {
      const double c = std::clamp(src, 0.0, static_cast<double>(in_dim - 1));
      lo = static_cast<std::int64_t>(std::floor(c));
      hi = std::min(lo + 1, in_dim - 1);
      w_hi = c - static_cast<double>(lo);
    } else {
      reject(fmt::format("Resize: mode '{}' is not supported", mode));
    }
    for (std::int64_t a = 0; a < outer; ++a) {
      const std::int64_t src_lo = (a * in_dim + lo) * inner, src_hi = (a * in_dim + hi) * inner;
      const std::int64_t dst = (a * out_dim + o) * inner;
      for (std::int64_t k = 0; k < inner; ++k) {
        out.data[static_cast<std::size_t>(dst + k)] =
            (1 - w_hi) * x.data[static_cast<std::size_t>(src_lo + k)] +
            w_hi * x.data[static_cast<std::size_t>(src_hi + k)];
      }
    }
  }
  return out;
}

Outputs resize(const NodeProto& node, std::int64_t opset, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const std::size_t rank = x.value.shape.size();
  // Opset 10: (X, scales); 11 and later: (X, roi, scales, sizes), roi used only by
  // tf_crop_and_resize.
  const OnnxValue* scales = optional_input(inputs, opset < 11 ? 1 : 2);
  const OnnxValue* sizes = opset < 11 ? nullptr : optional_input(inputs, 3);
  if (scales && scales->value.data.empty()) scales = nullptr;
  std::vector<double> scale(rank, 1.0);
  Shape out_shape = x.value.shape;
  if (sizes && !sizes->value.data.empty()) {
    if (sizes->value.data.size() != rank) reject("Resize: sizes must have one entry per axis");
    for (std::size_t d = 0; d < rank; ++d) {
      out_shape[d] = static_cast<std::int64_t>(sizes->value.data[d]);
      scale[d] = static_cast<double>(out_shape[d]) / static_cast<double>(x.value.shape[d]);
    }
  } else if (scales) {
    if (scales->value.data.size() != rank) reject("Resize: scales must have one entry per axis");
    for (std::size_t d = 0; d < rank; ++d) {
      scale[d] = scales->value.data[d];
      if (!(scale[d] > 0)) reject("Resize: scales must be positive");
      out_shape[d] =
          static_cast<std::int64_t>(std::floor(static_cast<double>(x.value.shape[d]) * scale[d]));
    }
  } else {
    reject("Resize needs scales or sizes");
  }
  checked_numel(out_shape);
  Tensor value = x.value;
  for (std::size_t d = 0; d < rank; ++d)
    if (out_shape[d] != x.value.shape[d] || scale[d] != 1.0)
      value = resize_axis(value, d, out_shape[d], scale[d], node);
  return one(with_dtype(std::move(value), x.dtype));
}

// --- ConvTranspose -----------------------------------------------------------------------------

Outputs conv_transpose(const NodeProto& node, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  const Tensor& w = required(inputs, 1, node).value;
  const OnnxValue* bias = optional_input(inputs, 2);
  if (x.value.shape.size() != 4 || w.shape.size() != 4)
    reject(fmt::format("ConvTranspose: {}-D convolutions are not supported (only 2-D)",
                       static_cast<int>(x.value.shape.size()) - 2));
  const std::int64_t n = x.value.shape[0], c = x.value.shape[1], h = x.value.shape[2],
                     wd = x.value.shape[3];
  const std::int64_t group = onnx_attr::get_int(node, "group", 1);
  if (group <= 0 || c % group != 0 || w.shape[0] != c)
    reject("ConvTranspose: weight does not match the input channels and groups");
  const std::int64_t m_per_group = w.shape[1], m = m_per_group * group, kh = w.shape[2],
                     kw = w.shape[3];
  const auto strides =
      onnx_attr::get_ints(node, "strides").value_or(std::vector<std::int64_t>{1, 1});
  const auto dilations =
      onnx_attr::get_ints(node, "dilations").value_or(std::vector<std::int64_t>{1, 1});
  const auto output_padding =
      onnx_attr::get_ints(node, "output_padding").value_or(std::vector<std::int64_t>{0, 0});
  auto pads = onnx_attr::get_ints(node, "pads").value_or(std::vector<std::int64_t>{0, 0, 0, 0});
  if (strides.size() != 2 || dilations.size() != 2 || output_padding.size() != 2 ||
      pads.size() != 4)
    reject("ConvTranspose: strides, dilations, output_padding and pads must be 2-D");
  const std::int64_t in[2] = {h, wd}, k[2] = {kh, kw};
  std::int64_t out[2];
  const auto output_shape = onnx_attr::get_ints(node, "output_shape");
  const std::string auto_pad = onnx_attr::get_string(node, "auto_pad", "NOTSET");
  for (int a = 0; a < 2; ++a) {
    const std::int64_t full =
        strides[a] * (in[a] - 1) + output_padding[a] + (k[a] - 1) * dilations[a] + 1;
    if (output_shape || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out[a] = output_shape ? output_shape->at(output_shape->size() - 2 + a) : in[a] * strides[a];
      const std::int64_t total = std::max<std::int64_t>(0, full - out[a]);
      const bool upper = auto_pad != "SAME_LOWER";
      pads[a] = upper ? total / 2 : total - total / 2;
      pads[a + 2] = total - pads[a];
    } else {
      out[a] = full - pads[a] - pads[a + 2];
    }
    if (out[a] <= 0) reject("ConvTranspose: empty output");
  }
  Tensor y = make_tensor(Shape{n, m, out[0], out[1]});
  const std::int64_t c_per_group = c / group;
  for (std::int64_t b = 0; b < n; ++b)
    for (std::int64_t ci = 0; ci < c; ++ci) {
      const std::int64_t g = ci / c_per_group;
      for (std::int64_t i = 0; i < h; ++i)
        for (std::int64_t j = 0; j < wd; ++j) {
          const double v = x.value.data[static_cast<std::size_t>(((b * c + ci) * h + i) * wd + j)];
          for (std::int64_t mo = 0; mo < m_per_group; ++mo)
            for (std::int64_t p = 0; p < kh; ++p) {
              const std::int64_t oi = i * strides[0] + p * dilations[0] - pads[0];
              if (oi < 0 || oi >= out[0]) continue;
              for (std::int64_t q = 0; q < kw; ++q) {
                const std::int64_t oj = j * strides[1] + q * dilations[1] - pads[1];
                if (oj < 0 || oj >= out[1]) continue;
                const std::int64_t co = g * m_per_group + mo;
                y.data[static_cast<std::size_t>(((b * m + co) * out[0] + oi) * out[1] + oj)] +=
                    v *
                    w.data[static_cast<std::size_t>(((ci * m_per_group + mo) * kh + p) * kw + q)];
              }
            }
        }
    }
  if (bias) {
    if (bias->value.data.size() != static_cast<std::size_t>(m)) reject("ConvTranspose: bias size");
    const std::int64_t plane = out[0] * out[1];
    for (std::size_t i = 0; i < y.data.size(); ++i)
      y.data[i] +=
          bias->value.data[static_cast<std::size_t>(static_cast<std::int64_t>(i) / plane % m)];
  }
  return one(with_dtype(std::move(y), x.dtype));
}

// --- the table ---------------------------------------------------------------------------------

using Evaluator = std::function<Outputs(const NodeProto&, std::int64_t, Inputs)>;

Evaluator plain(Outputs (*f)(const NodeProto&, Inputs)) {
  return [f](const NodeProto& node, std::int64_t, Inputs inputs) { return f(node, inputs); };
}
Evaluator with_opset(Outputs (*f)(const NodeProto&, std::int64_t, Inputs)) {
  return [f](const NodeProto& node, std::int64_t opset, Inputs inputs) {
    return f(node, opset, inputs);
  };
}
Evaluator unary_op(double (*f)(double, const NodeProto&)) {
  return [f](const NodeProto& node, std::int64_t, Inputs inputs) { return unary(node, inputs, f); };
}
Evaluator binary_op(BinaryFn f, bool boolean_result = false) {
  return [f = std::move(f), boolean_result](const NodeProto& node, std::int64_t, Inputs inputs) {
    return variadic(node, inputs, f, boolean_result);
  };
}
Evaluator reduce_op(Reduce kind) {
  return [kind](const NodeProto& node, std::int64_t opset, Inputs inputs) {
    return reduce(node, opset, inputs, kind);
  };
}

// Clip: its bounds are attributes before opset 11, optional scalar inputs from opset 11 on; a
// missing bound does not clip.
Outputs clip(const NodeProto& node, std::int64_t opset, Inputs inputs) {
  const OnnxValue& x = required(inputs, 0, node);
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  auto bound = [&](std::size_t k, const char* name, double unbounded) {
    if (opset < 11) return onnx_attr::get_float(node, name, unbounded);
    if (k >= inputs.size() || !inputs[k]) return unbounded;
    if (inputs[k]->value.data.size() != 1) reject(fmt::format("Clip: {} must be a scalar", name));
    return inputs[k]->value.data[0];
  };
  const double low = bound(1, "min", -kInfinity), high = bound(2, "max", kInfinity);
  Tensor y = x.value;
  for (double& v : y.data) v = std::min(std::max(v, low), high);
  return one(with_dtype(std::move(y), x.dtype));
}

double hard_sigmoid(double v, const NodeProto& node) {
  const double alpha = onnx_attr::get_float(node, "alpha", 0.2),
               beta = onnx_attr::get_float(node, "beta", 0.5);
  return std::clamp(alpha * v + beta, 0.0, 1.0);
}

const std::map<std::string, Evaluator>& table() {
  static const std::map<std::string, Evaluator> ops = {
      {"Identity", plain([](const NodeProto& n, Inputs in) { return one(required(in, 0, n)); })},
      {"Shape", plain(shape_op)},
      {"Size", plain(size_op)},
      {"Cast", plain(cast)},
      {"Reshape", plain(reshape)},
      {"Flatten", plain(flatten)},
      {"Squeeze", plain(squeeze)},
      {"Unsqueeze", plain(unsqueeze)},
      {"Concat", plain(concat)},
      {"Gather", plain(gather)},
      {"Slice", with_opset(slice)},
      {"Split", with_opset(split)},
      {"Pad", with_opset(pad)},
      {"Transpose", plain(transpose)},
      {"Expand", plain(expand)},
      {"Tile", plain(tile)},
      {"ConstantOfShape", plain(constant_of_shape)},
      {"Range", plain(range)},
      {"Where", plain(where)},
      {"ScatterND", plain(scatter_nd)},
      {"Add", binary_op([](double a, double b, bool) { return a + b; })},
      {"Sub", binary_op([](double a, double b, bool) { return a - b; })},
      {"Mul", binary_op([](double a, double b, bool) { return a * b; })},
      {"Div", binary_op([](double a, double b, bool integer) {
         if (integer && b == 0) reject("Div: integer division by zero");
         return integer ? std::trunc(a / b) : a / b;
       })},
      // Mod: the sign of the divisor (fmod = 0, integers) or of the dividend (fmod = 1, C's fmod).
      {"Mod",
       [](const NodeProto& node, std::int64_t, Inputs inputs) {
         const bool c_fmod = onnx_attr::get_int(node, "fmod", 0) != 0;
         return variadic(
             node, inputs,
             [c_fmod](double a, double b, bool integer) {
               if (integer && b == 0) reject("Mod: integer division by zero");
               if (c_fmod) return std::fmod(a, b);
               if (!integer) reject("Mod: fmod = 0 on floating-point values is not allowed");
               const double r = std::fmod(a, b);
               return r != 0 && (r < 0) != (b < 0) ? r + b : r;
             },
             false);
       }},
      {"Pow", binary_op([](double a, double b, bool) { return std::pow(a, b); })},
      {"Min", binary_op([](double a, double b, bool) { return std::min(a, b); })},
      {"Max", binary_op([](double a, double b, bool) { return std::max(a, b); })},
      {"Equal", binary_op([](double a, double b, bool) { return a == b ? 1.0 : 0.0; }, true)},
      {"Less", binary_op([](double a, double b, bool) { return a < b ? 1.0 : 0.0; }, true)},
      {"Greater", binary_op([](double a, double b, bool) { return a > b ? 1.0 : 0.0; }, true)},
      {"GreaterOrEqual",
       binary_op([](double a, double b, bool) { return a >= b ? 1.0 : 0.0; }, true)},
      {"LessOrEqual", binary_op([](double a, double b, bool) { return a <= b ? 1.0 : 0.0; }, true)},
      {"And",
       binary_op([](double a, double b, bool) { return a != 0 && b != 0 ? 1.0 : 0.0; }, true)},
      {"Or",
       binary_op([](double a, double b, bool) { return a != 0 || b != 0 ? 1.0 : 0.0; }, true)},
      {"Xor",
       binary_op([](double a, double b, bool) { return (a != 0) != (b != 0) ? 1.0 : 0.0; }, true)},
      {"Neg", unary_op([](double v, const NodeProto&) { return -v; })},
      {"Not", unary_op([](double v, const NodeProto&) { return v == 0 ? 1.0 : 0.0; })},
      {"Sign", unary_op([](double v, const NodeProto&) {
         return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0;
       })},
      {"Round", unary_op([](double v, const NodeProto&) { return std::nearbyint(v); })},
      {"Sin", unary_op([](double v, const NodeProto&) { return std::sin(v); })},
      {"Cos", unary_op([](double v, const NodeProto&) { return std::cos(v); })},
      {"Abs", unary_op([](double v, const NodeProto&) { return std::abs(v); })},
      {"Sqrt", unary_op([](double v, const NodeProto&) { return std::sqrt(v); })},
      {"Exp", unary_op([](double v, const NodeProto&) { return std::exp(v); })},
      {"Log", unary_op([](double v, const NodeProto&) { return std::log(v); })},
      {"Reciprocal", unary_op([](double v, const NodeProto&) { return 1 / v; })},
      {"Erf", unary_op([](double v, const NodeProto&) { return std::erf(v); })},
      {"Floor", unary_op([](double v, const NodeProto&) { return std::floor(v); })},
      {"Ceil", unary_op([](double v, const NodeProto&) { return std::ceil(v); })},
      {"Relu", unary_op([](double v, const NodeProto&) { return std::max(v, 0.0); })},
      {"Sigmoid", unary_op([](double v, const NodeProto&) { return 1 / (1 + std::exp(-v)); })},
      {"Tanh", unary_op([](double v, const NodeProto&) { return std::tanh(v); })},
      {"HardSigmoid", unary_op(hard_sigmoid)},
      {"Clip", with_opset(clip)},
      {"HardSwish",
       unary_op([](double v, const NodeProto&) { return v * std::clamp(v / 6 + 0.5, 0.0, 1.0); })},
      {"LeakyRelu", unary_op([](double v, const NodeProto& n) {
         return v >= 0 ? v : onnx_attr::get_float(n, "alpha", 0.01) * v;
       })},
      {"ReduceMean", reduce_op(Reduce::kMean)},
      {"ReduceSum", reduce_op(Reduce::kSum)},
      {"ReduceMax", reduce_op(Reduce::kMax)},
      {"ReduceMin", reduce_op(Reduce::kMin)},
      {"Resize", with_opset(resize)},
      {"ConvTranspose", plain(conv_transpose)},
      {"Conv", [](const NodeProto& n, std::int64_t,
                  Inputs in) { return reference_conv(n, in, max_elements); }},
      {"MaxPool", [](const NodeProto& n, std::int64_t,
                     Inputs in) { return reference_pool(n, in, max_elements); }},
      {"AveragePool", [](const NodeProto& n, std::int64_t,
                         Inputs in) { return reference_pool(n, in, max_elements); }},
      {"LayerNormalization",
       [](const NodeProto& n, std::int64_t, Inputs in) { return reference_layer_norm(n, in); }},
      {"GRU", [](const NodeProto& n, std::int64_t,
                 Inputs in) { return reference_gru(n, in, max_elements); }},
      {"LSTM", [](const NodeProto& n, std::int64_t,
                  Inputs in) { return reference_lstm(n, in, max_elements); }},
  };
  return ops;
}

}  // namespace

bool onnx_reference_op_supported(const std::string& op_type) {
  return table().count(op_type) != 0;
}

std::string onnx_reference_op_list() {
  std::vector<std::string> names;
  for (const auto& [name, f] : table()) names.push_back(name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::vector<std::optional<OnnxValue>> evaluate_onnx_node(
    const onnx::NodeProto& node, std::int64_t opset,
    std::span<const std::optional<OnnxValue>> inputs, std::int64_t element_limit) {
  struct LimitScope {
    std::int64_t saved = max_elements;
    explicit LimitScope(std::int64_t limit) { max_elements = limit; }
    ~LimitScope() { max_elements = saved; }
  } scope(element_limit);
  const auto found = table().find(node.op_type());
  if (found == table().end() || !onnx_attr::default_domain(node.domain()))
    reject(fmt::format("ONNX {} is not supported by the reference operators (they are: {})",
                       node.op_type(), onnx_reference_op_list()));
  Outputs outputs = found->second(node, opset, inputs);
  outputs.resize(static_cast<std::size_t>(node.output_size()));
  for (int k = 0; k < node.output_size(); ++k)
    if (node.output(k).empty()) outputs[static_cast<std::size_t>(k)].reset();
  return outputs;
}

}  // namespace mctsat::frontend
