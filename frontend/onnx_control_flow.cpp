// ONNX If and Loop on concrete tensors (see onnx_control_flow.hpp).
#include "frontend/onnx_control_flow.hpp"

#include <fmt/format.h>

#include "frontend/onnx_attributes.hpp"
#include "frontend/onnx_tensor.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {
namespace {

using Scope = std::map<std::string, OnnxValue>;

struct Limits {
  std::int64_t opset, elements, iterations;
};

const onnx::GraphProto& subgraph(const onnx::NodeProto& node, const char* name) {
  const onnx::AttributeProto* attribute = onnx_attr::find(node, name);
  if (attribute == nullptr || !attribute->has_g())
    throw Error(fmt::format("{} has no subgraph attribute '{}'", node.op_type(), name));
  return attribute->g();
}

std::vector<std::optional<OnnxValue>> run_node(const onnx::NodeProto& node, const Scope& scope,
                                               const Limits& limits);

// Runs `graph` with its inputs bound to `arguments` (in order), reading enclosing names from
// `scope`; returns its outputs' values.
std::vector<OnnxValue> run_graph(const onnx::GraphProto& graph,
                                 const std::vector<OnnxValue>& arguments, Scope scope,
                                 const Limits& limits) {
  if (static_cast<std::size_t>(graph.input_size()) != arguments.size())
    throw Error(fmt::format("subgraph '{}' takes {} inputs, given {}", graph.name(),
                            graph.input_size(), arguments.size()));
  for (int k = 0; k < graph.input_size(); ++k)
    scope[graph.input(k).name()] = arguments[static_cast<std::size_t>(k)];
  for (const auto& weight : graph.initializer()) {
    const auto dtype = onnx_io::dtype_from_onnx(weight.data_type());
    if (!dtype) throw Error(fmt::format("initializer '{}' has an unsupported type", weight.name()));
    scope[weight.name()] = {onnx_io::tensor_from_proto(weight, weight.name()), *dtype};
  }
  for (const auto& node : graph.node()) {
    const auto outputs = run_node(node, scope, limits);
    for (int k = 0; k < node.output_size() && static_cast<std::size_t>(k) < outputs.size(); ++k)
      if (!node.output(k).empty() && outputs[static_cast<std::size_t>(k)])
        scope[node.output(k)] = *outputs[static_cast<std::size_t>(k)];
  }
  std::vector<OnnxValue> results;
  for (const auto& output : graph.output()) {
    const auto found = scope.find(output.name());
    if (found == scope.end())
      throw Error(fmt::format("subgraph '{}' does not compute its output '{}'", graph.name(),
                              output.name()));
    results.push_back(found->second);
  }
  return results;
}

std::vector<std::optional<OnnxValue>> run_if(const onnx::NodeProto& node,
                                             std::span<const std::optional<OnnxValue>> inputs,
                                             const Scope& scope, const Limits& limits) {
  if (inputs.empty() || !inputs[0] || inputs[0]->value.data.size() != 1)
    throw Error("If needs a condition of one element");
  const bool taken = inputs[0]->value.data[0] != 0;
  std::vector<std::optional<OnnxValue>> outputs;
  for (auto& value :
       run_graph(subgraph(node, taken ? "then_branch" : "else_branch"), {}, scope, limits))
    outputs.emplace_back(std::move(value));
  return outputs;
}

std::vector<std::optional<OnnxValue>> run_loop(const onnx::NodeProto& node,
                                               std::span<const std::optional<OnnxValue>> inputs,
                                               const Scope& scope, const Limits& limits) {
  const onnx::GraphProto& body = subgraph(node, "body");
  if (inputs.size() < 2) throw Error("Loop needs its trip count and condition inputs");
  const auto scalar = [](const std::optional<OnnxValue>& v, const char* what) {
    if (v && v->value.data.size() != 1)
      throw Error(fmt::format("Loop's {} must be one value", what));
    return v ? std::optional<double>(v->value.data[0]) : std::nullopt;
  };
  const std::optional<double> trips = scalar(inputs[0], "trip count");
  bool going = scalar(inputs[1], "condition").value_or(1.0) != 0;
  std::vector<OnnxValue> carried;
  for (std::size_t k = 2; k < inputs.size(); ++k) {
    if (!inputs[k]) throw Error("Loop's loop-carried values must be given");
    carried.push_back(*inputs[k]);
  }
  if (static_cast<std::size_t>(body.output_size()) < 1 + carried.size())
    throw Error("Loop's body has fewer outputs than loop-carried values");
  const std::size_t scans = static_cast<std::size_t>(body.output_size()) - 1 - carried.size();
  std::vector<std::vector<OnnxValue>> scanned(scans);
  std::int64_t iteration = 0;
  for (; going && (!trips || static_cast<double>(iteration) < *trips); ++iteration) {
    if (iteration >= limits.iterations)
      throw Error(fmt::format("Loop runs more than {} iterations", limits.iterations));
    std::vector<OnnxValue> arguments = {
        {tensor::Tensor({}, static_cast<double>(iteration)), tensor::DType::kInt64},
        {tensor::Tensor({}, 1.0), tensor::DType::kBool}};
    arguments.insert(arguments.end(), carried.begin(), carried.end());
    std::vector<OnnxValue> results = run_graph(body, arguments, scope, limits);
    going = !results[0].value.data.empty() && results[0].value.data[0] != 0;
    for (std::size_t k = 0; k < carried.size(); ++k) carried[k] = std::move(results[1 + k]);
    for (std::size_t k = 0; k < scans; ++k)
      scanned[k].push_back(std::move(results[1 + carried.size() + k]));
  }
  std::vector<std::optional<OnnxValue>> outputs(carried.begin(), carried.end());
  for (auto& values : scanned) {
    if (values.empty()) throw Error("Loop ran no iteration, so its scan outputs have no shape");
    tensor::Shape shape = values[0].value.shape;
    shape.insert(shape.begin(), static_cast<std::int64_t>(values.size()));
    if (tensor::numel(shape) > limits.elements)
      throw Error(
          fmt::format("Loop's scan output would hold more than {} elements", limits.elements));
    OnnxValue stacked{tensor::Tensor(shape), values[0].dtype};
    stacked.value.data.clear();
    for (const auto& v : values) {
      if (v.value.shape != values[0].value.shape)
        throw Error("Loop's scan output changes shape between iterations");
      stacked.value.data.insert(stacked.value.data.end(), v.value.data.begin(), v.value.data.end());
    }
    outputs.emplace_back(std::move(stacked));
  }
  return outputs;
}

std::vector<std::optional<OnnxValue>> run_node(const onnx::NodeProto& node, const Scope& scope,
                                               const Limits& limits) {
  std::vector<std::optional<OnnxValue>> inputs;
  for (const auto& name : node.input()) {
    if (name.empty()) {
      inputs.emplace_back();
      continue;
    }
    const auto found = scope.find(name);
    if (found == scope.end())
      throw Error(fmt::format("{} reads '{}', which no scope defines", node.op_type(), name));
    inputs.emplace_back(found->second);
  }
  if (onnx_control_flow_op(node)) {
    return node.op_type() == "If" ? run_if(node, inputs, scope, limits)
                                  : run_loop(node, inputs, scope, limits);
  }
  return evaluate_onnx_node(node, limits.opset, inputs, limits.elements);
}

}  // namespace

bool onnx_control_flow_op(const onnx::NodeProto& node) {
  return onnx_attr::default_domain(node.domain()) &&
         (node.op_type() == "If" || node.op_type() == "Loop");
}

std::vector<std::optional<OnnxValue>> evaluate_control_flow(
    const onnx::NodeProto& node, std::int64_t opset,
    std::span<const std::optional<OnnxValue>> inputs, const Scope& outer,
    std::int64_t element_limit, std::int64_t max_iterations) {
  const Limits limits{opset, element_limit, max_iterations};
  if (node.op_type() == "If") return run_if(node, inputs, outer, limits);
  if (node.op_type() == "Loop") return run_loop(node, inputs, outer, limits);
  throw Error(fmt::format("{} is not a control-flow operator", node.op_type()));
}

}  // namespace mctsat::frontend
