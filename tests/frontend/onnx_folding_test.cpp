// What the ONNX importer folds and what the ONNX reference operators evaluate: shape computations
// (Shape -> Cast -> Slice -> Concat -> Reshape) become constants so Reshape maps to the catalog;
// empty constants travel inside an opaque operator's payload through export; opaque operators
// (Resize, HardSigmoid) run in the reference interpreter with the values ONNX defines, and on the
// host between the oneDNN executor's primitives.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <doctest/doctest.h>
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "runtime/dnnl_executor.hpp"
#include "support/error.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;
using tensor::Op;

namespace {

onnx::NodeProto* add_constant(onnx::GraphProto& g, const std::string& name,
                              onnx::TensorProto::DataType type, std::vector<std::int64_t> dims,
                              std::vector<double> values) {
  auto* node = add_node(g, "Constant", {}, {name});
  auto* attr = node->add_attribute();
  attr->set_name("value");
  attr->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto& t = *attr->mutable_t();
  t.set_data_type(type);
  for (auto d : dims) t.add_dims(d);
  for (double v : values) {
    if (type == onnx::TensorProto::FLOAT)
      t.add_float_data(static_cast<float>(v));
    else
      t.add_int64_data(static_cast<std::int64_t>(v));
  }
  return node;
}

void set_string(onnx::NodeProto* node, const char* name, const std::string& value) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::STRING);
  attr->set_s(value);
}

int count_op(const tensor::Graph& graph, Op op) {
  return static_cast<int>(std::count_if(graph.nodes().begin(), graph.nodes().end(),
                                        [&](const tensor::Node& n) { return n.op == op; }));
}

tensor::Tensor iota_tensor(tensor::Shape shape) {
  tensor::Tensor t(std::move(shape));
  for (std::size_t i = 0; i < t.data.size(); ++i) t.data[i] = static_cast<double>(i) - 3.0;
  return t;
}

}  // namespace

TEST_CASE("a Reshape whose target shape is computed from Shape folds into a catalog reshape") {
  // x[2,3,4,5] -> Shape -> Cast(int32) -> Cast(int64) -> Slice [0:2] -> Concat with [-1]
  //   -> Reshape(x, ...) = [2, 3, 20]
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 3, 4, 5});
  add_node(g, "Shape", {"x"}, {"shape"});
  set_int(add_node(g, "Cast", {"shape"}, {"shape32"}), "to", onnx::TensorProto::INT32);
  set_int(add_node(g, "Cast", {"shape32"}, {"shape64"}), "to", onnx::TensorProto::INT64);
  add_constant(g, "starts", onnx::TensorProto::INT64, {1}, {0});
  add_constant(g, "ends", onnx::TensorProto::INT64, {1}, {2});
  add_node(g, "Slice", {"shape64", "starts", "ends"}, {"leading"});
  add_constant(g, "rest", onnx::TensorProto::INT64, {1}, {-1});
  set_int(add_node(g, "Concat", {"leading", "rest"}, {"target"}), "axis", 0);
  add_node(g, "Reshape", {"x", "target"}, {"y"});
  add_node(g, "Relu", {"y"}, {"out"});
  add_value_info(g.add_output(), "out", {2, 3, 20});

  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "computed.onnx");
  CHECK(count_op(graph, Op::kOpaque) == 0);
  CHECK(count_op(graph, Op::kReshape) == 1);
  REQUIRE(graph.outputs().size() == 1);
  CHECK(graph.type_of(graph.outputs()[0].tensor).shape == tensor::Shape{2, 3, 20});
  const tensor::Tensor x = iota_tensor({2, 3, 4, 5});
  const auto out = tensor::interpret(graph, {{"x", x}});
  for (std::size_t i = 0; i < x.data.size(); ++i) CHECK(out[0].data[i] == std::max(x.data[i], 0.0));
}

TEST_CASE("an empty constant rides inside the opaque Resize it feeds, through export") {
  // Resize(x, roi = [] (empty), scales = [1, 1, 2, 2]), nearest, asymmetric, floor.
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, 2, 2, 3});
  add_constant(g, "roi", onnx::TensorProto::FLOAT, {0}, {});
  add_constant(g, "scales", onnx::TensorProto::FLOAT, {4}, {1, 1, 2, 2});
  auto* resize = add_node(g, "Resize", {"x", "roi", "scales"}, {"y"});
  set_string(resize, "mode", "nearest");
  set_string(resize, "coordinate_transformation_mode", "asymmetric");
  set_string(resize, "nearest_mode", "floor");
  add_value_info(g.add_output(), "y", {1, 2, 4, 6});

  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "resize.onnx");
  REQUIRE(count_op(graph, Op::kOpaque) == 1);
  const auto opaque = std::find_if(graph.nodes().begin(), graph.nodes().end(),
                                   [](const tensor::Node& n) { return n.op == Op::kOpaque; });
  CHECK(opaque->inputs.size() == 2);  // x and the scales; the empty roi is in the payload
  CHECK(graph.type_of(graph.outputs()[0].tensor).shape == tensor::Shape{1, 2, 4, 6});

  const tensor::Tensor x = iota_tensor({1, 2, 2, 3});
  const auto evaluator = frontend::with_onnx_opaque_evaluator({});
  const auto out = tensor::interpret(graph, {{"x", x}}, evaluator);
  for (std::int64_t c = 0; c < 2; ++c)
    for (std::int64_t i = 0; i < 4; ++i)
      for (std::int64_t j = 0; j < 6; ++j) {
        CAPTURE(c);
        CAPTURE(i);
        CAPTURE(j);
        CHECK(out[0].data[static_cast<std::size_t>((c * 4 + i) * 6 + j)] ==
              x.data[static_cast<std::size_t>((c * 2 + i / 2) * 3 + j / 2)]);
      }

  // Export writes the constant back in front of the Resize; the model passes the checker and
  // imports to the same graph computing the same values.
  const std::string exported = frontend::graph_to_onnx(graph);
  onnx::ModelProto again_proto;
  REQUIRE(again_proto.ParseFromString(exported));
  CHECK_NOTHROW(onnx::checker::check_model(again_proto));
  const tensor::Graph again = frontend::graph_from_onnx(exported, "exported.onnx");
  CHECK(count_op(again, Op::kOpaque) == 1);
  CHECK(tensor::interpret(again, {{"x", x}}, evaluator) == out);
}

