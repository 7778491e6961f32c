// TensorAnalysis: e-class data from e-nodes through the concrete shape inference, and its merge.
#include "tensor/tensor_analysis.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/error.hpp"
#include "support/stable_hash.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {
namespace {

const TensorTables kEmptyTables;

bool fill_tensor(const TensorType& type, TensorData& out) {
  if (type.shape.size() > kMaxRank) return false;
  out.kind = ValueKind::kTensor;
  out.dtype = type.dtype;
  out.rank = static_cast<std::uint8_t>(type.shape.size());
  std::copy(type.shape.begin(), type.shape.end(), out.dims.begin());
  return true;
}

bool valid_index(std::int64_t index, std::size_t size) {
  return index >= 0 && static_cast<std::uint64_t>(index) < size;
}

// Whether two tuples describe the same outputs.
bool same_tuple(const TensorAnalysis& analysis, const TensorData& a, const TensorData& b) {
  if (a.outputs != b.outputs) return false;
  for (std::size_t i = 0; i < a.outputs; ++i) {
    if (analysis.output_type(a, i) != analysis.output_type(b, i)) return false;
  }
  return true;
}

// Whether two classes' data may be united: the same kind and the same value or type.
bool same_value(const TensorAnalysis& analysis, const TensorData& a, const TensorData& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ValueKind::kNone:
      return true;
    case ValueKind::kTensor:
      return a.dtype == b.dtype && a.rank == b.rank && a.dims == b.dims;
    case ValueKind::kTuple:
      return same_tuple(analysis, a, b);
    case ValueKind::kInt:
    case ValueKind::kFloat:
      return a.word == b.word;
    case ValueKind::kInts:
      return a.rank == b.rank && a.dims == b.dims;
  }
  return false;
}

}  // namespace

std::string_view value_kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNone:
      return "none";
    case ValueKind::kTensor:
      return "tensor";
    case ValueKind::kTuple:
      return "tuple";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kInts:
      return "ints";
    case ValueKind::kFloat:
      return "float";
  }
  return "?";
}

std::string data_string(const TensorData& data) {
  switch (data.kind) {
    case ValueKind::kTensor: {
      std::string text = type_string(data.tensor_type());
      if (data.weight_only) text += " weight-only";
      if (data.has_split_hint())
        text += fmt::format(" hint({}, {})", data.hint_axis, data.split_hint_position());
      return text;
    }
    case ValueKind::kTuple:
      return fmt::format("tuple of {}{}", data.outputs, data.weight_only ? " weight-only" : "");
    case ValueKind::kInt:
      return fmt::format("int {}", data.int_value());
    case ValueKind::kInts:
      return fmt::format("ints [{}]", fmt::join(data.ints(), ","));
    case ValueKind::kFloat:
      return fmt::format("float {}", data.float_value());
    case ValueKind::kNone:
      break;
  }
  return "none";
}

TensorAnalysis::TensorAnalysis(std::shared_ptr<const TensorTables> tables)
    : tables_(std::move(tables)) {}

const TensorTables& TensorAnalysis::tables() const {
  return tables_ ? *tables_ : kEmptyTables;
}

TensorType TensorAnalysis::output_type(const TensorData& data, std::size_t output) const {
  if (data.kind == ValueKind::kTensor) {
    MCTSAT_ASSERT(output == 0);
    return data.tensor_type();
  }
  MCTSAT_ASSERT(data.kind == ValueKind::kTuple && output < data.outputs);
  if (data.opaque_tuple)
    return tables().opaque.at(static_cast<std::size_t>(data.word)).outputs.at(output);
  TensorType type{Shape(data.dims.begin(), data.dims.begin() + data.rank), data.dtype};
  type.shape[data.split_axis] = data.sizes[output];
  return type;
}

std::vector<TensorType> TensorAnalysis::output_types(const TensorData& data) const {
  std::vector<TensorType> types;
  if (data.kind == ValueKind::kTensor) types.push_back(data.tensor_type());
  if (data.kind == ValueKind::kTuple) {
    for (std::size_t i = 0; i < data.outputs; ++i) types.push_back(output_type(data, i));
  }
  return types;
}

