// Bool and integer tensors in the oneDNN executor and in the measured speedup: masks and indices
// of real exports (an int64 Gather index, a bool Where mask, int64 arithmetic) run on the host,
// exactly, beside the float32 operators oneDNN runs; a catalog operator on such a tensor is a
// located error.
#include <cstdint>
#include <map>
#include <string>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/onnx_import.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "runtime/dnnl_executor.hpp"
#include "runtime/measured_speedup.hpp"
#include "support/error.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;

namespace {

void add_typed_input(onnx::GraphProto& g, const std::string& name, int type,
                     const std::vector<std::int64_t>& shape) {
  auto* info = g.add_input();
  add_value_info(info, name, shape);
  info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
}

// y = Relu(Where(mask, Gather(table, ids), x)) (float32), and n = ids * big + big (int64).
onnx::ModelProto masked_lookup() {
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_typed_input(g, "ids", onnx::TensorProto::INT64, {4});
  add_typed_input(g, "mask", onnx::TensorProto::BOOL, {4, 3});
  add_value_info(g.add_input(), "x", {4, 3});
  add_initializer(g, "table", {10, 3});
  auto* big = g.add_initializer();
  big->set_name("big");
  big->set_data_type(onnx::TensorProto::INT64);
  big->add_int64_data(std::int64_t{1} << 40);
  add_node(g, "Gather", {"table", "ids"}, {"rows"});
  add_node(g, "Where", {"mask", "rows", "x"}, {"picked"});
  add_node(g, "Relu", {"picked"}, {"y"});
  add_node(g, "Mul", {"ids", "big"}, {"scaled"});
  add_node(g, "Add", {"scaled", "big"}, {"n"});
  add_value_info(g.add_output(), "y", {4, 3});
  auto* n = g.add_output();
  add_value_info(n, "n", {4});
  n->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  return model;
}

}  // namespace

TEST_CASE("the oneDNN executor runs bool and int64 tensors exactly, as the interpreter does") {
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(masked_lookup()), "lookup.onnx");
  const std::map<std::string, tensor::Tensor> inputs = {
      {"ids", tensor::Tensor({4}, {0, 9, 3, 3})},
      {"mask", tensor::Tensor({4, 3}, {1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0})},
      {"x", tensor::Tensor({4, 3}, {-1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12})}};
  runtime::ExecutorOptions options;
  options.opaque_evaluator = frontend::onnx_opaque_evaluator();
  runtime::DnnlExecutor executor(graph, options);
  const auto got = executor.run(inputs);
  const auto want = tensor::interpret(graph, inputs, frontend::with_onnx_opaque_evaluator({}));
  REQUIRE(got.size() == 2);
  REQUIRE(got[0].shape == want[0].shape);
  for (std::size_t i = 0; i < want[0].data.size(); ++i)
    CHECK(got[0].data[i] == doctest::Approx(want[0].data[i]).epsilon(1e-6));
  // 9 * 2^40 + 2^40 needs more than float32's 24 bits: exact on the host.
  CHECK(got[1].data == want[1].data);
  CHECK(got[1].data[1] == 10.0 * static_cast<double>(std::int64_t{1} << 40));
}

TEST_CASE("--measure's speedup measurement runs a model with bool and int64 inputs") {
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(masked_lookup()), "lookup.onnx");
  runtime::SpeedupMeasureOptions options;
  options.runs = 2;
  options.warmup = 1;
  options.instances = 1;
  options.opaque_evaluator = frontend::onnx_opaque_evaluator();
  runtime::SpeedupMeasurement measurement(graph, options);
  const auto report = measurement.measure(graph);
  CHECK(report["outputs_finite"] == true);
  CHECK(report["max_relative_difference"].get<double>() == 0.0);
}

TEST_CASE("random inputs respect the element type: integers for int64, 0 and 1 for bool") {
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(masked_lookup()), "lookup.onnx");
  const auto inputs = tensor::random_inputs(graph, 7);
  for (double v : inputs.at("ids").data) CHECK((v == -1 || v == 0 || v == 1));
  for (double v : inputs.at("mask").data) CHECK((v == 0 || v == 1));
}

TEST_CASE("a catalog operator on a run-time float64 tensor is an error naming the node") {
  // Relu on a float64 input maps onto the catalog's relu, which oneDNN runs in float32 only
  // (integer ones stay opaque and run on the host, as in the first test).
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_typed_input(g, "x", onnx::TensorProto::DOUBLE, {4});
  add_node(g, "Relu", {"x"}, {"r"});
  auto* out = g.add_output();
  add_value_info(out, "r", {4});
  out->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::DOUBLE);
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "double-relu.onnx");
  REQUIRE(graph.node(*graph.find("Relu_1")).op == tensor::Op::kRelu);
  runtime::ExecutorOptions options;
  options.opaque_evaluator = frontend::onnx_opaque_evaluator();
  CHECK_THROWS_WITH_AS(runtime::DnnlExecutor(graph, options),
                       doctest::Contains("Relu_1' on float32 tensors only"), Error);
}
