// Concrete instantiation of the shape functions (int64_t dimensions) and signature checks.
#include "tensor/shape_inference.hpp"

#include <limits>

#include <fmt/format.h>

#include "tensor/shape_functions.hpp"

namespace mctsat::tensor {
namespace {

// The context of shape_functions.hpp for concrete dimensions: when `explain`, the first failed
// requirement's message is kept (otherwise no message is built).
struct ConcreteShapeContext {
  using Dim = std::int64_t;
  using Bool = bool;
  bool explain = true;
  std::string error;

  template <class Message>
  bool require(bool condition, Message&& message) {
    if (!condition && explain && error.empty()) error = message();
    return condition;
  }
  template <class Message>
  bool fail(Message&& message) {
    return require(false, std::forward<Message>(message));
  }
  static Dim lit(std::int64_t value) { return value; }
  static Dim select(bool condition, Dim a, Dim b) { return condition ? a : b; }
  static Dim div(Dim a, Dim b) { return b == 0 ? 0 : a / b; }
  static Dim mod(Dim a, Dim b) { return b == 0 ? 1 : a % b; }
  static Dim add(Dim a, Dim b) {
    Dim sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<Dim>::max() : sum;
  }
  static Dim mul(Dim a, Dim b) {
    Dim product = 0;
    return __builtin_mul_overflow(a, b, &product) ? std::numeric_limits<Dim>::max() : product;
  }
  static Dim pick(const std::vector<Dim>& values, Dim index) {
    return index >= 0 && static_cast<std::size_t>(index) < values.size()
               ? values[static_cast<std::size_t>(index)]
               : 0;
  }
  static std::string show(Dim value) { return std::to_string(value); }
};

// With its article, for "must be an integer".
// Output tensors are bounded so that element counts, byte counts and the saturating arithmetic
// above never overflow downstream.
bool within_size_limit(const Shape& shape) {
  std::int64_t elements = 1;
  for (auto d : shape) {
    elements = ConcreteShapeContext::mul(elements, d);
    if (elements > kMaxTensorElements) return false;
  }
  return true;
}

std::string kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::kTensor:
      return "a tensor";
    case ParamKind::kInt:
      return "an integer";
    case ParamKind::kInts:
      return "an integer list";
    default:
      return "a number";
  }
}

// Whether the inputs and attributes fit the signature; if not, says why in `error` (when given).
bool check_arity(const OpSignature& sig, std::size_t tensor_inputs, const Attrs& attrs,
                 std::string* error) {
  const std::size_t want = sig.tensor_count();
  if (sig.variadic() ? tensor_inputs < want : tensor_inputs != want) {
    if (error)
      *error =
          fmt::format("{} takes {}{} tensor input{}, got {}", sig.name,
                      sig.variadic() ? "at least " : "", want, want == 1 ? "" : "s", tensor_inputs);
    return false;
  }
  if (attrs.size() != sig.attr_count()) {
    if (error)
      *error = fmt::format("{} takes {} attribute{}, got {}", sig.name, sig.attr_count(),
                           sig.attr_count() == 1 ? "" : "s", attrs.size());
    return false;
  }
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    const Param& param = sig.attr(i);
    if (attr_kind(attrs[i]) != param.kind) {
      if (error)
        *error = fmt::format("{} attribute {} must be {}, got {} {}", sig.name, param.name,
                             kind_name(param.kind), kind_name(attr_kind(attrs[i])),
                             attr_string(attrs[i]));
      return false;
    }
  }
  return true;
}

