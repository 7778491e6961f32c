// A tensor computation graph: a DAG of operator nodes with named inputs, weights (with or
// without values), multi-output operators and named graph outputs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/error.hpp"
#include "tensor/attr.hpp"
#include "tensor/op.hpp"
#include "tensor/tensor_type.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::tensor {

using NodeId = std::uint32_t;

// One output of one node.
struct TensorRef {
  NodeId node = 0;
  std::uint32_t output = 0;
  friend auto operator<=>(const TensorRef&, const TensorRef&) = default;
};

// What an opaque operator is, kept so that it can be written back unchanged.
struct OpaqueInfo {
  std::string type;     // e.g. the ONNX op_type "LRN"
  std::string payload;  // frontend-defined serialized form (e.g. an ONNX NodeProto); may be empty
};

struct Node {
  std::string name;
  Op op = Op::kInput;
  std::vector<TensorRef> inputs;
  Attrs attrs;
  std::vector<TensorType> outputs;           // filled by shape inference
  std::shared_ptr<const Tensor> value;       // weights: values if known
  std::shared_ptr<const OpaqueInfo> opaque;  // opaque operators only
  DType leaf_dtype = DType::kFloat32;        // element type of inputs and weights
};

// An error about one node, located at its name.
Error node_error(const Node& node, std::string message);

struct GraphOutput {
  std::string name;
  TensorRef tensor;
};

class Graph {
 public:
  // Adds a node as given (no checks; see infer_and_validate). Returns its id.
  NodeId add_node(Node node);
  void add_output(std::string name, TensorRef tensor);

  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Node>& nodes() { return nodes_; }
  const Node& node(NodeId id) const { return nodes_.at(id); }
  const std::vector<GraphOutput>& outputs() const { return outputs_; }
  std::size_t size() const { return nodes_.size(); }

  std::optional<NodeId> find(std::string_view name) const;
  const TensorType& type_of(TensorRef ref) const {
    return nodes_.at(ref.node).outputs.at(ref.output);
  }

  // Checks the whole graph and fills every node's output types: unique non-empty names, inputs
  // that exist, no cycle, every node accepted by its operator's shape function (recorded output
  // types must agree), weight values of the declared shape, outputs that exist. Throws
  // mctsat::Error naming the node.
  void infer_and_validate();

  // Nodes in an order where every node follows its inputs (Boost.Graph DFS). Throws mctsat::Error
  // naming a node on a cycle.
  std::vector<NodeId> topological_order() const;

  // Per node: true when its value depends only on weights (TASO pre-computes such subgraphs).
  std::vector<bool> weight_only() const;

  // Per node: true when a graph output depends on it. `order` is topological_order().
  std::vector<bool> needed_for_outputs(const std::vector<NodeId>& order) const;

 private:
  std::vector<Node> nodes_;
  std::vector<GraphOutput> outputs_;
};

std::string tensor_ref_string(const Graph& graph, TensorRef ref);  // "name" or "name:1"

// Whether `ref` is a weight with values, all zero (an attention's absent bias).
bool zero_weight(const Graph& graph, TensorRef ref);

}  // namespace mctsat::tensor
