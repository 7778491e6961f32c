// SVG rendering with libgvc (see graph_svg.hpp).
#include "frontend/graph_svg.hpp"

#include <graphviz/gvc.h>

#include <memory>

#include "frontend/graph_dot.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {

std::string dot_to_svg(const std::string& dot) {
  const std::unique_ptr<GVC_t, decltype(&gvFreeContext)> context(gvContext(), &gvFreeContext);
  if (!context) throw Error("Graphviz: cannot create a context");
  const std::unique_ptr<Agraph_t, decltype(&agclose)> graph(agmemread(dot.c_str()), &agclose);
  if (!graph) throw Error("Graphviz cannot read the DOT text");
  if (gvLayout(context.get(), graph.get(), "dot") != 0)
    throw Error("Graphviz cannot lay out the graph");
  char* data = nullptr;
  unsigned int length = 0;
  const int rendered = gvRenderData(context.get(), graph.get(), "svg", &data, &length);
  std::string svg = rendered == 0 && data != nullptr ? std::string(data, length) : std::string();
  gvFreeRenderData(data);
  gvFreeLayout(context.get(), graph.get());
  if (rendered != 0) throw Error("Graphviz cannot render SVG");
  return svg;
}

std::string graph_to_svg(const tensor::Graph& graph, const std::string& title) {
  return dot_to_svg(graph_to_dot(graph, title));
}

}  // namespace mctsat::frontend
