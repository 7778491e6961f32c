// Reading ONNX node attributes and optional inputs, axis arithmetic, and the default operator
// domain and its opset version, for the parts of the frontend that interpret NodeProtos (the
// importer, its operator mappings, constant folding, the exporter, the reference operators).
// Internal to frontend/.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <onnx/onnx_pb.h>

#include "tensor/tensor_value.hpp"

namespace mctsat::frontend::onnx_attr {

// The default ONNX operator set ("" or "ai.onnx").
inline bool default_domain(const std::string& domain) {
  return domain.empty() || domain == "ai.onnx";
}
// The version of the default domain among `imports` (0 when absent).
inline std::int64_t default_opset(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  for (const auto& import : imports)
    if (default_domain(import.domain())) return import.version();
  return 0;
}

inline const onnx::AttributeProto* find(const onnx::NodeProto& node, std::string_view name) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}
inline std::int64_t get_int(const onnx::NodeProto& node, std::string_view name,
                            std::int64_t fallback) {
  const auto* attr = find(node, name);
  return attr ? attr->i() : fallback;
}
inline double get_float(const onnx::NodeProto& node, std::string_view name, double fallback) {
  const auto* attr = find(node, name);
  return attr ? attr->f() : fallback;
}
inline std::string get_string(const onnx::NodeProto& node, std::string_view name,
                              std::string fallback) {
  const auto* attr = find(node, name);
  return attr ? attr->s() : fallback;
}
inline std::optional<std::vector<std::int64_t>> get_ints(const onnx::NodeProto& node,
                                                         std::string_view name) {
  const auto* attr = find(node, name);
  if (!attr) return std::nullopt;
  return std::vector<std::int64_t>(attr->ints().begin(), attr->ints().end());
}
// Input k is given (present and named).
inline bool has_input(const onnx::NodeProto& node, int k) {
  return node.input_size() > k && !node.input(k).empty();
}
// Output k is requested (present and named).
inline bool has_output(const onnx::NodeProto& node, int k) {
  return node.output_size() > k && !node.output(k).empty();
}
// A possibly negative axis made non-negative, or -1 when out of range.
inline std::int64_t normalize_axis(std::int64_t axis, std::int64_t rank) {
  if (axis < 0) axis += rank;
  return axis >= 0 && axis < rank ? axis : -1;
}
// Integer values of a tensor (held as doubles), saturated to the int64 range: INT64_MAX, the
// usual "to the end" bound of Slice, is 2^63 as a double, one past what int64 holds.
inline std::vector<std::int64_t> to_ints(const tensor::Tensor& value) {
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  std::vector<std::int64_t> out;
  out.reserve(value.data.size());
  for (double v : value.data) {
    if (v >= kLimit)
      out.push_back(std::numeric_limits<std::int64_t>::max());
    else if (v <= -kLimit || std::isnan(v))
      out.push_back(std::numeric_limits<std::int64_t>::min());
    else
      out.push_back(static_cast<std::int64_t>(v));
  }
  return out;
}

}  // namespace mctsat::frontend::onnx_attr
