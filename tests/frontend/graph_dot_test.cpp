// Graphviz export: every node and edge appears, labelled with operator, attributes and shapes.
#include <doctest/doctest.h>

#include "frontend/graph_dot.hpp"
#include "tensor/graph_builder.hpp"

using namespace mctsat::tensor;

TEST_CASE("DOT export lists nodes, attributes, edges with shapes and outputs") {
  GraphBuilder b;
  const TensorRef x = b.input("x\"quoted", {2, 3});
  const TensorRef w = b.weight("w", {3, 4});
  b.output("y", b.matmul(x, w, Activation::kRelu));
  const Graph graph = std::move(b).finish();
  const std::string dot = mctsat::frontend::graph_to_dot(graph, "tiny");
  CHECK(dot.rfind("digraph \"tiny\" {", 0) == 0);
  CHECK(dot.find("n0 [label=\"x\\\"quoted\\ninput\\nshape=[2,3]\\nf32[2x3]\"") !=
        std::string::npos);
  CHECK(dot.find("n2 [label=\"matmul_0\\nmatmul\\nact=2\\nf32[2x4]\"") != std::string::npos);
  CHECK(dot.find("n0 -> n2 [label=\"2x3\"];") != std::string::npos);
  CHECK(dot.find("n1 -> n2 [label=\"3x4\"];") != std::string::npos);
  CHECK(dot.find("out0 [label=\"y\"") != std::string::npos);
  CHECK(dot.find("n2 -> out0;") != std::string::npos);
  CHECK(dot.substr(dot.size() - 2) == "}\n");
}
