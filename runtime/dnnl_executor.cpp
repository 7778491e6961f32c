// The executor's graph walk: which nodes run, which are pre-computed from weights, where inputs
// and outputs live, and the per-run loop over the prepared primitives.
#include "runtime/dnnl_executor.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>
#include <omp.h>

#include "runtime/dnnl_primitives.hpp"
#include "support/error.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/memory_budget.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::runtime {

using namespace tensor;
namespace {

using dnnl_lowering::Operand;
using dnnl_lowering::Step;

// oneDNN's operators run float32 tensors. Tensors of other element types (bool masks, int64
// indices and shapes) live in host buffers of float64 values (exact for every integer up to 2^53),
// which only graph inputs and outputs and the opaque operators run on the host read and write.
bool on_host(DType dtype) {
  return dtype != DType::kFloat32;
}

void require_float32(const Node& node, const Graph& graph) {
  auto check = [&](const TensorType& type, const char* what) {
    if (on_host(type.dtype))
      throw node_error(node,
                       fmt::format("the oneDNN executor runs {} '{}' on float32 tensors only, "
                                   "{} is {}",
                                   op_name(node.op), node.name, what, type_string(type)));
  };
  for (const TensorRef& in : node.inputs) check(graph.type_of(in), "an input");
  for (const TensorType& type : node.outputs) check(type, "an output");
}

// A host buffer for `shape`'s float64 values: described to oneDNN as twice as many floats.
dnnl::memory::desc host_desc(const Shape& shape) {
  return dnnl_lowering::plain_desc({2 * std::max<std::int64_t>(numel(shape), 1)});
}

dnnl::memory::desc desc_for(const TensorType& type) {
  return on_host(type.dtype) ? host_desc(type.shape) : dnnl_lowering::plain_desc(type.shape);
}

// Reads a tensor of `type` from its memory (a float32 one, or a host buffer).
Tensor read_typed(const dnnl::memory& memory, const TensorType& type) {
  Tensor out(type.shape);
  if (on_host(type.dtype)) {
    const auto* data = static_cast<const double*>(memory.get_data_handle());
    std::copy(data, data + out.data.size(), out.data.begin());
  } else {
    const auto* data = static_cast<const float*>(memory.get_data_handle());
    std::copy(data, data + out.data.size(), out.data.begin());
  }
  return out;
}

void write_typed(const dnnl::memory& memory, DType dtype, const Tensor& value) {
  if (on_host(dtype)) {
    std::copy(value.data.begin(), value.data.end(), static_cast<double*>(memory.get_data_handle()));
  } else {
    std::transform(value.data.begin(), value.data.end(),
                   static_cast<float*>(memory.get_data_handle()),
                   [](double v) { return static_cast<float>(v); });
  }
}

dnnl::memory float_memory(const dnnl::engine& engine, ExecutorArena& arena, const Tensor& value) {
  dnnl::memory memory =
      dnnl_lowering::in_arena(dnnl_lowering::plain_desc(value.shape), engine, arena);
  auto* data = static_cast<float*>(memory.get_data_handle());
  std::transform(value.data.begin(), value.data.end(), data,
                 [](double v) { return static_cast<float>(v); });
  return memory;
}

// The distinct nodes whose outputs `node` reads.
std::vector<NodeId> producers_of(const Node& node) {
  std::vector<NodeId> producers;
  for (const TensorRef& in : node.inputs) producers.push_back(in.node);
  std::sort(producers.begin(), producers.end());
  producers.erase(std::unique(producers.begin(), producers.end()), producers.end());
  return producers;
}

// Memory planning: the buffer a node allocated for its outputs goes back to the arena once every
// node reading those outputs, or a view another node made of them, has been built. Steps run in
// build order, so a node built later may then write there. Buffers of graph outputs, inputs,
// weights and a node's scratch tensors are never handed out again.
class BufferReuse {
 public:
  BufferReuse(const Graph& graph, const std::vector<NodeId>& order, const std::vector<bool>& needed,
              const std::vector<bool>& weight_only, ExecutorArena& arena)
      : graph_(graph),
        arena_(arena),
        readers_(graph.size(), 0),
        pinned_(graph.size(), false),
        holds_(graph.size()) {
    for (NodeId id : order)
      if (needed[id] && !weight_only[id])
        for (NodeId producer : producers_of(graph.node(id))) ++readers_[producer];
    for (const GraphOutput& out : graph.outputs()) pinned_[out.tensor.node] = true;
  }

