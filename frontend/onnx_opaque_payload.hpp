// The ONNX form an opaque operator keeps in tensor::OpaqueInfo::payload: a FunctionProto in
// protobuf text format (readable in JSON graphs and diffs) holding the model's opset imports, the
// Constant nodes of inputs embedded in the payload (empty tensors, which mctsat graphs cannot
// carry as weights), the node itself, last, and as the function's inputs the outer-scope names the
// node's subgraphs read (onnx_outer_names.hpp). The operator's inputs are the node's inputs that
// are not embedded, in order, then the outer-scope names that are not embedded, in order. The
// importer writes it; the exporter and the opaque evaluator read it. Internal to frontend/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

namespace mctsat::frontend {

class OpaquePayload {
 public:
  // Parses a payload; nullopt when it does not parse or has no node.
  static std::optional<OpaquePayload> parse(const std::string& text);
  // The payload of `node` in a model with `opset_imports`; `embedded` are Constant nodes
  // producing some of its inputs; `captured` the outer-scope names its subgraphs read.
  static std::string print(
      const onnx::NodeProto& node, std::vector<onnx::NodeProto> embedded,
      const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opset_imports,
      const std::vector<std::string>& captured = {});

  const onnx::NodeProto& node() const { return function_.node(function_.node_size() - 1); }
  // The Constant nodes embedded before the node.
  std::vector<const onnx::NodeProto*> embedded() const;
  // Whether input name `name` of node() is given (non-empty) and comes from the graph, i.e. is
  // one of the opaque operator's inputs, rather than from an embedded constant.
  bool graph_input(const std::string& name) const;
  // The outer-scope names the node's subgraphs read (embedded ones included).
  const google::protobuf::RepeatedPtrField<std::string>& captured() const {
    return function_.input();
  }
  // The version of the default domain (0 if absent).
  std::int64_t default_opset() const;
  const onnx::FunctionProto& function() const { return function_; }

 private:
  onnx::FunctionProto function_;
};

}  // namespace mctsat::frontend