TEST_CASE("the reference interpreter runs opaque operators only with the ONNX evaluator") {
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 4});
  auto* hard = add_node(g, "HardSigmoid", {"x"}, {"h"});
  set_float(hard, "alpha", 0.25f);
  add_node(g, "Mul", {"x", "h"}, {"y"});
  add_value_info(g.add_output(), "y", {2, 4});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "hard.onnx");
  REQUIRE(count_op(graph, Op::kOpaque) == 1);
  const tensor::Tensor x = iota_tensor({2, 4});

  CHECK_THROWS_WITH_AS(tensor::interpret(graph, {{"x", x}}),
                       doctest::Contains("opaque operator 'HardSigmoid' cannot be interpreted"),
                       Error);
  const auto out = tensor::interpret(graph, {{"x", x}}, frontend::with_onnx_opaque_evaluator({}));
  for (std::size_t i = 0; i < x.data.size(); ++i) {
    const double h = std::clamp(0.25 * x.data[i] + 0.5, 0.0, 1.0);
    CHECK(out[0].data[i] == doctest::Approx(x.data[i] * h).epsilon(1e-6));
  }
}

TEST_CASE("an opaque operator the reference operators lack is a clear error at its node") {
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, 2, 4, 4});
  auto* lrn = add_node(g, "LRN", {"x"}, {"y"});
  set_int(lrn, "size", 3);
  add_value_info(g.add_output(), "y", {1, 2, 4, 4});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "lrn.onnx");
  CHECK_THROWS_WITH_AS(tensor::interpret(graph, {{"x", iota_tensor({1, 2, 4, 4})}},
                                         frontend::with_onnx_opaque_evaluator({})),
                       doctest::Contains("ONNX LRN is not supported by the reference operators"),
                       Error);
}

TEST_CASE("folding does not materialize a huge constant a small one describes") {
  // ConstantOfShape([100000, 100000]) would be 10^10 values: it stays an (opaque) operator.
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1});
  add_constant(g, "shape", onnx::TensorProto::INT64, {2}, {100000, 100000});
  add_node(g, "ConstantOfShape", {"shape"}, {"big"});
  add_node(g, "Add", {"big", "x"}, {"y"});
  add_value_info(g.add_output(), "y", {100000, 100000});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "big.onnx");
  CHECK(count_op(graph, Op::kOpaque) == 1);
  CHECK_THROWS_WITH_AS(
      tensor::interpret(graph, {{"x", iota_tensor({1})}}, frontend::with_onnx_opaque_evaluator({})),
      doctest::Contains("is too large"), Error);
}

TEST_CASE("the oneDNN executor runs opaque operators on the host with the ONNX evaluator") {
  // Conv -> HardSigmoid (opaque) -> Slice with int64 bounds (opaque; INT64_MAX as the end) -> Relu.
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, 2, 5, 5});
  add_initializer(g, "w", {3, 2, 3, 3});
  auto* conv = add_node(g, "Conv", {"x", "w"}, {"c"});
  set_ints(conv, "pads", {1, 1, 1, 1});
  add_node(g, "HardSigmoid", {"c"}, {"h"});
  add_constant(g, "starts", onnx::TensorProto::INT64, {1}, {1});
  add_constant(g, "ends", onnx::TensorProto::INT64, {1}, {0})
      ->mutable_attribute(0)
      ->mutable_t()
      ->set_int64_data(0, std::numeric_limits<std::int64_t>::max());
  add_constant(g, "axes", onnx::TensorProto::INT64, {1}, {1});
  add_node(g, "Slice", {"h", "starts", "ends", "axes"}, {"s"});
  add_node(g, "Relu", {"s"}, {"y"});
  add_value_info(g.add_output(), "y", {1, 2, 5, 5});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "host.onnx");
  REQUIRE(count_op(graph, Op::kOpaque) == 2);
  const std::map<std::string, tensor::Tensor> inputs = {{"x", iota_tensor({1, 2, 5, 5})}};

  CHECK_THROWS_WITH_AS([&] { runtime::DnnlExecutor plain(graph); }(),
                       doctest::Contains("cannot run the opaque"), Error);
  runtime::ExecutorOptions options;
  options.opaque_evaluator = frontend::onnx_opaque_evaluator();
  runtime::DnnlExecutor executor(graph, options);
  CHECK(executor.host_step_count() == 2);
  const auto got = executor.run(inputs);
  const auto want = tensor::interpret(graph, inputs, frontend::with_onnx_opaque_evaluator({}));
  REQUIRE(got.size() == 1);
  REQUIRE(got[0].shape == want[0].shape);
  for (std::size_t i = 0; i < want[0].data.size(); ++i)
    CHECK(got[0].data[i] == doctest::Approx(want[0].data[i]).epsilon(1e-5));
}
