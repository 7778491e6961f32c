// The mctsat graph JSON format (read and write). One object per node, in any order:
//
//   {"format": "mctsat-graph", "version": 2,
//    "nodes": [
//      {"name": "x", "op": "input", "attrs": {"shape": [64, 256]}, "dtype": "f32"},
//      {"name": "w", "op": "weight", "attrs": {"shape": [256, 256]}, "values": [...]},
//      {"name": "y", "op": "matmul", "inputs": ["x", "w"], "attrs": {"act": 2}},
//      {"name": "s", "op": "split", "inputs": ["y"], "attrs": {"axis": 1, "sizes": [128, 128]}},
//      {"name": "o", "op": "opaque", "type": "LRN", "inputs": [{"node": "s", "output": 1}],
//       "output_types": [{"dtype": "f32", "shape": [64, 128]}]}],
//    "outputs": ["s", {"name": "out", "tensor": "o"}]}
//
// Attributes are named as in the operator catalog. A tensor reference (an input, an output's
// "tensor") is a node's name, meaning its output 0, or {"node": name, "output": k}: any name
// (with ':', '/', spaces, any Unicode) is unambiguous. Version 1 files, whose references were
// "node" or "node:k", are still read ("node:k" means output k unless a node has that whole name);
// files are written as version 2. Numbers JSON cannot hold (an unbounded Clip's max, a -inf mask
// in a weight) are written as the strings "inf", "-inf" and "nan" and read back. Opaque
// nodes keep their type, output types and, as "payload", what their frontend needs to write them
// back (for ONNX, the node in protobuf text format).
#pragma once

#include <string>
#include <string_view>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// Parses and validates; errors carry file:line:col and the node name.
tensor::Graph graph_from_json(std::string_view text, const std::string& file = "<json>");
// Weight values are written when `with_values` and known.
std::string graph_to_json(const tensor::Graph& graph, bool with_values = true);

}  // namespace mctsat::frontend
