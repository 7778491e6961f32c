// ONNX operators evaluated on concrete tensors, for the operators mctsat's catalog does not
// cover. The importer folds shape computations with them (Shape -> Gather/Slice -> Concat ->
// Reshape chains evaluated on static shapes), and the reference interpreter runs opaque operators
// through them (frontend/onnx_opaque_evaluator.hpp). Semantics follow the ONNX operator
// specification; values are float64 with an element type alongside. Internal to frontend/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "tensor/tensor_type.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::frontend {

struct OnnxValue {
  tensor::Tensor value;
  tensor::DType dtype = tensor::DType::kFloat32;
};

// True when evaluate_onnx_node knows `op_type` (default domain).
bool onnx_reference_op_supported(const std::string& op_type);
// The supported op_types, comma-separated, for messages.
std::string onnx_reference_op_list();

// Evaluates `node` (default domain, at opset `opset`) on `inputs`, one per input of the node
// (nullopt for an omitted optional input), and returns one value per output (nullopt for an
// output the node does not request). Throws mctsat::Error (without a location) for inputs the
// operator does not accept (wrong rank, index out of range, a result of more than
// `element_limit` elements, checked before it is allocated)
// and for what is not implemented: an unknown operator, or a use of a known one such as Resize's
// cubic mode or a 3-D ConvTranspose, whose message then contains "not supported".
constexpr std::int64_t kDefaultMaxElements = std::int64_t{1} << 28;
std::vector<std::optional<OnnxValue>> evaluate_onnx_node(
    const onnx::NodeProto& node, std::int64_t opset,
    std::span<const std::optional<OnnxValue>> inputs,
    std::int64_t element_limit = kDefaultMaxElements);

}  // namespace mctsat::frontend
