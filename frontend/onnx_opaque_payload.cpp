// Opaque operator payloads (see onnx_opaque_payload.hpp).
#include "frontend/onnx_opaque_payload.hpp"

#include "frontend/onnx_attributes.hpp"

#include <google/protobuf/text_format.h>

namespace mctsat::frontend {

std::optional<OpaquePayload> OpaquePayload::parse(const std::string& text) {
  OpaquePayload payload;
  if (!google::protobuf::TextFormat::ParseFromString(text, &payload.function_) ||
      payload.function_.node_size() == 0)
    return std::nullopt;
  for (const auto* constant : payload.embedded())
    if (constant->op_type() != "Constant" || constant->output_size() != 1) return std::nullopt;
  return payload;
}

std::string OpaquePayload::print(
    const onnx::NodeProto& node, std::vector<onnx::NodeProto> embedded,
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opset_imports,
    const std::vector<std::string>& captured) {
  onnx::FunctionProto function;
  for (const auto& name : captured) function.add_input(name);
  for (auto& constant : embedded) *function.add_node() = std::move(constant);
  *function.add_node() = node;
  *function.mutable_opset_import() = opset_imports;
  std::string text;
  google::protobuf::TextFormat::PrintToString(function, &text);
  return text;
}

std::vector<const onnx::NodeProto*> OpaquePayload::embedded() const {
  std::vector<const onnx::NodeProto*> constants;
  for (int k = 0; k + 1 < function_.node_size(); ++k) constants.push_back(&function_.node(k));
  return constants;
}

bool OpaquePayload::graph_input(const std::string& name) const {
  if (name.empty()) return false;
  for (const auto* constant : embedded())
    if (constant->output(0) == name) return false;
  return true;
}

std::int64_t OpaquePayload::default_opset() const {
  return onnx_attr::default_opset(function_.opset_import());
}

}  // namespace mctsat::frontend
