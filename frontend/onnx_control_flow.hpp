// ONNX control flow evaluated on concrete tensors: If (the branch the condition takes) and Loop
// (a trip count and/or a condition, loop-carried values, scan outputs stacked along a new first
// axis), their subgraphs run node by node with evaluate_onnx_node, reading the enclosing scopes'
// values by name. The opaque evaluator runs opaque If and Loop nodes with it, so that
// `--check` and the executor's host steps cover models that keep them. Internal to frontend/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "frontend/onnx_reference_ops.hpp"

namespace mctsat::frontend {

// True for the default-domain operators evaluate_control_flow runs (If, Loop).
bool onnx_control_flow_op(const onnx::NodeProto& node);

// Evaluates an If or Loop `node` at `opset` on `inputs` (one per node input, nullopt where
// omitted); `outer` holds the values of the outer-scope names its subgraphs read. Returns one
// value per node output. Throws mctsat::Error (without a location) for malformed subgraphs, a
// subgraph reading a name no scope defines, an operator evaluate_onnx_node does not know, a Loop
// running more than `max_iterations` times, and results of more than `element_limit` elements.
std::vector<std::optional<OnnxValue>> evaluate_control_flow(
    const onnx::NodeProto& node, std::int64_t opset,
    std::span<const std::optional<OnnxValue>> inputs, const std::map<std::string, OnnxValue>& outer,
    std::int64_t element_limit = kDefaultMaxElements, std::int64_t max_iterations = 1 << 20);

}  // namespace mctsat::frontend