bool TensorAnalysis::operands(const egraph::ENodeRef& node, std::span<const Data* const> children,
                              std::vector<TensorType>& inputs, Attrs& attrs) const {
  inputs.clear();
  attrs.clear();
  const auto op = tensor_op(node.op);
  if (!op) return false;
  if (*op == Op::kOpaque) {
    if (!valid_index(node.payload, tables().opaque.size())) return false;
    const Node& original = tables().opaque[static_cast<std::size_t>(node.payload)];
    if (children.size() != original.inputs.size()) return false;
    for (const Data* child : children) {
      if (!child->is_tensor()) return false;
      inputs.push_back(child->tensor_type());
    }
    attrs = original.attrs;
    return true;
  }
  const auto params = signature(*op).params;
  const bool variadic = signature(*op).variadic();
  if (variadic ? children.size() < params.size() : children.size() != params.size()) return false;
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Param& param = params[std::min(i, params.size() - 1)];
    const Data& child = *children[i];
    switch (param.kind) {
      case ParamKind::kTensor:
        if (child.is_tensor()) {
          inputs.push_back(child.tensor_type());
        } else if (*op == Op::kNoop && child.kind == ValueKind::kNone) {
          inputs.emplace_back();  // noop joins data-less values too
        } else {
          return false;
        }
        break;
      case ParamKind::kInt:
        if (child.kind != ValueKind::kInt) return false;
        attrs.emplace_back(child.int_value());
        break;
      case ParamKind::kInts:
        if (child.kind != ValueKind::kInts) return false;
        attrs.emplace_back(std::vector<std::int64_t>(child.ints().begin(), child.ints().end()));
        break;
      case ParamKind::kFloat:
        if (child.kind != ValueKind::kFloat) return false;
        attrs.emplace_back(child.float_value());
        break;
    }
  }
  return true;
}

bool TensorAnalysis::make_literal_or_proj(const egraph::ENodeRef& node,
                                          std::span<const Data* const> children, Data& out) const {
  switch (node.op) {
    case kIntOp:
    case kFloatOp:
      if (!children.empty()) return false;
      out.kind = node.op == kIntOp ? ValueKind::kInt : ValueKind::kFloat;
      out.word = node.payload;
      return true;
    case kIntsOp:
      if (children.size() > kMaxListLength || node.payload != 0) return false;
      out.kind = ValueKind::kInts;
      out.rank = static_cast<std::uint8_t>(children.size());
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (children[i]->kind != ValueKind::kInt) return false;
        out.dims[i] = children[i]->int_value();
      }
      return true;
    case kProjOp: {
      if (children.size() != 1 || children[0]->kind != ValueKind::kTuple) return false;
      const Data& tuple = *children[0];
      if (!valid_index(node.payload, tuple.outputs)) return false;
      if (!fill_tensor(output_type(tuple, static_cast<std::size_t>(node.payload)), out))
        return false;
      out.weight_only = tuple.weight_only;
      return true;
    }
    default:
      return false;
  }
}

