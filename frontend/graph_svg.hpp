// SVG drawings of graphs: the DOT export (graph_dot.hpp) laid out and rendered by Graphviz's
// library (libgvc, the `dot` layout), in process.
#pragma once

#include <string>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// Renders DOT text as SVG. Throws mctsat::Error when Graphviz rejects the text or cannot lay it
// out.
std::string dot_to_svg(const std::string& dot);

std::string graph_to_svg(const tensor::Graph& graph, const std::string& title = "graph");

}  // namespace mctsat::frontend