// infer_types and infer_types_into: fills `outputs` (reusing its buffers) and returns true, or
// returns false with the reason in `error` when given (building no message otherwise). The
// scratch buffers are per thread, so that the e-graph's analysis, which infers the types of
// every e-node a rewrite proposes, allocates little.
bool infer(Op op, std::span<const TensorType> inputs, const Attrs& attrs, DType leaf_dtype,
           std::vector<TensorType>& outputs, std::string* error) {
  const OpSignature& sig = signature(op);
  if (!check_arity(sig, inputs.size(), attrs, error)) return false;

  thread_local std::vector<std::vector<std::int64_t>> attr_dims;
  attr_dims.resize(attrs.size());
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    switch (attr_kind(attrs[i])) {
      case ParamKind::kInt:
        attr_dims[i].assign(1, attr_int(attrs[i]));
        break;
      case ParamKind::kInts:
        attr_dims[i].assign(attr_ints(attrs[i]).begin(), attr_ints(attrs[i]).end());
        break;
      default:
        attr_dims[i].clear();
    }
  }

  ConcreteShapeContext ctx;
  ctx.explain = error != nullptr;
  if (op == Op::kOpaque) {
    // No shape function: the outputs are recorded, but the id must still be in range.
    if (!shape_detail::check_int_attr_ranges(
            ctx, sig, std::span<const std::vector<std::int64_t>>(attr_dims))) {
      if (error) *error = fmt::format("{}: {}", sig.name, ctx.error);
      return false;
    }
    std::string decode_error;
    if (!decode_output_types(attr_ints(attrs[1]), outputs, decode_error)) {
      outputs.clear();
      if (error) *error = std::move(decode_error);
      return false;
    }
    return true;
  }

  thread_local std::vector<Shape> input_shapes;
  thread_local std::vector<Shape> shapes;
  input_shapes.resize(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    input_shapes[i].assign(inputs[i].shape.begin(), inputs[i].shape.end());
  shapes.clear();
  if (!infer_output_shapes(ctx, op, std::span<const Shape>(input_shapes),
                           std::span<const std::vector<std::int64_t>>(attr_dims), shapes)) {
    if (error) *error = fmt::format("{}: {}", sig.name, ctx.error);
    return false;
  }
  for (const Shape& shape : shapes) {
    if (!within_size_limit(shape)) {
      if (error)
        *error = fmt::format("{}: the output {} has more than 2^40 elements", sig.name,
                             shape_string(shape));
      return false;
    }
  }
  const DType dtype = inputs.empty() ? leaf_dtype : inputs[0].dtype;
  outputs.resize(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    outputs[i].shape.assign(shapes[i].begin(), shapes[i].end());
    outputs[i].dtype = dtype;
  }
  return true;
}

}  // namespace

std::vector<std::int64_t> encode_output_types(std::span<const TensorType> types) {
  std::vector<std::int64_t> encoded;
  for (const auto& type : types) {
    encoded.push_back(static_cast<std::int64_t>(type.dtype));
    encoded.push_back(static_cast<std::int64_t>(type.shape.size()));
    encoded.insert(encoded.end(), type.shape.begin(), type.shape.end());
  }
  return encoded;
}

bool decode_output_types(std::span<const std::int64_t> encoded, std::vector<TensorType>& types,
                         std::string& error) {
  types.clear();
  std::size_t i = 0;
  while (i < encoded.size()) {
    if (i + 2 > encoded.size() || encoded[i] < 0 ||
        encoded[i] > static_cast<std::int64_t>(DType::kBool) || encoded[i + 1] < 0 ||
        i + 2 + static_cast<std::size_t>(encoded[i + 1]) > encoded.size()) {
      error =
          fmt::format("output_shapes is malformed at entry {} (expected dtype, rank, dims...)", i);
      return false;
    }
    TensorType type;
    type.dtype = static_cast<DType>(encoded[i]);
    type.shape.assign(encoded.begin() + static_cast<std::ptrdiff_t>(i + 2),
                      encoded.begin() + static_cast<std::ptrdiff_t>(
                                            i + 2 + static_cast<std::size_t>(encoded[i + 1])));
    for (auto d : type.shape) {
      if (d <= 0) {
        error = fmt::format("output_shapes holds a non-positive dimension {}", d);
        return false;
      }
    }
    if (!within_size_limit(type.shape)) {
      error = fmt::format("output_shapes holds a tensor {} of more than 2^40 elements",
                          shape_string(type.shape));
      return false;
    }
    types.push_back(std::move(type));
    i += 2 + static_cast<std::size_t>(encoded[i + 1]);
  }
  if (types.empty()) {
    error = "output_shapes describes no output";
    return false;
  }
  return true;
}

std::string shape_error(const Shape& shape) {
  for (auto d : shape)
    if (d <= 0) return fmt::format("the dimension {} is not positive", d);
  if (!within_size_limit(shape))
    return fmt::format("the shape {} has more than 2^40 elements", shape_string(shape));
  return {};
}

InferResult infer_types(Op op, std::span<const TensorType> inputs, const Attrs& attrs,
                        DType leaf_dtype) {
  InferResult result;
  if (!infer(op, inputs, attrs, leaf_dtype, result.outputs, &result.error)) result.outputs.clear();
  return result;
}

bool infer_types_into(Op op, std::span<const TensorType> inputs, const Attrs& attrs,
                      DType leaf_dtype, std::vector<TensorType>& outputs) {
  return infer(op, inputs, attrs, leaf_dtype, outputs, nullptr);
}

}  // namespace mctsat::tensor