bool TensorAnalysis::make(const egraph::ENodeRef& node, std::span<const Data* const> children,
                          Data& out) const {
  out = Data{};
  const auto op = tensor_op(node.op);
  if (!op) return make_literal_or_proj(node, children, out);

  // Scratch buffers reused across calls (make may run on several threads).
  thread_local std::vector<TensorType> inputs, outputs;
  thread_local Attrs attrs;
  if (!operands(node, children, inputs, attrs)) return false;
  const bool leaf = *op == Op::kInput || *op == Op::kWeight;
  DType leaf_dtype = DType::kFloat32;
  if (leaf) {
    if (!valid_index(node.payload, tables().leaves.size())) return false;
    const LeafEntry& entry = tables().leaves[static_cast<std::size_t>(node.payload)];
    if (entry.op != *op || attr_ints(attrs[0]) != entry.type.shape) return false;
    leaf_dtype = entry.type.dtype;
  }
  if (!infer_types_into(*op, inputs, attrs, leaf_dtype, outputs)) return false;

  if (*op == Op::kNoop) return true;  // a value without data
  if (*op == Op::kSplit || (*op == Op::kOpaque && outputs.size() > 1)) {
    out.kind = ValueKind::kTuple;
    out.outputs = static_cast<std::uint8_t>(outputs.size());
    out.dtype = outputs[0].dtype;
    if (*op == Op::kOpaque) {
      if (outputs.size() > 255) return false;
      for (const TensorType& type : outputs) {
        if (type.shape.size() > kMaxRank) return false;
      }
      out.opaque_tuple = true;
      out.word = node.payload;
    } else {
      // attrs = {axis, sizes}; sizes has at most kMaxListLength entries (an `ints` literal).
      const Shape& shape = inputs[0].shape;
      if (shape.size() > kMaxRank) return false;
      out.rank = static_cast<std::uint8_t>(shape.size());
      std::copy(shape.begin(), shape.end(), out.dims.begin());
      out.split_axis = static_cast<std::uint8_t>(attr_int(attrs[0]));
      const auto& sizes = attr_ints(attrs[1]);
      std::copy(sizes.begin(), sizes.end(), out.sizes.begin());
    }
  } else {
    MCTSAT_ASSERT(outputs.size() == 1);
    if (!fill_tensor(outputs[0], out)) return false;
  }

  if (*op == Op::kWeight) {
    out.weight_only = true;
  } else if (!leaf && *op != Op::kOpaque) {
    out.weight_only = !inputs.empty();
    for (const Data* child : children) {
      if (child->is_tensor()) out.weight_only = out.weight_only && child->weight_only;
    }
  }
  if (*op == Op::kConcat && inputs.size() == 2) {
    // TENSAT's split hint: where the two inputs meet, for a later split at that boundary.
    const auto axis = static_cast<std::size_t>(attr_int(attrs[0]));
    out.hint_axis = static_cast<std::int8_t>(axis);
    out.word = inputs[0].shape[axis];
  }
  return true;
}

bool TensorAnalysis::can_merge(const Data& a, const Data& b) const {
  return same_value(*this, a, b);
}

std::uint64_t TensorAnalysis::hash(const Data& d) const {
  std::uint64_t h =
      hash_combine(static_cast<std::uint64_t>(d.kind), static_cast<std::uint64_t>(d.dtype));
  h = hash_combine(h, std::uint64_t{d.rank} | std::uint64_t{d.outputs} << 8 |
                          std::uint64_t{d.weight_only} << 16 |
                          std::uint64_t{static_cast<std::uint8_t>(d.hint_axis)} << 24 |
                          std::uint64_t{d.split_axis} << 32 | std::uint64_t{d.opaque_tuple} << 40);
  h = hash_combine(h, static_cast<std::uint64_t>(d.word));
  for (std::int64_t v : d.dims) h = hash_combine(h, static_cast<std::uint64_t>(v));
  for (std::int64_t v : d.sizes) h = hash_combine(h, static_cast<std::uint64_t>(v));
  return h;
}

egraph::MergeResult TensorAnalysis::merge(Data& into, const Data& from) const {
  if (!same_value(*this, into, from)) {
    fmt::print(stderr, "internal error: merging e-classes of different values: {} and {}\n",
               data_string(into), data_string(from));
    MCTSAT_ASSERT(false && "merged e-classes hold different values (an unsound rewrite)");
  }
  Data merged = into;
  merged.weight_only = into.weight_only || from.weight_only;
  if (!into.has_split_hint() && from.has_split_hint()) {
    merged.hint_axis = from.hint_axis;
    merged.word = from.word;
  }
  egraph::MergeResult result;
  result.into_changed = !(merged == into);
  result.from_changed = !(merged == from);
  into = merged;
  return result;
}

}  // namespace mctsat::tensor
