// ONNX graph scopes on import and export: files whose nodes are not in topological order (ONNX
// Runtime runs them) are sorted on import, and If and Loop nodes whose subgraphs read values of
// the enclosing graph (weights, activations) keep those values and name them correctly on export,
// so that the written file passes the ONNX checker and imports back to the same graph; the opaque
// evaluator runs them with those values.
#include <algorithm>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "frontend/onnx_topological_sort.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;
using tensor::Op;

namespace {

// x -> Relu -> Sigmoid -> Add(., w) -> y, its nodes in the file in `order` (indexes into that
// chain).
onnx::ModelProto chain(const std::vector<int>& order) {
  onnx::ModelProto sorted = model_shell();
  onnx::GraphProto& g = *sorted.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 3});
  add_initializer(g, "w", {2, 3});
  add_node(g, "Relu", {"x"}, {"a"});
  add_node(g, "Sigmoid", {"a"}, {"b"});
  add_node(g, "Add", {"b", "w"}, {"y"});
  add_value_info(g.add_output(), "y", {2, 3});
  onnx::ModelProto model = sorted;
  model.mutable_graph()->clear_node();
  for (int k : order) *model.mutable_graph()->add_node() = g.node(k);
  return model;
}

std::vector<std::string> node_outputs(const onnx::GraphProto& graph) {
  std::vector<std::string> outputs;
  for (const auto& node : graph.node()) outputs.push_back(node.output(0));
  return outputs;
}

void set_graph(onnx::NodeProto* node, const char* name, onnx::GraphProto graph) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::GRAPH);
  *attr->mutable_g() = std::move(graph);
}

void set_elem_type(onnx::ValueInfoProto* info, int type) {
  info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
}

// y = If(cond) then x2 + w else x2 * w, with x2 = Relu(x) of the enclosing graph and w one of its
// initializers, read only by the branches.
onnx::ModelProto if_reading_outer_values() {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 3});
  auto* cond = g.add_input();
  cond->set_name("cond");
  set_elem_type(cond, onnx::TensorProto::BOOL);
  cond->mutable_type()->mutable_tensor_type()->mutable_shape();
  add_initializer(g, "w", {2, 3});
  add_node(g, "Relu", {"x"}, {"x2"});
  auto branch = [](const char* op, const char* out) {
    onnx::GraphProto b;
    b.set_name(out);
    add_node(b, op, {"x2", "w"}, {out});
    add_value_info(b.add_output(), out, {2, 3});
    return b;
  };
  auto* if_node = add_node(g, "If", {"cond"}, {"y"});
  set_graph(if_node, "then_branch", branch("Add", "sum"));
  set_graph(if_node, "else_branch", branch("Mul", "product"));
  add_value_info(g.add_output(), "y", {2, 3});
  return model;
}

// y = Loop(3 iterations) of v <- v + w from v = Relu(x), w an initializer read only by the body.
onnx::ModelProto loop_reading_outer_values() {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 3});
  add_initializer(g, "w", {2, 3});
  auto* trips = g.add_initializer();
  trips->set_name("trips");
  trips->set_data_type(onnx::TensorProto::INT64);
  trips->add_int64_data(3);
  add_node(g, "Relu", {"x"}, {"v0"});
  onnx::GraphProto body;
  body.set_name("body");
  auto* iteration = body.add_input();
  iteration->set_name("i");
  set_elem_type(iteration, onnx::TensorProto::INT64);
  iteration->mutable_type()->mutable_tensor_type()->mutable_shape();
  auto* keep_going = body.add_input();
  keep_going->set_name("c_in");
  set_elem_type(keep_going, onnx::TensorProto::BOOL);
  keep_going->mutable_type()->mutable_tensor_type()->mutable_shape();
  add_value_info(body.add_input(), "v_in", {2, 3});
  add_node(body, "Identity", {"c_in"}, {"c_out"});
  add_node(body, "Add", {"v_in", "w"}, {"v_out"});
  auto* c_out = body.add_output();
  c_out->set_name("c_out");
  set_elem_type(c_out, onnx::TensorProto::BOOL);
  c_out->mutable_type()->mutable_tensor_type()->mutable_shape();
  add_value_info(body.add_output(), "v_out", {2, 3});
  auto* loop = add_node(g, "Loop", {"trips", "", "v0"}, {"y"});
  set_graph(loop, "body", std::move(body));
  add_value_info(g.add_output(), "y", {2, 3});
  return model;
}

// Exports `graph` (graph_to_onnx runs the ONNX checker on the file and throws if it fails).
onnx::ModelProto exported(const tensor::Graph& graph) {
  std::string bytes;
  REQUIRE_NOTHROW(bytes = frontend::graph_to_onnx(graph, "scopes"));
  onnx::ModelProto written;
  REQUIRE(written.ParseFromString(bytes));
  return written;
}

bool has_initializer(const onnx::GraphProto& graph, const std::string& name) {
  return std::any_of(graph.initializer().begin(), graph.initializer().end(),
                     [&](const onnx::TensorProto& init) { return init.name() == name; });
}

// The names the nodes of `graph` read.
std::vector<std::string> reads(const onnx::GraphProto& graph) {
  std::vector<std::string> names;
  for (const auto& node : graph.node())
    names.insert(names.end(), node.input().begin(), node.input().end());
  return names;
}

