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
#include "frontend/onnx_reference_ops.hpp"
#include "runtime/dnnl_executor.hpp"
#include "support/error.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/graph_queries.hpp"
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
  // The memory budget refuses the 10^10-element tensor first (the machine's memory is smaller);
  // on a larger machine the opaque evaluator refuses to materialize it.
  try {
    tensor::interpret(graph, {{"x", iota_tensor({1})}}, frontend::with_onnx_opaque_evaluator({}));
    FAIL("expected an error");
  } catch (const Error& e) {
    const std::string message = e.message();
    CHECK((message.find("this process may use") != std::string::npos ||
           message.find("is too large") != std::string::npos));
  }
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

TEST_CASE("tf2onnx's pads, a Concat of a Split of a constant, fold so the opaque Pad is typed") {
  // tf2onnx (opset 11) writes a TensorFlow paddings tensor as ONNX pads through Split + Concat;
  // without evaluating Split, ONNX cannot type the Pad's output. Here pads = [0,0,1,2, 0,0,0,3].
  onnx::ModelProto model = model_shell(11);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "input:0", {1, 2, 3, 3});
  add_constant(g, "paddings", onnx::TensorProto::INT64, {8}, {0, 0, 1, 2, 0, 0, 0, 3});
  auto* split = add_node(g, "Split", {"paddings"}, {"begins", "ends"});
  set_int(split, "axis", 0);
  set_ints(split, "split", {4, 4});
  auto* concat = add_node(g, "Concat", {"begins", "ends"}, {"pads"});
  set_int(concat, "axis", 0);
  add_node(g, "Pad", {"input:0", "pads"}, {"padded:0"});
  // The output's declared shape is unknown: it must come from the folded pads.
  add_value_info(g.add_output(), "padded:0", {0, 0, 0, 0});
  for (auto& dim :
       *g.mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
    dim.set_dim_param("d");
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "tf2onnx.onnx");
  REQUIRE(count_op(graph, Op::kOpaque) == 1);
  CHECK(graph.type_of(graph.outputs()[0].tensor).shape == tensor::Shape{1, 2, 4, 8});
  const auto out = tensor::interpret(graph, {{"input:0", iota_tensor({1, 2, 3, 3})}},
                                     frontend::with_onnx_opaque_evaluator({}));
  REQUIRE(out[0].shape == tensor::Shape{1, 2, 4, 8});
  // Row 0 and columns 0-1 are padding; (1, 2) holds x[0, 0, 0, 0] = -3.
  CHECK(out[0].data[0] == 0.0);
  CHECK(out[0].data[8 + 2] == -3.0);
}

TEST_CASE("the reference Split and Pad follow the ONNX specification") {
  auto run = [](const onnx::NodeProto& node, std::int64_t opset,
                std::vector<std::optional<frontend::OnnxValue>> inputs) {
    return frontend::evaluate_onnx_node(node, opset, inputs);
  };
  auto ints = [](std::vector<double> v) {
    const auto n = static_cast<std::int64_t>(v.size());
    return frontend::OnnxValue{tensor::Tensor({n}, std::move(v)), tensor::DType::kInt64};
  };
  const frontend::OnnxValue x{tensor::Tensor({2, 3}, {1, 2, 3, 4, 5, 6}), tensor::DType::kFloat32};
  onnx::NodeProto split;
  split.set_op_type("Split");
  split.add_input("x");
  split.add_input("sizes");
  split.add_output("a");
  split.add_output("b");
  set_int(&split, "axis", 1);
  const auto parts = run(split, 13, {x, ints({1, 2})});
  REQUIRE(parts.size() == 2);
  CHECK(parts[0]->value == tensor::Tensor({2, 1}, {1, 4}));
  CHECK(parts[1]->value == tensor::Tensor({2, 2}, {2, 3, 5, 6}));
  split.clear_attribute();  // axis 0, equal parts
  const auto halves = run(split, 13, {frontend::OnnxValue{tensor::Tensor({4}, {1, 2, 3, 4})}});
  CHECK(halves[1]->value == tensor::Tensor({2}, {3, 4}));
  set_int(&split, "axis", 1);
  CHECK_THROWS_WITH_AS(run(split, 13, {x, ints({1, 1})}), doctest::Contains("do not add up"),
                       Error);

  onnx::NodeProto pad;
  pad.set_op_type("Pad");
  pad.add_input("x");
  pad.add_input("pads");
  pad.add_output("y");
  const frontend::OnnxValue fill{tensor::Tensor({}, std::vector<double>{9}),
                                 tensor::DType::kFloat32};
  CHECK(run(pad, 13, {x, ints({0, 1, 1, 0}), fill})[0]->value ==
        tensor::Tensor({3, 4}, {9, 1, 2, 3, 9, 4, 5, 6, 9, 9, 9, 9}));
  CHECK(run(pad, 13, {x, ints({0, -1, 0, 0})})[0]->value == tensor::Tensor({2, 2}, {2, 3, 5, 6}));
  set_string(&pad, "mode", "reflect");
  CHECK(run(pad, 13, {x, ints({0, 2, 0, 1})})[0]->value ==
        tensor::Tensor({2, 6}, {3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5}));
  pad.mutable_attribute(0)->set_s("edge");
  CHECK(run(pad, 13, {x, ints({1, 1, 0, 0})})[0]->value ==
        tensor::Tensor({3, 4}, {1, 1, 2, 3, 1, 1, 2, 3, 4, 4, 5, 6}));
}

