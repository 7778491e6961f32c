// Writing graphs as Graphviz DOT.
#include "frontend/graph_dot.hpp"

#include <fmt/format.h>

namespace mctsat::frontend {
namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string node_label(const tensor::Node& node) {
  std::string label = fmt::format("{}\\n{}", escape(node.name), tensor::op_name(node.op));
  if (node.op == tensor::Op::kOpaque && node.opaque)
    label += fmt::format(" {}", escape(node.opaque->type));
  const tensor::OpSignature& sig = tensor::signature(node.op);
  if (node.op != tensor::Op::kOpaque) {
    for (std::size_t i = 0; i < node.attrs.size(); ++i)
      label += fmt::format("\\n{}={}", sig.attr(i).name, tensor::attr_string(node.attrs[i]));
  }
  for (const auto& type : node.outputs) label += fmt::format("\\n{}", tensor::type_string(type));
  return label;
}

// Inputs, weights and opaque operators have colours of their own; views and the other operators
// are told apart by the catalog (a new operator needs no case here).
const char* fill_color(tensor::Op op) {
  if (op == tensor::Op::kInput) return "#d4e6f9";
  if (op == tensor::Op::kWeight) return "#eeeeee";
  if (op == tensor::Op::kOpaque) return "#f9d4d4";
  return tensor::signature(op).view ? "#f4f4dc" : "#ffffff";
}

}  // namespace

std::string graph_to_dot(const tensor::Graph& graph, const std::string& title) {
  std::string dot =
      fmt::format("digraph \"{}\" {{\n  node [shape=box, style=filled, fontname=\"Helvetica\"];\n",
                  escape(title));
  for (tensor::NodeId id = 0; id < graph.size(); ++id) {
    const tensor::Node& node = graph.node(id);
    dot += fmt::format("  n{} [label=\"{}\", fillcolor=\"{}\"];\n", id, node_label(node),
                       fill_color(node.op));
  }
  for (tensor::NodeId id = 0; id < graph.size(); ++id) {
    for (const tensor::TensorRef& in : graph.node(id).inputs) {
      const auto& producer = graph.node(in.node);
      const std::string shape = in.output < producer.outputs.size()
                                    ? tensor::shape_string(producer.outputs[in.output].shape)
                                    : "?";
      dot += fmt::format("  n{} -> n{} [label=\"{}\"];\n", in.node, id, shape);
    }
  }
  for (std::size_t i = 0; i < graph.outputs().size(); ++i) {
    const auto& out = graph.outputs()[i];
    dot += fmt::format(
        "  out{} [label=\"{}\", shape=ellipse, fillcolor=\"#d4f9d8\"];\n  n{} -> out{};\n", i,
        escape(out.name), out.tensor.node, i);
  }
  dot += "}\n";
  return dot;
}

}  // namespace mctsat::frontend