  // Call before a node allocates its outputs (after its operands exist).
  void start() { arena_.take_allocated(); }

  // Call once node `id` has been built with these output memories.
  void built(NodeId id, const std::vector<dnnl::memory>& outputs) {
    const std::vector<void*> allocated = arena_.take_allocated();
    for (const dnnl::memory& out : outputs) {
      void* buffer = arena_.buffer_containing(out.get_data_handle());
      if (!buffer) continue;
      auto holders = holders_.find(buffer);
      if (holders == holders_.end()) {
        // Reusable only when this node allocated it; else an input's, a weight's, a scratch one.
        if (std::find(allocated.begin(), allocated.end(), buffer) == allocated.end()) continue;
        holders = holders_.emplace(buffer, 0).first;
      }
      std::vector<void*>& held = holds_[id];
      if (std::find(held.begin(), held.end(), buffer) != held.end()) continue;
      held.push_back(buffer);
      ++holders->second;
    }
    for (NodeId producer : producers_of(graph_.node(id)))
      if (readers_[producer] > 0 && --readers_[producer] == 0) drop(producer);
    if (readers_[id] == 0) drop(id);
  }

 private:
  void drop(NodeId id) {
    if (pinned_[id]) return;
    for (void* buffer : holds_[id]) {
      const auto holders = holders_.find(buffer);
      if (--holders->second > 0) continue;
      arena_.release(buffer);
      holders_.erase(holders);
    }
    holds_[id].clear();
  }

  const Graph& graph_;
  ExecutorArena& arena_;
  std::vector<std::uint32_t> readers_;                // by node: readers not built yet
  std::vector<bool> pinned_;                          // by node: a graph output (kept)
  std::vector<std::vector<void*>> holds_;             // by node: reusable buffers its outputs use
  std::unordered_map<void*, std::uint32_t> holders_;  // by buffer: nodes holding it
};

}  // namespace

struct DnnlExecutor::State {
  struct InputSlot {
    std::string name;
    TensorType type;
    dnnl::memory memory;
  };
  struct OutputSlot {
    TensorType type;
    dnnl::memory memory;
  };

  // Every buffer below lives in the arena: declared first, it is destroyed last.
  ExecutorArena arena;
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  std::vector<InputSlot> inputs;
  // Primitives run in order; a step with a host function (an opaque operator) runs that instead,
  // after the stream has finished what came before.
  struct RunStep {
    Step primitive;
    std::function<void()> host;
  };
  std::vector<RunStep> steps;
  std::size_t host_steps = 0;
  std::shared_ptr<const Graph> graph;  // for the opaque evaluator, when there are host steps
  std::vector<OutputSlot> outputs;
  // Every node's output memories: views made with a raw pointer do not keep their buffer alive.
  std::vector<std::vector<dnnl::memory>> values;
};

