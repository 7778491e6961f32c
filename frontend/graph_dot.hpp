// Graphviz DOT export of a graph: one box per operator (name, operator, attributes, output
// type), edges from producers to consumers labelled with the tensor's shape.
#pragma once

#include <string>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

std::string graph_to_dot(const tensor::Graph& graph, const std::string& title = "graph");

}  // namespace mctsat::frontend
