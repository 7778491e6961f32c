// Graph costs as sums of operator costs: weight-only nodes (pre-computed, as in TASO), input and
// weight leaves and views cost nothing; everything else is priced by the cost model.
#include "tensor/cost_model.hpp"

#include <cmath>

#include <fmt/format.h>

#include "support/cost_range.hpp"
#include "support/error.hpp"

namespace mctsat::tensor {

void for_each_priced_instance(const Graph& graph,
                              const std::function<void(NodeId, const OpInstance&)>& f) {
  const std::vector<bool> weight_only = graph.weight_only();
  std::vector<TensorType> input_types;
  for (NodeId id = 0; id < graph.size(); ++id) {
    const Node& node = graph.node(id);
    if (weight_only[id] || signature(node.op).view) continue;
    input_types.clear();
    for (const TensorRef& in : node.inputs) input_types.push_back(graph.type_of(in));
    try {
      f(id, OpInstance{node.op, input_types, node.attrs, node.outputs});
    } catch (const Error& e) {
      throw e.located(SourceLocation::at_node(node.name));
    }
  }
}

double checked_cost(const CostModel& model, const OpInstance& instance) {
  const double ms = model.cost(instance);
  if (const std::string error = cost_error(ms); !error.empty())
    throw Error(fmt::format("cost model {} priced a {} at {}: costs are 0 or from {:g} to {:g} ms",
                            model.name(), op_name(instance.op), error, kMinCostMs, kMaxCostMs));
  return ms;
}

std::vector<NodeCost> node_costs(const Graph& graph, const CostModel& model) {
  std::vector<NodeCost> costs;
  costs.reserve(graph.size());
  for (NodeId id = 0; id < graph.size(); ++id) costs.push_back({id, 0.0});
  for_each_priced_instance(graph, [&](NodeId id, const OpInstance& instance) {
    costs[id].cost_ms = checked_cost(model, instance);
  });
  return costs;
}

double graph_cost(const Graph& graph, const CostModel& model) {
  double total = 0;
  for (const NodeCost& cost : node_costs(graph, model)) total += cost.cost_ms;
  return total;
}

}  // namespace mctsat::tensor