std::vector<Op> ops_in_order(const tensor::Graph& graph) {
  std::vector<Op> ops;
  for (tensor::NodeId id : graph.topological_order()) ops.push_back(graph.node(id).op);
  return ops;
}

}  // namespace

TEST_CASE("sorting an ONNX graph: stable, and a no-op on a sorted graph") {
  onnx::ModelProto sorted = chain({0, 1, 2});
  frontend::sort_topologically(*sorted.mutable_graph());
  CHECK(node_outputs(sorted.graph()) == std::vector<std::string>{"a", "b", "y"});
  onnx::ModelProto reversed = chain({2, 1, 0});
  frontend::sort_topologically(*reversed.mutable_graph());
  CHECK(node_outputs(reversed.graph()) == std::vector<std::string>{"a", "b", "y"});

  // Independent nodes keep their file order; an If comes after what its branches read.
  onnx::ModelProto model = if_reading_outer_values();
  onnx::GraphProto& g = *model.mutable_graph();
  add_node(g, "Sigmoid", {"x"}, {"s"});
  add_value_info(g.add_output(), "s", {2, 3});
  std::swap(*g.mutable_node(0), *g.mutable_node(1));  // If (reads x2 in its branches), Relu, ...
  CHECK(node_outputs(g) == std::vector<std::string>{"y", "x2", "s"});
  frontend::sort_topologically(g);
  CHECK(node_outputs(g) == std::vector<std::string>{"x2", "y", "s"});
}

TEST_CASE("a file whose nodes are not in topological order imports as the sorted file does") {
  const tensor::Graph sorted = frontend::graph_from_onnx(bytes_of(chain({0, 1, 2})), "sorted");
  for (const auto& order : {std::vector<int>{2, 1, 0}, {1, 0, 2}, {2, 0, 1}}) {
    CAPTURE(order);
    const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(chain(order)), "unsorted");
    CHECK(ops_in_order(graph) == ops_in_order(sorted));
    const std::map<std::string, tensor::Tensor> inputs = {
        {"x", tensor::Tensor({2, 3}, {-1, 2, -3, 4, -5, 6})}};
    CHECK(tensor::interpret(graph, inputs).at(0).data ==
          tensor::interpret(sorted, inputs).at(0).data);
  }
}

TEST_CASE("an If whose branches read outer-scope weights and activations exports a valid file") {
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(if_reading_outer_values()), "if");
  // The opaque If takes its condition and, after it, what its branches read.
  const tensor::Node& if_node = graph.node(*graph.find("If_2"));
  REQUIRE(if_node.op == Op::kOpaque);
  REQUIRE(if_node.inputs.size() == 3);
  CHECK(graph.node(if_node.inputs[1].node).op == Op::kRelu);
  CHECK(graph.node(if_node.inputs[2].node).op == Op::kWeight);

  const onnx::ModelProto written = exported(graph);
  CHECK(has_initializer(written.graph(), "w"));
  const onnx::NodeProto* if_written = nullptr;
  std::string relu_output;
  for (const auto& node : written.graph().node()) {
    if (node.op_type() == "If") if_written = &node;
    if (node.op_type() == "Relu") relu_output = node.output(0);
  }
  REQUIRE(if_written != nullptr);
  for (const auto& attribute : if_written->attribute())
    CHECK(reads(attribute.g()) == std::vector<std::string>{relu_output, "w"});
  // And it imports back to the same graph.
  CHECK(ops_in_order(frontend::graph_from_onnx(bytes_of(written), "if-again")) ==
        ops_in_order(graph));
}

TEST_CASE("a Loop whose body reads an outer-scope weight exports a valid file") {
  const tensor::Graph graph =
      frontend::graph_from_onnx(bytes_of(loop_reading_outer_values()), "loop");
  const onnx::ModelProto written = exported(graph);
  CHECK(has_initializer(written.graph(), "w"));
  CHECK(ops_in_order(frontend::graph_from_onnx(bytes_of(written), "loop-again")) ==
        ops_in_order(graph));
}

TEST_CASE("the opaque evaluator runs If and Loop with the outer values their subgraphs read") {
  const tensor::Tensor x({2, 3}, {-1, 2, -3, 4, -5, 6});
  std::vector<double> w;
  for (int i = 0; i < 6; ++i) w.push_back(0.01f * static_cast<float>(i % 17) - 0.05f);
  const auto options = frontend::with_onnx_opaque_evaluator({});

  const tensor::Graph if_graph =
      frontend::graph_from_onnx(bytes_of(if_reading_outer_values()), "if");
  for (const double cond : {1.0, 0.0}) {
    CAPTURE(cond);
    const auto y =
        tensor::interpret(if_graph, {{"x", x}, {"cond", tensor::Tensor({}, cond)}}, options);
    REQUIRE(y.size() == 1);
    for (std::size_t i = 0; i < 6; ++i) {
      const double relu = std::max(x.data[i], 0.0);
      CHECK(y[0].data[i] == doctest::Approx(cond != 0 ? relu + w[i] : relu * w[i]));
    }
  }

  const tensor::Graph loop_graph =
      frontend::graph_from_onnx(bytes_of(loop_reading_outer_values()), "loop");
  const auto y = tensor::interpret(loop_graph, {{"x", x}}, options);
  REQUIRE(y.size() == 1);
  for (std::size_t i = 0; i < 6; ++i)
    CHECK(y[0].data[i] == doctest::Approx(std::max(x.data[i], 0.0) + 3 * w[i]));
}
