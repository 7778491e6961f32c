// Questions the frontend tests ask of an imported graph: how many nodes have an operator, and the
// shapes of its inputs in order.
#pragma once

#include <algorithm>
#include <vector>

#include "tensor/graph.hpp"

inline int count_op(const mctsat::tensor::Graph& graph, mctsat::tensor::Op op) {
  return static_cast<int>(std::count_if(graph.nodes().begin(), graph.nodes().end(),
                                        [&](const mctsat::tensor::Node& n) { return n.op == op; }));
}

inline std::vector<mctsat::tensor::Shape> input_shapes(const mctsat::tensor::Graph& graph) {
  std::vector<mctsat::tensor::Shape> shapes;
  for (const mctsat::tensor::Node& node : graph.nodes())
    if (node.op == mctsat::tensor::Op::kInput) shapes.push_back(node.outputs.at(0).shape);
  return shapes;
}
