// The doc_strings mctsat's ONNX exporter writes so that its importer reads an exported model back
// as the graph it was: ONNX has no place for these catalog notions, and other tools ignore
// doc_strings. Internal to frontend/.
#pragma once

namespace mctsat::frontend::onnx_markers {

// On a graph input that stands for a weight without values (written as an input because it has
// none); read back as that weight, so weight-only subgraphs stay weight-only (folded, costing
// nothing).
inline constexpr const char* kWeightWithoutValues = "mctsat: weight without values";
// On the Relu, Sigmoid or Tanh written for a conv2d's or matmul's fused activation; read back as
// the fused activation again.
inline constexpr const char* kFusedActivation = "mctsat: fused activation";

}  // namespace mctsat::frontend::onnx_markers
