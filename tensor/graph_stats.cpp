// Computing GraphStats.
#include "tensor/graph_stats.hpp"

namespace mctsat::tensor {

GraphStats graph_stats(const Graph& graph) {
  GraphStats stats;
  for (const Node& node : graph.nodes()) {
    // Leaves are counted apart; every other operator alike (a new operator needs no case here).
    if (node.op == Op::kInput) {
      ++stats.inputs;
    } else if (node.op == Op::kWeight) {
      ++stats.weights;
      stats.parameters += node.outputs.empty() ? 0 : numel(node.outputs[0].shape);
      stats.weights_with_values += node.value != nullptr;
    } else {
      ++stats.operators;
      ++stats.by_op[node.op];
    }
  }
  return stats;
}

}  // namespace mctsat::tensor
