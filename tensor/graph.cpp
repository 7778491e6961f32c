// Graph storage, validation, topological order (Boost.Graph) and the weight-only analysis.
#include "tensor/graph.hpp"

#include <algorithm>

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

#include "support/error.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {
namespace {

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<BoostGraph>::vertex_descriptor;
using Edge = boost::graph_traits<BoostGraph>::edge_descriptor;

// Records the finishing order (reverse topological order) and the first back edge (a cycle).
class TopologicalVisitor : public boost::default_dfs_visitor {
 public:
  TopologicalVisitor(std::vector<NodeId>& finished, std::optional<NodeId>& on_cycle)
      : finished_(finished), on_cycle_(on_cycle) {}
  void back_edge(Edge edge, const BoostGraph& graph) const {
    if (!on_cycle_) on_cycle_ = static_cast<NodeId>(boost::target(edge, graph));
  }
  void finish_vertex(Vertex vertex, const BoostGraph&) const {
    finished_.push_back(static_cast<NodeId>(vertex));
  }

 private:
  std::vector<NodeId>& finished_;
  std::optional<NodeId>& on_cycle_;
};

// Says which recorded output type differs from the inferred one (or that their counts differ).
std::string output_mismatch(const std::vector<TensorType>& recorded,
                            const std::vector<TensorType>& inferred) {
  if (recorded.size() != inferred.size())
    return fmt::format("{} output type(s) recorded, {} inferred", recorded.size(), inferred.size());
  std::size_t k = 0;
  while (k < recorded.size() && recorded[k] == inferred[k]) ++k;
  return fmt::format("recorded type {} of output {} disagrees with the inferred {}",
                     type_string(recorded[k]), k, type_string(inferred[k]));
}

}  // namespace

NodeId Graph::add_node(Node node) {
  nodes_.push_back(std::move(node));
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Graph::add_output(std::string name, TensorRef tensor) {
  outputs_.push_back({std::move(name), tensor});
}

std::optional<NodeId> Graph::find(std::string_view name) const {
  for (NodeId id = 0; id < nodes_.size(); ++id) {
    if (nodes_[id].name == name) return id;
  }
  return std::nullopt;
}

std::vector<NodeId> Graph::topological_order() const {
  BoostGraph boost_graph(nodes_.size());
  for (NodeId id = 0; id < nodes_.size(); ++id) {
    // Edges point from a node to its inputs, so that inputs finish (and are emitted) first.
    for (const TensorRef& in : nodes_[id].inputs) {
      MCTSAT_ASSERT(in.node < nodes_.size());
      boost::add_edge(id, in.node, boost_graph);
    }
  }
  std::vector<NodeId> order;
  order.reserve(nodes_.size());
  std::optional<NodeId> on_cycle;
  boost::depth_first_search(boost_graph, boost::visitor(TopologicalVisitor(order, on_cycle)));
  if (on_cycle) throw node_error(nodes_[*on_cycle], "the graph has a cycle through this node");
  return order;
}

void Graph::infer_and_validate() {
  std::unordered_set<std::string_view> names;
  for (NodeId id = 0; id < nodes_.size(); ++id) {
    const Node& node = nodes_[id];
    if (node.name.empty())
      throw Error(fmt::format("node #{} ({}) has no name", id, op_name(node.op)));
    if (!names.insert(node.name).second) throw node_error(node, "two nodes have this name");
    for (const TensorRef& in : node.inputs) {
      if (in.node >= nodes_.size())
        throw node_error(node, fmt::format("input refers to missing node #{}", in.node));
    }
  }
  for (NodeId id : topological_order()) {
    Node& node = nodes_[id];
    std::vector<TensorType> input_types;
    input_types.reserve(node.inputs.size());
    for (const TensorRef& in : node.inputs) {
      const Node& producer = nodes_[in.node];
      if (in.output >= producer.outputs.size())
        throw node_error(node, fmt::format("input '{}' has {} output(s), output {} was asked for",
                                           producer.name, producer.outputs.size(), in.output));
      input_types.push_back(producer.outputs[in.output]);
    }
    InferResult inferred = infer_types(node.op, input_types, node.attrs, node.leaf_dtype);
    if (!inferred.ok()) throw node_error(node, inferred.error);
    if (!node.outputs.empty() && node.outputs != inferred.outputs)
      throw node_error(node, output_mismatch(node.outputs, inferred.outputs));
    node.outputs = std::move(inferred.outputs);
    if (node.value &&
        (node.op != Op::kWeight || node.value->shape != node.outputs[0].shape ||
         node.value->data.size() != static_cast<std::size_t>(numel(node.value->shape))))
      throw node_error(node, fmt::format("values of shape {} do not fit a {} of type {}",
                                         shape_string(node.value->shape), op_name(node.op),
                                         type_string(node.outputs[0])));
    if ((node.op == Op::kOpaque) != (node.opaque != nullptr))
      throw node_error(node, node.op == Op::kOpaque ? "opaque node without its operator type"
                                                    : "only opaque nodes carry an operator type");
  }
  std::unordered_set<std::string_view> output_names;
  for (const GraphOutput& out : outputs_) {
    if (!output_names.insert(out.name).second)
      throw Error(fmt::format("two graph outputs are named '{}'", out.name));
    if (out.tensor.node >= nodes_.size() ||
        out.tensor.output >= nodes_[out.tensor.node].outputs.size())
      throw Error(fmt::format("graph output '{}' refers to a missing tensor", out.name));
  }
  if (outputs_.empty()) throw Error("the graph has no outputs");
}

std::vector<bool> Graph::needed_for_outputs(const std::vector<NodeId>& order) const {
  std::vector<bool> needed(size(), false);
  for (const GraphOutput& out : outputs()) needed.at(out.tensor.node) = true;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (!needed[*it]) continue;
    for (const TensorRef& in : node(*it).inputs) needed[in.node] = true;
  }
  return needed;
}

std::vector<bool> Graph::weight_only() const {
  std::vector<bool> result(nodes_.size(), false);
  for (NodeId id : topological_order()) {
    const Node& node = nodes_[id];
    if (node.op == Op::kWeight) {
      result[id] = true;
    } else if (node.op != Op::kInput && node.op != Op::kOpaque && !node.inputs.empty()) {
      bool all = true;
      for (const TensorRef& in : node.inputs) all = all && result[in.node];
      result[id] = all;
    }
  }
  return result;
}

std::string tensor_ref_string(const Graph& graph, TensorRef ref) {
  const std::string& name = graph.node(ref.node).name;
  return ref.output == 0 ? name : fmt::format("{}:{}", name, ref.output);
}

Error node_error(const Node& node, std::string message) {
  return Error(std::move(message), SourceLocation::at_node(node.name));
}

bool zero_weight(const Graph& graph, TensorRef ref) {
  const Node& node = graph.node(ref.node);
  return node.op == Op::kWeight && node.value &&
         std::all_of(node.value->data.begin(), node.value->data.end(),
                     [](double x) { return x == 0; });
}

}  // namespace mctsat::tensor
