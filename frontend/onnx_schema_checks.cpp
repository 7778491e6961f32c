// ONNX schema checks: attribute values and input element types (onnx_schema_checks.hpp).
#include "frontend/onnx_schema_checks.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <onnx/defs/data_type_utils.h>
#include <onnx/defs/schema.h>

#include "frontend/onnx_attributes.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {
namespace {

[[noreturn]] void fail(const onnx::NodeProto& node, const std::string& file,
                       const std::string& message) {
  SourceLocation where = SourceLocation::at(file);
  where.node = node.name().empty() ? node.op_type() : node.name();
  throw Error(fmt::format("{} {}", node.op_type(), message), where);
}

// String attributes whose values ONNX enumerates: (operator or "" for any, attribute, values).
struct Enumeration {
  std::string_view op, attribute;
  std::array<std::string_view, 4> values;
};
constexpr std::array kEnumerations = {
    Enumeration{"", "auto_pad", {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"}},
    Enumeration{"Pad", "mode", {"constant", "reflect", "edge", "wrap"}},
    Enumeration{"LSTM", "direction", {"forward", "reverse", "bidirectional", ""}},
    Enumeration{"GRU", "direction", {"forward", "reverse", "bidirectional", ""}},
    Enumeration{"RNN", "direction", {"forward", "reverse", "bidirectional", ""}},
};

void check_enumerations(const onnx::NodeProto& node, const onnx::AttributeProto& attribute,
                        const std::string& file) {
  for (const Enumeration& e : kEnumerations) {
    if (e.attribute != attribute.name() || (!e.op.empty() && e.op != node.op_type())) continue;
    const std::string& value = attribute.s();
    if (std::find(e.values.begin(), e.values.end(), value) != e.values.end() && !value.empty())
      return;
    std::vector<std::string_view> known;
    for (std::string_view v : e.values)
      if (!v.empty()) known.push_back(v);
    fail(node, file,
         fmt::format("attribute '{}' is '{}', not one of {}", attribute.name(), value,
                     fmt::join(known, ", ")));
  }
}

// What ONNX knows of the tensors of one graph: element type and, where static, dims (-1 unknown).
struct ValueType {
  std::int32_t elem_type = 0;
  std::optional<std::vector<std::int64_t>> dims;
};
using ValueTypes = std::map<std::string, ValueType>;

void record(ValueTypes& types, const onnx::ValueInfoProto& info) {
  if (!info.type().has_tensor_type() || info.type().tensor_type().elem_type() == 0) return;
  const auto& tensor = info.type().tensor_type();
  ValueType type{tensor.elem_type(), std::nullopt};
  if (tensor.has_shape()) {
    std::vector<std::int64_t> dims;
    for (const auto& d : tensor.shape().dim())
      dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    type.dims = std::move(dims);
  }
  types[info.name()] = std::move(type);
}

std::string type_string(std::int32_t elem_type) {
  onnx::TypeProto proto;
  proto.mutable_tensor_type()->set_elem_type(elem_type);
  try {
    return *onnx::Utils::DataTypeUtils::ToType(proto);
  } catch (const std::exception&) {
    return fmt::format("tensor(type {})", elem_type);
  }
}

// A Conv's group divides its output channels (W's first dim) and the input channels are
// group x W's second dim.
void check_conv_group(const onnx::NodeProto& node, const ValueTypes& types,
                      const std::string& file) {
  const std::int64_t group = onnx_attr::get_int(node, "group", 1);
  const auto dims = [&](int k) -> const std::vector<std::int64_t>* {
    if (node.input_size() <= k) return nullptr;
    const auto found = types.find(node.input(k));
    return found != types.end() && found->second.dims ? &*found->second.dims : nullptr;
  };
  const auto* x = dims(0);
  const auto* w = dims(1);
  if (w && w->size() >= 2 && (*w)[0] > 0 && (*w)[0] % group != 0)
    fail(node, file,
         fmt::format("attribute 'group' ({}) does not divide the {} output channels of its "
                     "weights",
                     group, (*w)[0]));
  if (x && w && x->size() >= 2 && w->size() >= 2 && (*x)[1] > 0 && (*w)[1] > 0 &&
      ((*x)[1] % group != 0 || (*x)[1] / group != (*w)[1]))
    fail(node, file,
         fmt::format("has {} input channels, but its weights take {} per group x {} groups",
                     (*x)[1], (*w)[1], group));
}

void check_types(const onnx::GraphProto& graph, std::int64_t opset, const std::string& file,
                 ValueTypes types) {
  for (const auto& info : graph.input()) record(types, info);
  for (const auto& info : graph.value_info()) record(types, info);
  for (const auto& info : graph.output()) record(types, info);
  for (const auto& weight : graph.initializer()) {
    ValueType type{weight.data_type(),
                   std::vector<std::int64_t>(weight.dims().begin(), weight.dims().end())};
    types[weight.name()] = std::move(type);
  }
  for (const auto& node : graph.node()) {
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) check_types(attribute.g(), opset, file, types);
      for (const auto& subgraph : attribute.graphs()) check_types(subgraph, opset, file, types);
    }
    if (!onnx_attr::default_domain(node.domain())) continue;
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
    if (!schema || schema->inputs().empty()) continue;
    const auto& formals = schema->inputs();
    std::map<std::string, std::pair<int, std::int32_t>> bound;  // type parameter -> (input, type)
    for (int i = 0; i < node.input_size(); ++i) {
      if (node.input(i).empty()) continue;
      const auto found = types.find(node.input(i));
      if (found == types.end()) continue;
      const bool past_end = static_cast<std::size_t>(i) >= formals.size();
      const auto& formal = formals[past_end ? formals.size() - 1 : static_cast<std::size_t>(i)];
      const bool variadic = formal.GetOption() == onnx::OpSchema::FormalParameterOption::Variadic;
      if (past_end && !variadic) break;  // too many inputs: the checker's to report
      const std::int32_t elem = found->second.elem_type;
      onnx::TypeProto proto;
      proto.mutable_tensor_type()->set_elem_type(elem);
      const auto& allowed = formal.GetTypes();
      bool known = true;
      try {
        if (!allowed.empty() && !allowed.count(onnx::Utils::DataTypeUtils::ToType(proto)))
          known = false;
      } catch (const std::exception&) {
        known = false;
      }
      if (!known)
        fail(node, file,
             fmt::format("input {} ('{}') is {}, which the operator does not take (opset {})", i,
                         node.input(i), type_string(elem), opset));
      if (variadic && !formal.GetIsHomogeneous()) continue;
      const auto [it, fresh] = bound.emplace(formal.GetTypeStr(), std::pair{i, elem});
      if (!fresh && it->second.second != elem)
        fail(node, file,
             fmt::format("input {} ('{}') is {}, but input {} is {}: both have type {}", i,
                         node.input(i), type_string(elem), it->second.first,
                         type_string(it->second.second), formal.GetTypeStr()));
    }
    if (node.op_type() == "Conv") check_conv_group(node, types, file);
  }
}

}  // namespace

void check_onnx_attributes(const onnx::GraphProto& graph, const std::string& file) {
  for (const auto& node : graph.node()) {
    for (const auto& attribute : node.attribute()) {
      const std::string& name = attribute.name();
      if (name == "strides" || name == "dilations" || name == "kernel_shape") {
        for (const auto v : attribute.ints())
          if (v < 1)
            fail(node, file, fmt::format("attribute '{}' must be positive, got {}", name, v));
      } else if (name == "pads") {
        for (const auto v : attribute.ints())
          if (v < 0)
            fail(node, file, fmt::format("attribute 'pads' must not be negative, got {}", v));
      } else if (name == "group" && attribute.i() < 1) {
        fail(node, file, fmt::format("attribute 'group' must be positive, got {}", attribute.i()));
      }
      if (attribute.type() == onnx::AttributeProto::STRING)
        check_enumerations(node, attribute, file);
      if (attribute.has_g()) check_onnx_attributes(attribute.g(), file);
      for (const auto& subgraph : attribute.graphs()) check_onnx_attributes(subgraph, file);
    }
  }
}

void check_onnx_types(const onnx::GraphProto& graph, std::int64_t opset, const std::string& file) {
  check_types(graph, opset, file, {});
}

}  // namespace mctsat::frontend
