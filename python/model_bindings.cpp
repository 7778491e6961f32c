// mctsat.Model and its nodes: loading (zoo names, ONNX files and bytes, TASO .model, graph JSON),
// inspecting (nodes, operators, shapes, attributes, statistics, per-node estimated costs) and
// exporting (ONNX bytes, graph JSON, DOT, SVG, files; SVG is also the notebook display), all
// through frontend/ and tensor/.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "frontend/graph_dot.hpp"
#include "frontend/graph_json.hpp"
#include "frontend/graph_svg.hpp"
#include "frontend/model_io.hpp"
#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/zoo.hpp"
#include "python/bindings.hpp"
#include "python/model_handle.hpp"
#include "python/python_cost_model.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/runtime_fusions.hpp"

namespace mctsat::python {

namespace py = pybind11;

namespace {

using InputShapes = std::map<std::string, std::vector<std::int64_t>>;
using InputValues = std::map<std::string, std::vector<double>>;

// One node of a model, as Python sees it (a snapshot: models are immutable).
struct NodeView {
  std::shared_ptr<const Model> model;
  tensor::NodeId id;
  const tensor::Node& node() const { return model->graph.node(id); }
};

py::dict node_attributes(const tensor::Node& node) {
  const tensor::OpSignature& signature = tensor::signature(node.op);
  py::dict dict;
  for (std::size_t i = 0; i < node.attrs.size() && i < signature.attr_count(); ++i)
    std::visit(
        [&](const auto& v) { dict[py::str(std::string(signature.attr(i).name))] = py::cast(v); },
        node.attrs[i]);
  return dict;
}

std::vector<NodeView> nodes_of(const std::shared_ptr<const Model>& model) {
  std::vector<NodeView> nodes;
  for (tensor::NodeId id = 0; id < model->graph.size(); ++id) nodes.push_back({model, id});
  return nodes;
}

std::shared_ptr<Model> make_model(std::string name, tensor::Graph graph) {
  return std::make_shared<Model>(Model{std::move(name), std::move(graph)});
}

}  // namespace

void bind_models(py::module_& m) {
  py::class_<NodeView>(m, "Node", "One node of a model: an input, a weight or an operator")
      .def_property_readonly("name", [](const NodeView& n) { return n.node().name; })
      .def_property_readonly(
          "op", [](const NodeView& n) { return std::string(tensor::op_name(n.node().op)); })
      .def_property_readonly(
          "opaque_type",
          [](const NodeView& n) -> py::object {
            return n.node().opaque ? py::cast(n.node().opaque->type) : py::none();
          },
          "The imported operator's type (e.g. ONNX's 'LRN') of an opaque node, else None")
      .def_property_readonly(
          "inputs",
          [](const NodeView& n) {
            std::vector<std::string> refs;
            for (const tensor::TensorRef& ref : n.node().inputs)
              refs.push_back(tensor::tensor_ref_string(n.model->graph, ref));
            return refs;
          },
          "The tensors it reads: 'node' (output 0) or 'node:k'")
      .def_property_readonly(
          "attributes", [](const NodeView& n) { return node_attributes(n.node()); },
          "By the operator catalog's names (mctsat ops OP)")
      .def_property_readonly(
          "outputs", [](const NodeView& n) { return n.node().outputs; },
          "Output types (TensorType)")
      .def("__repr__", [](const NodeView& n) {
        std::string types;
        for (const auto& t : n.node().outputs)
          types += (types.empty() ? "" : ",") + tensor::type_string(t);
        return "<mctsat.Node " + n.node().name + ": " + std::string(tensor::op_name(n.node().op)) +
               " -> " + types + ">";
      });

  py::class_<Model, std::shared_ptr<Model>>(
      m, "Model", "A validated computation graph (immutable); load it with mctsat.load()")
      .def_readonly("name", &Model::name)
      .def_property_readonly("nodes",
                             [](const std::shared_ptr<Model>& model) { return nodes_of(model); })
      .def(
          "node",
          [](const std::shared_ptr<Model>& model, const std::string& name) {
            const auto id = model->graph.find(name);
            if (!id) throw py::key_error("no node named '" + name + "'");
            return NodeView{model, *id};
          },
          py::arg("name"))
      .def_property_readonly(
          "operators",
          [](const std::shared_ptr<Model>& model) {
            std::vector<NodeView> ops;
            for (const NodeView& n : nodes_of(model))
              if (n.node().op != tensor::Op::kInput && n.node().op != tensor::Op::kWeight)
                ops.push_back(n);
            return ops;
          },
          "The nodes that are neither inputs nor weights")
      .def_property_readonly(
          "outputs",
          [](const Model& model) {
            py::dict outputs;
            for (const auto& out : model.graph.outputs())
              outputs[py::str(out.name)] = model.graph.type_of(out.tensor);
            return outputs;
          },
          "Graph outputs: name -> TensorType")
      .def(
          "stats",
          [](const Model& model) {
            const tensor::GraphStats s = tensor::graph_stats(model.graph);
            py::dict by_op;
            for (const auto& [op, count] : s.by_op)
              by_op[py::str(std::string(tensor::op_name(op)))] = count;
            py::dict d;
            d["operators"] = s.operators;
            d["inputs"] = s.inputs;
            d["weights"] = s.weights;
            d["parameters"] = s.parameters;
            d["weights_with_values"] = s.weights_with_values;
            d["by_op"] = by_op;
            return d;
          },
          "Counts: operators, inputs, weights, parameters, operators by kind")
      .def(
          "costs",
          [](const Model& model, py::object cost_model, const std::string& device) {
            const CostModelHandle handle = cost_model_from(cost_model, device);
            CallbackErrors errors;
            const auto costs = errors.run_without_gil(
                [&] { return tensor::as_run_costs(model.graph, *handle.bind(errors)).nodes; });
            py::dict out;
            for (const auto& c : costs) out[py::str(model.graph.node(c.node).name)] = c.cost_ms;
            return out;
          },
          py::arg("cost_model") = py::none(), py::arg("device") = "v100",
          "Estimated milliseconds per node (weight-only nodes, views and the operators the cost "
          "model's runtime fuses cost 0), in node order")
      .def(
          "cost",
          [](const Model& model, py::object cost_model, const std::string& device) {
            const CostModelHandle handle = cost_model_from(cost_model, device);
            CallbackErrors errors;
            return errors.run_without_gil(
                [&] { return tensor::as_run_cost(model.graph, *handle.bind(errors)); });
          },
          py::arg("cost_model") = py::none(), py::arg("device") = "v100",
          "The estimated milliseconds of the whole graph, as the cost model's runtime runs it")
      .def(
          "to_onnx",
          [](const Model& model) {
            return py::bytes(frontend::graph_to_onnx(model.graph, model.name));
          },
          "The model as ONNX (serialized ModelProto bytes)")
      .def(
          "to_json",
          [](const Model& model, bool with_values) {
            return frontend::graph_to_json(model.graph, with_values);
          },
          py::arg("with_values") = true, "The model as mctsat graph JSON text")
      .def(
          "to_dot",
          [](const Model& model) { return frontend::graph_to_dot(model.graph, model.name); },
          "The model as Graphviz DOT text")
      .def(
          "to_svg",
          [](const Model& model) { return frontend::graph_to_svg(model.graph, model.name); },
          "The model drawn by Graphviz, as SVG text")
      .def(
          "_repr_svg_",
          [](const Model& model) { return frontend::graph_to_svg(model.graph, model.name); },
          "The drawing a notebook shows (IPython's rich display)")
      .def(
          "save",
          [](const Model& model, const std::string& path) {
            frontend::save_model(model.graph, path);
          },
          py::arg("path"), "Writes .json, .onnx, .dot or .svg by the path's extension")
      .def("__len__", [](const Model& model) { return model.graph.size(); })
      .def("__repr__", [](const Model& model) {
        return "<mctsat.Model " + model.name + ": " +
               std::to_string(tensor::graph_stats(model.graph).operators) + " operators>";
      });

  m.def(
      "load",
      [](const std::string& name_or_path, const InputShapes& input_shapes,
         const InputValues& input_values) {
        frontend::LoadOptions options{input_shapes, input_values};
        py::gil_scoped_release release;
        return make_model(name_or_path, frontend::load_model(name_or_path, options));
      },
      py::arg("model"), py::arg("input_shapes") = InputShapes{},
      py::arg("input_values") = InputValues{},
      "A zoo model by name or a model file (.onnx, TASO .model, .json); input_shapes and "
      "input_values as --input-shape and --input-value (ONNX only)");
  m.def(
      "from_onnx",
      [](py::bytes data, const std::string& name, const InputShapes& input_shapes,
         const InputValues& input_values) {
        const std::string bytes = data;
        py::gil_scoped_release release;
        return make_model(name, frontend::graph_from_onnx(bytes, name, input_shapes, input_values));
      },
      py::arg("data"), py::arg("name") = "<onnx>", py::arg("input_shapes") = InputShapes{},
      py::arg("input_values") = InputValues{}, "A model from ONNX bytes (a serialized ModelProto)");
  m.def(
      "from_json",
      [](const std::string& text, const std::string& name) {
        return make_model(name, frontend::graph_from_json(text, name));
      },
      py::arg("text"), py::arg("name") = "<json>", "A model from mctsat graph JSON text");
  m.def(
      "zoo",
      [] {
        py::dict models;
        for (const auto& entry : frontend::zoo_models())
          models[py::str(std::string(entry.name))] = std::string(entry.description);
        return models;
      },
      "The built-in models: name -> description");
}

}  // namespace mctsat::python
