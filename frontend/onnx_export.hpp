// Exporting mctsat graphs as ONNX models.
//
// Weight-only subgraphs over weights with values are folded first (weight_folding.hpp), so the
// kernels rewrites create (concatenated, enlarged, merged) are written as initializers computed
// from the original weights. Each catalog operator becomes its ONNX operator at opset 13 (or the
// newer opset of imported opaque operators): conv2d -> Conv with explicit pads (+ the fused
// activation as its own node), poolavg -> AveragePool with count_include_pad, smul -> Mul,
// enlarge of a weight without values -> Pad, ... Opaque operators are written back as they were
// imported (their ONNX node, with inputs and outputs renamed); opaque operators of other
// frontends, which carry no ONNX node, go to the domain "ai.mctsat.opaque". Weights without
// values become graph inputs. Graph inputs and outputs keep their names and types. The result
// passes onnx::checker.
#pragma once

#include <string>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// The serialized ModelProto. Throws mctsat::Error naming the node for what ONNX cannot express
// (merge of a kernel without values, an opaque operator whose definition changed between its
// opset and the export opset, a noop).
std::string graph_to_onnx(const tensor::Graph& graph, const std::string& name = "mctsat");

}  // namespace mctsat::frontend