TEST_CASE("the reference Clip takes its bounds from inputs (opset 11 on) or attributes") {
  const frontend::OnnxValue x{tensor::Tensor({4}, {-2, -0.5, 0.5, 2}), tensor::DType::kFloat32};
  const frontend::OnnxValue low{tensor::Tensor({}, std::vector<double>{-1}),
                                tensor::DType::kFloat32};
  onnx::NodeProto clip;
  clip.set_op_type("Clip");
  clip.add_input("x");
  clip.add_input("min");
  clip.add_output("y");
  std::vector<std::optional<frontend::OnnxValue>> inputs{x, low};
  CHECK(frontend::evaluate_onnx_node(clip, 13, inputs)[0]->value ==
        tensor::Tensor({4}, {-1, -0.5, 0.5, 2}));  // no max: not clipped above
  set_float(&clip, "max", 1.0f);
  const std::vector<std::optional<frontend::OnnxValue>> only_x{x};
  CHECK(frontend::evaluate_onnx_node(clip, 6, only_x)[0]->value ==
        tensor::Tensor({4}, {-2, -0.5, 0.5, 1}));  // opset 6: the attribute
}

TEST_CASE("an If whose condition folds to a constant becomes the branch it takes") {
  // cond = (Size(x) == 8): true for x[2, 4]; then Relu(x) with an initializer of its own, else
  // Sigmoid(x). Without folding the If stays opaque with an output type ONNX cannot infer.
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 4});
  add_node(g, "Size", {"x"}, {"n"});
  add_constant(g, "eight", onnx::TensorProto::INT64, {}, {8});
  add_node(g, "Equal", {"n", "eight"}, {"cond"});
  auto* branch_if = add_node(g, "If", {"cond"}, {"y"});
  auto branch = [](const char* name, const char* op, const char* out) {
    onnx::GraphProto b;
    b.set_name(name);
    add_initializer(b, std::string(name) + "_scale", {1});
    add_node(b, op, {"x"}, {std::string(out) + "_act"});
    add_node(b, "Mul", {std::string(out) + "_act", std::string(name) + "_scale"}, {out});
    add_value_info(b.add_output(), out, {2, 4});
    return b;
  };
  auto* then_attr = branch_if->add_attribute();
  then_attr->set_name("then_branch");
  then_attr->set_type(onnx::AttributeProto::GRAPH);
  *then_attr->mutable_g() = branch("then", "Relu", "then_out");
  auto* else_attr = branch_if->add_attribute();
  else_attr->set_name("else_branch");
  else_attr->set_type(onnx::AttributeProto::GRAPH);
  *else_attr->mutable_g() = branch("else", "Sigmoid", "else_out");
  add_value_info(g.add_output(), "y", {2, 4});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "if.onnx");
  CHECK(count_op(graph, Op::kOpaque) == 0);
  CHECK(count_op(graph, Op::kRelu) == 1);
  CHECK(count_op(graph, Op::kSigmoid) == 0);
}

