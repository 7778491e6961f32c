// The outer-scope names of ONNX subgraphs (If branches, Loop and Scan bodies): the values a node's
// subgraphs read without defining them (their own inputs, initializers and node outputs define
// names, nested subgraphs included), which ONNX lets them take from the enclosing graphs. The
// importer makes them inputs of the opaque operator that holds the node, so that they stay in the
// graph, and the exporter renames them to the names the enclosing graph gives those values.
// Internal to frontend/.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace mctsat::frontend {

// The outer-scope names `node`'s subgraphs read, each once, in order of first reading (depth
// first, node by node). Empty for a node without subgraph attributes. Linear in the subgraphs'
// size.
std::vector<std::string> outer_names(const onnx::NodeProto& node);

// Renames, in `node`'s subgraphs (recursively), every read of an outer-scope name found in
// `renames`. Names a subgraph defines are not renamed (ONNX names are unique across scopes, so an
// outer name is never redefined inside; a malformed model that does so keeps its inner reads).
void rename_outer_names(onnx::NodeProto& node, const std::map<std::string, std::string>& renames);

// Every name `node`'s subgraphs define (inputs, initializers, node outputs, recursively): the
// names an enclosing graph must not reuse.
void add_subgraph_definitions(const onnx::NodeProto& node, std::vector<std::string>& names);

}  // namespace mctsat::frontend
