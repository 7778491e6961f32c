// Outer-scope names of ONNX subgraphs (see onnx_outer_names.hpp).
#include "frontend/onnx_outer_names.hpp"

#include <set>

namespace mctsat::frontend {
namespace {

using Names = std::set<std::string>;

void define_scope(const onnx::GraphProto& graph, Names& defined) {
  for (const auto& input : graph.input()) defined.insert(input.name());
  for (const auto& weight : graph.initializer()) defined.insert(weight.name());
}

// Reads of names outside `defined` (the names visible from the enclosing subgraph scopes, not the
// top graph's) in `graph`, in order.
void collect(const onnx::GraphProto& graph, Names defined, std::vector<std::string>& reads) {
  define_scope(graph, defined);
  for (const auto& node : graph.node()) {
    for (const auto& input : node.input())
      if (!input.empty() && defined.count(input) == 0) reads.push_back(input);
    for (const auto& attribute : node.attribute()) {
      if (attribute.has_g()) collect(attribute.g(), defined, reads);
      for (const auto& subgraph : attribute.graphs()) collect(subgraph, defined, reads);
    }
    for (const auto& output : node.output()) defined.insert(output);
  }
  for (const auto& output : graph.output())
    if (defined.count(output.name()) == 0) reads.push_back(output.name());
}

void rename(onnx::GraphProto& graph, Names defined,
            const std::map<std::string, std::string>& renames) {
  define_scope(graph, defined);
  const auto renamed = [&](std::string& name) {
    if (name.empty() || defined.count(name)) return;
    if (const auto found = renames.find(name); found != renames.end()) name = found->second;
  };
  for (auto& node : *graph.mutable_node()) {
    for (auto& input : *node.mutable_input()) renamed(input);
    for (auto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) rename(*attribute.mutable_g(), defined, renames);
      for (auto& subgraph : *attribute.mutable_graphs()) rename(subgraph, defined, renames);
    }
    for (const auto& output : node.output()) defined.insert(output);
  }
  for (auto& output : *graph.mutable_output()) renamed(*output.mutable_name());
}

void definitions(const onnx::GraphProto& graph, std::vector<std::string>& names) {
  for (const auto& input : graph.input()) names.push_back(input.name());
  for (const auto& weight : graph.initializer()) names.push_back(weight.name());
  for (const auto& node : graph.node()) {
    for (const auto& output : node.output())
      if (!output.empty()) names.push_back(output);
    add_subgraph_definitions(node, names);
  }
}

}  // namespace

std::vector<std::string> outer_names(const onnx::NodeProto& node) {
  std::vector<std::string> reads;
  for (const auto& attribute : node.attribute()) {
    if (attribute.has_g()) collect(attribute.g(), {}, reads);
    for (const auto& subgraph : attribute.graphs()) collect(subgraph, {}, reads);
  }
  std::vector<std::string> unique;
  Names seen;
  for (auto& name : reads)
    if (seen.insert(name).second) unique.push_back(std::move(name));
  return unique;
}

void rename_outer_names(onnx::NodeProto& node, const std::map<std::string, std::string>& renames) {
  for (auto& attribute : *node.mutable_attribute()) {
    if (attribute.has_g()) rename(*attribute.mutable_g(), {}, renames);
    for (auto& subgraph : *attribute.mutable_graphs()) rename(subgraph, {}, renames);
  }
}

void add_subgraph_definitions(const onnx::NodeProto& node, std::vector<std::string>& names) {
  for (const auto& attribute : node.attribute()) {
    if (attribute.has_g()) definitions(attribute.g(), names);
    for (const auto& subgraph : attribute.graphs()) definitions(subgraph, names);
  }
}

}  // namespace mctsat::frontend
