// The ONNX opaque-operator evaluator (see onnx_opaque_evaluator.hpp).
#include "frontend/onnx_opaque_evaluator.hpp"

#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "frontend/onnx_control_flow.hpp"
#include "frontend/onnx_opaque_payload.hpp"
#include "frontend/onnx_reference_ops.hpp"
#include "frontend/onnx_tensor.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {
namespace {

// An opaque operator's payload parsed once, with its embedded constants' values.
struct PreparedOperator {
  OpaquePayload payload;
  std::map<std::string, OnnxValue> embedded;
};

PreparedOperator prepare(const tensor::Node& node, const std::string& type) {
  if (!node.opaque || node.opaque->payload.empty())
    throw Error(fmt::format("opaque operator '{}' has no ONNX form to evaluate", type));
  auto payload = OpaquePayload::parse(node.opaque->payload);
  if (!payload)
    throw Error(fmt::format("opaque operator '{}': its ONNX payload does not parse", type));
  PreparedOperator prepared{std::move(*payload), {}};
  for (const onnx::NodeProto* constant : prepared.payload.embedded()) {
    const onnx::TensorProto& proto = constant->attribute(0).t();
    const auto dtype = onnx_io::dtype_from_onnx(proto.data_type());
    if (!dtype)
      throw Error(
          fmt::format("opaque operator '{}': an embedded constant has an unsupported type", type));
    prepared.embedded[constant->output(0)] = {
        onnx_io::tensor_from_proto(proto, constant->output(0)), *dtype};
  }
  return prepared;
}

// Parsed payloads by operator, so repeated runs (the executor's timed runs) do not parse the
// text again. The OpaqueInfo is held, so its address cannot be reused while cached.
class PreparedCache {
 public:
  const PreparedOperator& get(const tensor::Node& node, const std::string& type) {
    const std::lock_guard lock(mutex_);
    auto found = entries_.find(node.opaque.get());
    if (found == entries_.end())
      found = entries_.emplace(node.opaque.get(), Entry{node.opaque, prepare(node, type)}).first;
    return found->second.prepared;
  }

 private:
  struct Entry {
    std::shared_ptr<const tensor::OpaqueInfo> owner;
    PreparedOperator prepared;
  };
  std::mutex mutex_;
  std::map<const tensor::OpaqueInfo*, Entry> entries_;
};

std::vector<tensor::Tensor> evaluate(PreparedCache& cache, const tensor::Graph& graph,
                                     tensor::NodeId id, std::span<const tensor::Tensor> values) {
  const tensor::Node& node = graph.node(id);
  const std::string type = node.opaque ? node.opaque->type : std::string("?");
  const PreparedOperator& prepared = cache.get(node, type);
  const onnx::NodeProto& onnx_node = prepared.payload.node();
  std::vector<std::optional<OnnxValue>> inputs(static_cast<std::size_t>(onnx_node.input_size()));
  std::size_t next = 0;
  for (int k = 0; k < onnx_node.input_size(); ++k) {
    const std::string& name = onnx_node.input(k);
    if (name.empty()) continue;
    if (!prepared.payload.graph_input(name)) {
      inputs[static_cast<std::size_t>(k)] = prepared.embedded.at(name);
      continue;
    }
    if (next >= values.size())
      throw Error(fmt::format("opaque operator '{}' has fewer inputs than its ONNX node", type));
    inputs[static_cast<std::size_t>(k)] =
        OnnxValue{values[next], graph.type_of(node.inputs[next]).dtype};
    ++next;
  }
  // The values of the outer-scope names its subgraphs read follow the node's own inputs.
  std::map<std::string, OnnxValue> outer;
  for (const std::string& name : prepared.payload.captured()) {
    if (!prepared.payload.graph_input(name)) {
      outer[name] = prepared.embedded.at(name);
      continue;
    }
    if (next >= values.size())
      throw Error(fmt::format("opaque operator '{}' lacks the values its subgraphs read", type));
    outer[name] = OnnxValue{values[next], graph.type_of(node.inputs[next]).dtype};
    ++next;
  }
  const std::int64_t opset = prepared.payload.default_opset();
  std::vector<tensor::Tensor> results;
  for (auto& out : onnx_control_flow_op(onnx_node)
                       ? evaluate_control_flow(onnx_node, opset, inputs, outer)
                       : evaluate_onnx_node(onnx_node, opset, inputs))
    if (out) results.push_back(std::move(out->value));
  return results;
}

}  // namespace

tensor::OpaqueEvaluator onnx_opaque_evaluator() {
  auto cache = std::make_shared<PreparedCache>();
  return [cache](const tensor::Graph& graph, tensor::NodeId id,
                 std::span<const tensor::Tensor> values) {
    return evaluate(*cache, graph, id, values);
  };
}

tensor::InterpretOptions with_onnx_opaque_evaluator(tensor::InterpretOptions options) {
  options.opaque_evaluator = onnx_opaque_evaluator();
  return options;
}

}  // namespace mctsat::frontend