DnnlExecutor::DnnlExecutor(const Graph& graph, const ExecutorOptions& options)
    : state_(std::make_unique<State>()) {
  check_graph_fits_in_memory(graph, sizeof(float), "the oneDNN executor's tensors");
  State& state = *state_;
  const std::vector<NodeId> order = graph.topological_order();
  const std::vector<bool> needed = graph.needed_for_outputs(order);
  const std::vector<bool> weight_only = graph.weight_only();

  // Reference (float64) values of weight-only nodes, and their float32 memories where a run-time
  // node or an output reads them. A weight that only run-time operators (not opaque ones) read is
  // converted to float32 at once, and float64 values are dropped once their last reader is
  // lowered (moved into it when it reads them once), so that they are not all held at once
  // (`mctsat run vgg19 --engine dnnl`: peak memory 3.7 -> 2.65 GB).
  std::vector<std::vector<Tensor>> folded(graph.size());
  std::vector<bool> read_exactly(graph.size(), false);  // by a weight-only, opaque or output
  // By node: the position in `order` of its last reader (order.size() for outputs); by position:
  // the weight-only nodes whose last reader is the node before.
  std::vector<std::size_t> last_reader(graph.size(), 0);
  std::vector<std::vector<NodeId>> release_at(order.size() + 1);
  for (std::size_t position = 0; position < order.size(); ++position) {
    const Node& node = graph.node(order[position]);
    if (!needed[order[position]]) continue;
    for (const TensorRef& in : node.inputs) last_reader[in.node] = position;
    if (weight_only[order[position]] || node.op == Op::kOpaque)
      for (const TensorRef& in : node.inputs) read_exactly[in.node] = true;
  }
  for (const GraphOutput& out : graph.outputs()) {
    read_exactly[out.tensor.node] = true;
    last_reader[out.tensor.node] = order.size();  // never dropped
  }
  for (NodeId id : order)
    if (needed[id] && weight_only[id] && last_reader[id] < order.size())
      release_at[last_reader[id] + 1].push_back(id);
  std::vector<std::vector<dnnl::memory>>& values = state.values;
  values.resize(graph.size());
  auto memory_of = [&](TensorRef ref) -> dnnl::memory& {
    std::vector<dnnl::memory>& slots = values[ref.node];
    if (weight_only[ref.node] && !folded[ref.node].empty()) {
      slots.resize(folded[ref.node].size());
      if (!slots[ref.output])
        slots[ref.output] = float_memory(state.engine, state.arena, folded[ref.node][ref.output]);
    }
    return slots.at(ref.output);
  };

  BufferReuse reuse(graph, order, needed, weight_only, state.arena);
  for (std::size_t position = 0; position < order.size(); ++position) {
    for (NodeId done : release_at[position]) std::vector<Tensor>().swap(folded[done]);
    const NodeId id = order[position];
    if (!needed[id]) continue;
    const Node& node = graph.node(id);
    // Weight-only nodes are computed in float64 here; only what oneDNN runs must be float32.
    if (!weight_only[id] && node.op != Op::kInput && node.op != Op::kOpaque)
      require_float32(node, graph);
    if (weight_only[id]) {
      if (node.op == Op::kWeight) {
        std::optional<Tensor> generated;
        if (!node.value && options.random_weight_seed) {
          generated = random_weight(node.outputs[0].shape, *options.random_weight_seed, node.name);
        } else if (!node.value) {
          throw node_error(node, fmt::format("weight '{}' has no values (set a random weight seed "
                                             "to fill it)",
                                             node.name));
        }
        if (!read_exactly[id]) {
          values[id] = {
              float_memory(state.engine, state.arena, generated ? *generated : *node.value)};
        } else if (generated) {
          folded[id].push_back(std::move(*generated));
        } else {
          folded[id] = {*node.value};
        }
        continue;
      }
      // An input read for the last time, and once, is moved rather than copied.
      std::vector<Tensor> args;
      for (const TensorRef& in : node.inputs) {
        Tensor& value = folded[in.node].at(in.output);
        const bool last = last_reader[in.node] == position &&
                          std::count_if(node.inputs.begin(), node.inputs.end(),
                                        [&](TensorRef ref) { return ref.node == in.node; }) == 1;
        args.push_back(last ? std::move(value) : value);
      }
      try {
        folded[id] = node.op == Op::kOpaque && options.opaque_evaluator
                         ? options.opaque_evaluator(graph, id, args)
                         : evaluate_op(node.op, args, node.attrs, node.outputs);
      } catch (const Error& error) {
        throw error.located(SourceLocation::at_node(node.name));
      }
      continue;
    }
    if (node.op == Op::kInput) {
      dnnl::memory memory =
          dnnl_lowering::in_arena(desc_for(node.outputs[0]), state.engine, state.arena);
      state.inputs.push_back({node.name, node.outputs[0], memory});
      values[id] = {memory};
      continue;
    }
    if (node.op == Op::kOpaque) {
      if (!options.opaque_evaluator)
        throw node_error(node,
                         fmt::format("the oneDNN executor cannot run the opaque operator '{}'",
                                     node.opaque ? node.opaque->type : std::string("?")));
      // Plain float32 buffers for the outputs; the step reads the inputs' buffers at run time.
      reuse.start();
      std::vector<dnnl::memory> outputs;
      for (const TensorType& type : node.outputs)
        outputs.push_back(
            dnnl_lowering::in_arena_for_run(desc_for(type), state.engine, state.arena));
      // Run-time inputs are read from their buffers; weight-only ones are the exact float64
      // values (e.g. int64 slice bounds, which float32 cannot hold).
      struct HostInput {
        dnnl::memory memory;
        TensorType type;
        std::optional<Tensor> constant;
      };
      std::vector<HostInput> inputs;
      for (const TensorRef& in : node.inputs) {
        if (weight_only[in.node])
          inputs.push_back({{}, {}, folded[in.node].at(in.output)});
        else
          inputs.push_back({memory_of(in), graph.type_of(in), std::nullopt});
      }
      if (!state.graph) state.graph = std::make_shared<const Graph>(graph);
      const std::vector<TensorType> output_types = node.outputs;
      auto host = [graph = state.graph, id, evaluate = options.opaque_evaluator, inputs, outputs,
                   output_types] {
        std::vector<Tensor> args;
        for (const HostInput& in : inputs)
          args.push_back(in.constant ? *in.constant : read_typed(in.memory, in.type));
        std::vector<Tensor> results;
        try {
          results = evaluate(*graph, id, args);
        } catch (const Error& error) {
          throw error.located(SourceLocation::at_node(graph->node(id).name));
        }
        for (std::size_t k = 0; k < outputs.size(); ++k) {
          if (k >= results.size() || results[k].shape != output_types[k].shape)
            throw node_error(graph->node(id),
                             "the opaque evaluator gave values of the wrong shape");
          write_typed(outputs[k], output_types[k].dtype, results[k]);
        }
      };
      state.steps.push_back({Step{}, std::move(host)});
      ++state.host_steps;
      reuse.built(id, outputs);
      values[id] = std::move(outputs);
      continue;
    }
    std::vector<Operand> operands;
    for (const TensorRef& in : node.inputs)
      operands.push_back({memory_of(in), graph.type_of(in).shape, weight_only[in.node]});
    try {
      std::vector<Step> steps;
      values[id] =
          dnnl_lowering::lower_node(state.engine, state.arena, state.stream, node, operands, steps);
      for (Step& step : steps) state.steps.push_back({std::move(step), nullptr});
      reuse.built(id, values[id]);
    } catch (const Error& error) {
      throw error.located(SourceLocation::at_node(node.name));
    } catch (const dnnl::error& error) {
      throw node_error(node, fmt::format("oneDNN cannot run {} '{}' on {}: {}", op_name(node.op),
                                         node.name, type_string(node.outputs[0]), error.what()));
    }
  }
  // A weight-only output was converted to float32 (memory_of); a run-time one has its type's
  // memory.
  for (const GraphOutput& out : graph.outputs()) {
    TensorType type = graph.type_of(out.tensor);
    if (weight_only[out.tensor.node]) type.dtype = DType::kFloat32;
    state.outputs.push_back({type, memory_of(out.tensor)});
  }
}