TEST_CASE("the reference Conv (any rank) and LSTM follow the ONNX specification") {
  auto value = [](tensor::Shape shape, std::vector<double> data) {
    return frontend::OnnxValue{tensor::Tensor(std::move(shape), std::move(data)),
                               tensor::DType::kFloat64};
  };
  // 1-D: x = [1 2 3 4 5], w = [1 0 -1], pads 1, stride 2, dilation 1, bias 10:
  // windows over [0 1 2 3 4 5 0] at 0, 2, 4: 0-2, 2-4, 4-0 -> 8, 8, 14.
  onnx::NodeProto conv;
  conv.set_op_type("Conv");
  for (const char* in : {"x", "w", "b"}) conv.add_input(in);
  conv.add_output("y");
  set_ints(&conv, "pads", {1, 1});
  set_ints(&conv, "strides", {2});
  using Values = std::vector<std::optional<frontend::OnnxValue>>;
  const auto y = frontend::evaluate_onnx_node(
      conv, 13,
      Values{value({1, 1, 5}, {1, 2, 3, 4, 5}), value({1, 1, 3}, {1, 0, -1}), value({1}, {10})});
  CHECK(y[0]->value == tensor::Tensor({1, 1, 3}, {8, 8, 14}));
  // Dilation 2, no pads: taps at 0, 2, 4 -> 1 - 5 = -4 (no bias).
  conv.clear_attribute();
  set_ints(&conv, "dilations", {2});
  conv.mutable_input()->RemoveLast();
  const auto dilated = frontend::evaluate_onnx_node(
      conv, 13, Values{value({1, 1, 5}, {1, 2, 3, 4, 5}), value({1, 1, 3}, {1, 0, -1})});
  CHECK(dilated[0]->value == tensor::Tensor({1, 1, 1}, {-4}));

  // LSTM, hidden 1, input 1, one step, W = R = 0 but the bias: gates i=o=f=sigmoid(0)=0.5 with
  // Wb_c = 1: c = 0.5 * c0 + 0.5 * tanh(1), h = 0.5 * tanh(c).
  onnx::NodeProto lstm;
  lstm.set_op_type("LSTM");
  for (const char* in : {"x", "w", "r", "b", "", "h0", "c0"}) lstm.add_input(in);
  for (const char* out : {"y", "y_h", "y_c"}) lstm.add_output(out);
  set_int(&lstm, "hidden_size", 1);
  std::vector<std::optional<frontend::OnnxValue>> in = {value({1, 1, 1}, {3}),
                                                        value({1, 4, 1}, {0, 0, 0, 0}),
                                                        value({1, 4, 1}, {0, 0, 0, 0}),
                                                        value({1, 8}, {0, 0, 0, 1, 0, 0, 0, 0}),
                                                        std::nullopt,
                                                        value({1, 1, 1}, {0}),
                                                        value({1, 1, 1}, {2})};
  const auto out = frontend::evaluate_onnx_node(lstm, 13, in);
  const double c = 0.5 * 2 + 0.5 * std::tanh(1.0);
  CHECK(out[2]->value.data[0] == doctest::Approx(c));
  CHECK(out[1]->value.data[0] == doctest::Approx(0.5 * std::tanh(c)));
  CHECK(out[0]->value.shape == tensor::Shape{1, 1, 1, 1});
}

TEST_CASE("Dropout in training mode with a ratio of 0 and an unread mask is the identity") {
  // What torchvision's Swin exports for its attention dropout.
  for (const float ratio : {0.0f, 0.5f}) {
    CAPTURE(ratio);
    onnx::ModelProto model = model_shell(13);
    onnx::GraphProto& g = *model.mutable_graph();
    add_value_info(g.add_input(), "x", {2, 3});
    add_constant(g, "ratio", onnx::TensorProto::FLOAT, {}, {ratio});
    auto* training = add_node(g, "Constant", {}, {"training"});
    auto* attr = training->add_attribute();
    attr->set_name("value");
    attr->set_type(onnx::AttributeProto::TENSOR);
    attr->mutable_t()->set_data_type(onnx::TensorProto::BOOL);
    attr->mutable_t()->add_int32_data(1);
    add_node(g, "Dropout", {"x", "ratio", "training"}, {"y", "mask"});
    add_node(g, "Relu", {"y"}, {"out"});
    add_value_info(g.add_output(), "out", {2, 3});
    const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "dropout.onnx");
    if (ratio == 0.0f) {
      CHECK(count_op(graph, Op::kOpaque) == 0);
      CHECK(count_op(graph, Op::kDropout) == 1);
      const tensor::Tensor x = iota_tensor({2, 3});
      const auto out = tensor::interpret(graph, {{"x", x}});
      for (std::size_t i = 0; i < x.data.size(); ++i)
        CHECK(out[0].data[i] == std::max(x.data[i], 0.0));
    } else {
      CHECK(count_op(graph, Op::kOpaque) == 1);  // a real dropout stays opaque
    }
  }
}
