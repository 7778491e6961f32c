// Importing ONNX models (ModelProto files, opsets 7 to 17) into mctsat graphs.
//
// The model is checked with onnx::checker, brought to opset 13 or later with ONNX's version
// converter when older, and its shapes inferred with ONNX's shape inference. Operators the catalog
// covers are mapped onto it (onnx_operators.cpp lists each mapping and its conditions); every other
// operator, and a covered one in a configuration the catalog cannot express (dilations, padding
// that is not SAME, SAME_LOWER or VALID, integer arithmetic, ...), becomes an opaque node that
// keeps its ONNX node and output types, so any model with static shapes loads and is written back
// unchanged where mctsat cannot rewrite it. Initializers and Constant nodes become weights with
// values; subgraphs computable from them alone (a transposed Gemm operand, a scaled bias) are
// folded. The result is brought to canonical forms (canonical_forms.hpp: batch normalization
// folded into convolutions, the activations mctsat's exporter wrote for fused ones fused again),
// and window operators get SAME padding wherever it
// reads the same cells as the padding written. Graph inputs keep their names (an input the
// exporter marked as a weight without values becomes that weight again); graph outputs keep
// theirs; a node is named after its ONNX name, or its first output when it has none.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/graph.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::frontend {

// Parses a serialized ModelProto; `file` names it in errors. Throws mctsat::Error naming the file
// and the node for a corrupt file, a model the checker rejects, an unsupported opset, a dynamic
// input shape, a missing tensor, an output type shape inference cannot determine, ...
// `input_shapes` fixes the shapes of graph inputs by name (e.g. a dynamic batch dimension) before
// shape inference; naming no graph input, or a shape of another rank, is an error.
// `input_values` makes graph inputs constants (initializers, then folded like any constant: an If
// on a sample rate input takes its branch); the input's shape (fixed, after `input_shapes`) must
// hold as many elements as values are given.
tensor::Graph graph_from_onnx(
    std::string_view bytes, const std::string& file = "<onnx>",
    const std::map<std::string, std::vector<std::int64_t>>& input_shapes = {},
    const std::map<std::string, std::vector<double>>& input_values = {});

// Parses a serialized TensorProto (the test_data_set_*/input_*.pb files of ONNX's test data);
// `name` (if given) receives the tensor's name.
tensor::Tensor tensor_from_onnx(std::string_view bytes, const std::string& file = "<onnx>",
                                std::string* name = nullptr);

}  // namespace mctsat::frontend