DnnlExecutor::~DnnlExecutor() = default;
DnnlExecutor::DnnlExecutor(DnnlExecutor&&) noexcept = default;
DnnlExecutor& DnnlExecutor::operator=(DnnlExecutor&&) noexcept = default;

void DnnlExecutor::set_inputs(const std::map<std::string, Tensor>& inputs) {
  for (State::InputSlot& slot : state_->inputs) {
    const SourceLocation where = SourceLocation::at_node(slot.name);
    const auto found = inputs.find(slot.name);
    if (found == inputs.end())
      throw Error(fmt::format("no value given for input '{}'", slot.name), where);
    const Tensor& value = found->second;
    if (value.shape != slot.type.shape ||
        value.data.size() != static_cast<std::size_t>(numel(value.shape)))
      throw Error(
          fmt::format("input '{}' has shape {} ({} values), the graph declares {}", slot.name,
                      shape_string(value.shape), value.data.size(), shape_string(slot.type.shape)),
          where);
    write_typed(slot.memory, slot.type.dtype, value);
  }
}

void DnnlExecutor::execute() {
  for (const State::RunStep& step : state_->steps) {
    if (step.host) {
      state_->stream.wait();
      step.host();
    } else {
      step.primitive.primitive.execute(state_->stream, step.primitive.args);
    }
  }
  state_->stream.wait();
}

std::vector<Tensor> DnnlExecutor::outputs() const {
  std::vector<Tensor> results;
  results.reserve(state_->outputs.size());
  for (const State::OutputSlot& slot : state_->outputs)
    results.push_back(read_typed(slot.memory, slot.type));
  return results;
}

std::vector<Tensor> DnnlExecutor::run(const std::map<std::string, Tensor>& inputs) {
  set_inputs(inputs);
  execute();
  return outputs();
}

std::size_t DnnlExecutor::host_step_count() const {
  return state_->host_steps;
}

std::size_t DnnlExecutor::buffer_bytes() const {
  return state_->arena.reserved_bytes();
}

std::size_t DnnlExecutor::primitive_count() const {
  return state_->steps.size() - state_->host_steps;
}

void set_executor_threads(int threads) {
  if (threads < 1) throw Error(fmt::format("the thread count must be at least 1, got {}", threads));
  omp_set_num_threads(threads);
}

int executor_threads() {
  return omp_get_max_threads();
}

}  // namespace mctsat::runtime
