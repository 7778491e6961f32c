// The graph walk of the reference interpreter: which nodes are needed, where leaf values come from
// (caller inputs, stored or seeded random weights), and when intermediate tensors can be freed.
#include "tensor/interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "support/error.hpp"
#include "support/splitmix64.hpp"
#include "support/stable_hash.hpp"
#include "tensor/memory_budget.hpp"

namespace mctsat::tensor {
namespace {

// The splitmix64 finalizer: spreads every input bit over the whole word.
std::uint64_t mix(std::uint64_t x) {
  return SplitMix64(x).next();
}

const Shape& leaf_shape(const Node& node) {
  return attr_ints(node.attrs.at(0));
}

Tensor input_value(const Node& node, const std::map<std::string, Tensor>& inputs) {
  auto found = inputs.find(node.name);
  if (found == inputs.end())
    throw node_error(node, fmt::format("no value given for input '{}'", node.name));
  const Tensor& value = found->second;
  const Shape& declared = leaf_shape(node);
  if (value.shape != declared)
    throw node_error(node, fmt::format("input '{}' has shape {}, the graph declares {}", node.name,
                                       shape_string(value.shape), shape_string(declared)));
  if (value.data.size() != static_cast<std::size_t>(numel(declared)))
    throw node_error(node, fmt::format("input '{}' holds {} values for shape {}", node.name,
                                       value.data.size(), shape_string(declared)));
  return value;
}

Tensor weight_value(const Node& node, const InterpretOptions& options) {
  if (node.value) return *node.value;
  if (!options.random_weight_seed)
    throw node_error(
        node,
        fmt::format("weight '{}' has no values (set a random weight seed to fill it)", node.name));
  return random_weight(leaf_shape(node), *options.random_weight_seed, node.name);
}

// The values computed so far, each with the number of reads still to come; a value is freed (or
// moved to its last reader) when that count reaches zero.
class ValueStore {
 public:
  ValueStore(const Graph& graph, const std::vector<bool>& needed)
      : values_(graph.size()), reads_(graph.size()) {
    for (NodeId id = 0; id < graph.size(); ++id) {
      if (!needed[id]) continue;
      for (const TensorRef& in : graph.node(id).inputs) count(in);
    }
    for (const GraphOutput& out : graph.outputs()) count(out.tensor);
  }

  void store(NodeId id, std::vector<Tensor> outputs) {
    values_[id] = std::move(outputs);
    reads_[id].resize(values_[id].size(), 0);
    for (std::size_t i = 0; i < values_[id].size(); ++i) {
      if (reads_[id][i] == 0) values_[id][i] = Tensor();  // nobody reads this output
    }
  }

  Tensor read(TensorRef ref) {
    MCTSAT_ASSERT(ref.node < values_.size() && ref.output < values_[ref.node].size());
    int& reads = reads_[ref.node][ref.output];
    MCTSAT_ASSERT(reads > 0);
    Tensor& value = values_[ref.node][ref.output];
    if (--reads == 0) return std::move(value);
    return value;
  }

 private:
  void count(TensorRef ref) {
    auto& reads = reads_.at(ref.node);
    if (reads.size() <= ref.output) reads.resize(ref.output + 1, 0);
    ++reads[ref.output];
  }

  std::vector<std::vector<Tensor>> values_;
  std::vector<std::vector<int>> reads_;
};

std::vector<Tensor> evaluate_opaque(const Graph& graph, NodeId id, ValueStore& store,
                                    const InterpretOptions& options) {
  const Node& node = graph.node(id);
  const std::string type = node.opaque ? node.opaque->type : std::string("?");
  if (!options.opaque_evaluator)
    throw node_error(node, fmt::format("opaque operator '{}' cannot be interpreted", type));
  std::vector<Tensor> args;
  for (const TensorRef& in : node.inputs) args.push_back(store.read(in));
  std::vector<Tensor> results;
  try {
    results = options.opaque_evaluator(graph, id, args);
  } catch (const Error& error) {
    throw error.located(SourceLocation::at_node(node.name));
  }
  if (results.size() != node.outputs.size())
    throw node_error(node, fmt::format("opaque operator '{}' gave {} values for {} outputs", type,
                                       results.size(), node.outputs.size()));
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (results[k].shape != node.outputs[k].shape)
      throw node_error(node, fmt::format("opaque operator '{}' gave output {} of shape {} where "
                                         "the graph says {}",
                                         type, k, shape_string(results[k].shape),
                                         shape_string(node.outputs[k].shape)));
  }
  return results;
}

}  // namespace

