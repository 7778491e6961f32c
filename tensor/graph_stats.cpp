// Computing GraphStats.
#include "tensor/graph_stats.hpp"

namespace mctsat::tensor {

GraphStats graph_stats(const Graph& graph) {
  GraphStats stats;
  for (const Node& node : graph.nodes()) {
    switch (node.op) {
      case Op::kInput:
        ++stats.inputs;
        break;
      case Op::kWeight:
        ++stats.weights;
        stats.parameters += node.outputs.empty() ? 0 : numel(node.outputs[0].shape);
        stats.weights_with_values += node.value != nullptr;
        break;
      default:
        ++stats.operators;
        ++stats.by_op[node.op];
    }
  }
  return stats;
}

}  // namespace mctsat::tensor
