// The cost-model interface: the estimated run time of one operator instance, and of a graph as
// the sum over its operators. Weight-only subgraphs are pre-computed (TASO's rule) and cost
// nothing; inputs, weights and views (reshape, split, ...) cost nothing.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "support/enum_names.hpp"
#include "tensor/attr.hpp"
#include "tensor/graph.hpp"
#include "tensor/op.hpp"
#include "tensor/tensor_type.hpp"

namespace mctsat::tensor {

// One operator with concrete input/output types: what a cost model prices. The e-graph builds
// these for e-nodes without building a Graph.
struct OpInstance {
  Op op;
  std::span<const TensorType> inputs;
  const Attrs& attrs;
  std::span<const TensorType> outputs;
};

// The runtime a graph's cost assumes (runtime_fusions.hpp): one that runs every operator on its
// own, or one whose graph optimizer fuses some into others' kernels.
enum class RuntimeFusions {
  kNone,         // every operator runs on its own: a graph costs the sum of its operators
  kOnnxRuntime,  // ONNX Runtime's CPU execution provider at level "all"
};
inline constexpr EnumNames<RuntimeFusions, 2> kRuntimeFusionNames{
    {{RuntimeFusions::kNone, "none"}, {RuntimeFusions::kOnnxRuntime, "onnxruntime"}}};

class CostModel {
 public:
  virtual ~CostModel() = default;
  // Estimated time in milliseconds (0 for views). Throws mctsat::Error when it cannot price it.
  virtual double cost(const OpInstance& instance) const = 0;
  virtual std::string name() const = 0;
  // The runtime whose fusions a whole graph's cost takes into account (as_run_cost).
  virtual RuntimeFusions runtime_fusions() const { return RuntimeFusions::kNone; }
};

// model.cost(instance), checked against the accepted range of costs (support/cost_range.hpp):
// throws mctsat::Error naming the model and the operator when it is outside (a cost of 1e308
// would make sums infinite; a denormal one, the ILP's scale).
double checked_cost(const CostModel& model, const OpInstance& instance);

struct NodeCost {
  NodeId node;
  double cost_ms;
};

// Calls f(node, instance) for every node of a validated graph that a cost model prices (all but
// weight-only nodes and views), in node order. An mctsat::Error thrown by f is rethrown located at
// the node.
void for_each_priced_instance(const Graph& graph,
                              const std::function<void(NodeId, const OpInstance&)>& f);
// Per-node costs of a validated graph (weight-only nodes and views cost 0), in node order.
std::vector<NodeCost> node_costs(const Graph& graph, const CostModel& model);
// Sum of node_costs.
double graph_cost(const Graph& graph, const CostModel& model);

}  // namespace mctsat::tensor