Tensor random_tensor(const Shape& shape, std::uint64_t seed, std::string_view stream) {
  std::mt19937_64 engine(mix(seed ^ mix(fnv1a(stream))));
  Tensor out(shape);
  constexpr double kUnit = 1.0 / 9007199254740992.0;  // 2^-53
  for (double& v : out.data) v = 2.0 * static_cast<double>(engine() >> 11) * kUnit - 1.0;
  return out;
}

Tensor random_weight(const Shape& shape, std::uint64_t seed, std::string_view name) {
  Tensor out = random_tensor(shape, seed, name);
  const std::int64_t fan_in = shape.size() < 2    ? 1
                              : shape.size() == 2 ? shape[0]
                                                  : numel(shape) / shape[0];
  const double scale = 1.0 / std::sqrt(static_cast<double>(std::max<std::int64_t>(fan_in, 1)));
  for (double& v : out.data) v *= scale;
  return out;
}

std::map<std::string, Tensor> random_inputs(const Graph& graph, std::uint64_t seed) {
  check_graph_fits_in_memory(graph, sizeof(double), "the random inputs", true);
  std::map<std::string, Tensor> inputs;
  for (const Node& node : graph.nodes()) {
    if (node.op != Op::kInput) continue;
    Tensor value = random_tensor(leaf_shape(node), seed, node.name);
    if (node.leaf_dtype == DType::kBool)
      for (double& v : value.data) v = v > 0 ? 1.0 : 0.0;
    else if (node.leaf_dtype != DType::kFloat32 && node.leaf_dtype != DType::kFloat16 &&
             node.leaf_dtype != DType::kFloat64)
      for (double& v : value.data) v = std::round(v);
    inputs[node.name] = std::move(value);
  }
  return inputs;
}

std::vector<Tensor> interpret(const Graph& graph, const std::map<std::string, Tensor>& inputs,
                              const InterpretOptions& options) {
  check_graph_fits_in_memory(graph, sizeof(double), "the reference interpreter's tensors");
  const std::vector<NodeId> order = graph.topological_order();
  const std::vector<bool> needed = graph.needed_for_outputs(order);
  ValueStore store(graph, needed);

  for (NodeId id : order) {
    if (!needed[id]) continue;
    const Node& node = graph.node(id);
    // Leaves and opaque operators get their values here; every other operator from its kernel
    // (evaluate_op, whose switch lists every operator).
    if (node.op == Op::kInput) {
      store.store(id, {input_value(node, inputs)});
      continue;
    }
    if (node.op == Op::kWeight) {
      store.store(id, {weight_value(node, options)});
      continue;
    }
    if (node.op == Op::kOpaque) {
      store.store(id, evaluate_opaque(graph, id, store, options));
      continue;
    }
    std::vector<Tensor> args;
    args.reserve(node.inputs.size());
    for (const TensorRef& in : node.inputs) args.push_back(store.read(in));
    try {
      store.store(id, evaluate_op(node.op, args, node.attrs, node.outputs));
    } catch (const Error& error) {
      throw error.located(SourceLocation::at_node(node.name));
    }
  }

  std::vector<Tensor> results;
  results.reserve(graph.outputs().size());
  for (const GraphOutput& out : graph.outputs()) results.push_back(store.read(out.tensor));
  return results;
}

}  // namespace mctsat::tensor
