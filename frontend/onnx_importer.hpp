// The ONNX importer's state, shared by its graph-level half (onnx_import.cpp: checking, shape
// inference, inputs, weights, opaque nodes, outputs) and its operator half (onnx_operators.cpp:
// one mapping per ONNX operator the catalog covers). Internal to frontend/.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

class OnnxImporter {
 public:
  OnnxImporter(onnx::ModelProto model, std::string file);
  tensor::Graph run();

  // --- for the operator mappings ---
  // The node a mapping is working on, for messages.
  const onnx::NodeProto& current() const { return *current_; }
  std::int64_t opset() const { return opset_; }
  // The tensor an ONNX name refers to (a weight is created on first use of an initializer).
  tensor::TensorRef tensor(const std::string& onnx_name);
  // The value of an initializer (Constant nodes are initializers after folding), if the name is
  // one.
  std::shared_ptr<const tensor::Tensor> constant(const std::string& onnx_name) const;
  // The node that produces an ONNX tensor (nullptr for graph inputs and initializers), and how many
  // node inputs and graph outputs read it.
  const onnx::NodeProto* producer(const std::string& onnx_name) const;
  int readers(const std::string& onnx_name) const;
  // The type ONNX's shape inference gives an ONNX tensor name, if static.
  std::optional<tensor::TensorType> onnx_type(const std::string& onnx_name) const;
  const tensor::TensorType& type_of(tensor::TensorRef ref) const { return graph_.type_of(ref); }
  // Adds an operator (shapes inferred; an error names the node). An empty `name` gets a fresh one
  // derived from the current node's.
  std::vector<tensor::TensorRef> add(tensor::Op op, std::vector<tensor::TensorRef> inputs,
                                     tensor::Attrs attrs, std::string name = {});
  tensor::TensorRef add1(tensor::Op op, std::vector<tensor::TensorRef> inputs, tensor::Attrs attrs,
                         std::string name = {});
  // A new weight with values; empty `name` as above.
  tensor::TensorRef add_weight(tensor::Tensor value, tensor::DType dtype, std::string name = {});
  // Makes ONNX tensor `onnx_name` refer to `ref`.
  void bind(const std::string& onnx_name, tensor::TensorRef ref);
  // The name the current node's graph node gets (the last node of a mapping takes it).
  const std::string& node_name() const { return node_name_; }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  void check_and_infer();
  void read_types();
  void add_inputs();
  void import_node(const onnx::NodeProto& node);
  // Defined in onnx_operators.cpp: maps the current node, or returns false (having added nothing
  // but weights) when the catalog cannot express it; `reason` then says why.
  bool map_node(const onnx::NodeProto& node, std::string& reason);
  void add_opaque(const onnx::NodeProto& node);
  void check_outputs(const onnx::NodeProto& node) const;
  std::string unique_name(const std::string& base);
  tensor::NodeId add_node(tensor::Node node);

  onnx::ModelProto model_;
  std::string file_;
  std::int64_t opset_ = 0;
  tensor::Graph graph_;
  std::map<std::string, tensor::TensorType> onnx_types_;
  std::map<std::string, const onnx::TensorProto*> initializers_;
  std::map<std::string, tensor::TensorRef> tensors_;
  std::set<std::string> names_;
  std::set<std::string> fused_activations_;
  std::map<std::string, const onnx::NodeProto*> producers_;
  std::map<std::string, int> readers_;  // graph nodes of activations marked as fused
  const onnx::NodeProto* current_ = nullptr;
  std::string node_name_;
  std::int64_t next_opaque_id_ = 0;
};

}  // namespace mctsat::frontend
