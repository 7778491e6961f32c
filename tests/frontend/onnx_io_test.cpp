// ONNX import and export on small models built with ONNX's protobuf API: the mappings (and the
// weights they fold), opaque operators kept and written back, the export round trip (import ->
// export -> import gives the same graph, also through JSON), and errors for bad input.
#include <string>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/graph_json.hpp"
#include "frontend/model_io.hpp"
#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;
using tensor::Op;

namespace {

// A small CNN classifier: Conv (bias, pads 1) -> Relu -> MaxPool -> Flatten -> Gemm (transB,
// alpha) -> Softmax.
onnx::ModelProto classifier() {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "image", {1, 3, 8, 8});
  add_initializer(g, "conv.w", {4, 3, 3, 3});
  add_initializer(g, "conv.b", {4});
  add_initializer(g, "fc.w", {5, 64});
  add_initializer(g, "fc.b", {5});
  auto* conv = add_node(g, "Conv", {"image", "conv.w", "conv.b"}, {"c"});
  set_ints(conv, "pads", {1, 1, 1, 1});
  set_ints(conv, "kernel_shape", {3, 3});
  add_node(g, "Relu", {"c"}, {"r"});
  auto* pool = add_node(g, "MaxPool", {"r"}, {"p"});
  set_ints(pool, "kernel_shape", {2, 2});
  set_ints(pool, "strides", {2, 2});
  add_node(g, "Flatten", {"p"}, {"f"});
  auto* gemm = add_node(g, "Gemm", {"f", "fc.w", "fc.b"}, {"logits"});
  set_int(gemm, "transB", 1);
  set_float(gemm, "alpha", 0.5f);
  add_node(g, "Softmax", {"logits"}, {"probs"});
  add_value_info(g.add_output(), "probs", {1, 5});
  return model;
}

std::vector<Op> ops_of(const tensor::Graph& graph) {
  std::vector<Op> ops;
  for (tensor::NodeId id : graph.topological_order()) {
    const Op op = graph.node(id).op;
    if (op != Op::kInput && op != Op::kWeight) ops.push_back(op);
  }
  return ops;
}

}  // namespace

TEST_CASE("ONNX operators map onto the catalog, constant operands folded into weights") {
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(classifier()), "classifier.onnx");
  CHECK(ops_of(graph) == std::vector<Op>{Op::kConv2d, Op::kEwAdd, Op::kRelu, Op::kPoolMax,
                                         Op::kFlatten, Op::kMatmul, Op::kEwAdd, Op::kSoftmax});
  const tensor::Node& conv = graph.node(*graph.find("Conv_1/conv2d"));
  CHECK(conv.attrs == tensor::Attrs{std::int64_t{1}, std::int64_t{1},
                                    static_cast<std::int64_t>(tensor::Padding::kSame),
                                    std::int64_t{0}});
  // Gemm's transposed and scaled operand is one 64 x 5 weight: 0.5 * fc.w^T.
  const tensor::Node& matmul = graph.node(*graph.find("Gemm_5/matmul"));
  const tensor::Node& fc = graph.node(matmul.inputs[1].node);
  REQUIRE(fc.op == Op::kWeight);
  REQUIRE(fc.value);
  CHECK(fc.value->shape == tensor::Shape{64, 5});
  const double original = 0.01 * ((1 * 64 + 2) % 17) - 0.05;  // fc.w[1][2]
  CHECK(fc.value->data[2 * 5 + 1] == doctest::Approx(0.5 * original).epsilon(1e-6));
  CHECK(graph.outputs().at(0).name == "probs");
  CHECK(graph.node(*graph.find("image")).op == Op::kInput);
  const auto out = tensor::interpret(graph, tensor::random_inputs(graph, 3));
  double sum = 0;
  for (double p : out.at(0).data) sum += p;
  CHECK(sum == doctest::Approx(1.0));
}

TEST_CASE("import -> export -> import gives the same graph, directly and through JSON") {
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(classifier()), "classifier.onnx");
  const tensor::Graph again = frontend::graph_from_onnx(frontend::graph_to_onnx(graph), "again");
  CHECK(frontend::graph_to_json(again) == frontend::graph_to_json(graph));
  const tensor::Graph via_json = frontend::graph_from_onnx(
      frontend::graph_to_onnx(frontend::graph_from_json(frontend::graph_to_json(graph))),
      "via-json");
  CHECK(frontend::graph_to_json(via_json) == frontend::graph_to_json(graph));
  const auto inputs = tensor::random_inputs(graph, 7);
  CHECK(tensor::interpret(again, inputs) == tensor::interpret(graph, inputs));
}

TEST_CASE("operators outside the catalog stay opaque and are written back unchanged") {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 6});
  auto* leaky = add_node(g, "LeakyRelu", {"x"}, {"l"});
  set_float(leaky, "alpha", 0.25f);
  add_node(g, "Relu", {"l"}, {"y"});
  add_value_info(g.add_output(), "y", {2, 6});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "leaky.onnx");
  const tensor::Node& opaque = graph.node(*graph.find("LeakyRelu_1"));
  REQUIRE(opaque.op == Op::kOpaque);
  CHECK(opaque.opaque->type == "LeakyRelu");
  CHECK(opaque.outputs.at(0) == tensor::TensorType{{2, 6}, tensor::DType::kFloat32});
  // Through JSON and back to ONNX, the node keeps its attribute.
  const std::string exported =
      frontend::graph_to_onnx(frontend::graph_from_json(frontend::graph_to_json(graph)), "leaky");
  onnx::ModelProto written;
  REQUIRE(written.ParseFromString(exported));
  REQUIRE(written.graph().node_size() == 2);
  const onnx::NodeProto& node = written.graph().node(0);
  CHECK(node.op_type() == "LeakyRelu");
  REQUIRE(node.attribute_size() == 1);
  CHECK(node.attribute(0).f() == 0.25f);
  CHECK(node.input(0) == "x");
  CHECK(written.graph().node(1).output(0) == "y");
}

namespace {
// A model of one 2 -> 2 channel 3x3 convolution on 1x2x8x8 with the given pads and strides.
onnx::ModelProto padded_conv(std::vector<std::int64_t> pads, std::int64_t stride,
                             std::int64_t out) {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, 2, 8, 8});
  add_initializer(g, "w", {2, 2, 3, 3});
  auto* conv = add_node(g, "Conv", {"x", "w"}, {"y"});
  set_ints(conv, "pads", std::move(pads));
  set_ints(conv, "strides", {stride, stride});
  add_value_info(g.add_output(), "y", {1, 2, out, out});
  return model;
}
}  // namespace

TEST_CASE("PyTorch's symmetric stride-2 padding maps to SAME_LOWER and computes ONNX's result") {
  // Pads 1 on each side, stride 2: ONNX pads one cell before the data, where SAME would pad it
  // after (its total is 1), so the convolution is SAME_LOWER.
  const tensor::Graph graph =
      frontend::graph_from_onnx(bytes_of(padded_conv({1, 1, 1, 1}, 2, 4)), "conv.onnx");
  REQUIRE(ops_of(graph) == std::vector<Op>{Op::kConv2d});
  const tensor::Node& conv = graph.node(*graph.find("Conv_1"));
  CHECK(conv.attrs == tensor::Attrs{std::int64_t{2}, std::int64_t{2},
                                    static_cast<std::int64_t>(tensor::Padding::kSameLower),
                                    std::int64_t{0}});
  // ONNX's definition, written out: y[o][r][c] = sum w[o][i][ky][kx] x[i][2r - 1 + ky][2c - 1 + kx]
  // over the cells inside the input.
  const tensor::Tensor x = tensor::random_tensor({1, 2, 8, 8}, 5, "x");
  const tensor::Tensor& w = *graph.node(conv.inputs[1].node).value;
  const tensor::Tensor y = tensor::interpret(graph, {{"x", x}}).at(0);
  REQUIRE(y.shape == tensor::Shape{1, 2, 4, 4});
  for (int o = 0; o < 2; ++o)
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        double sum = 0;
        for (int i = 0; i < 2; ++i)
          for (int ky = 0; ky < 3; ++ky)
            for (int kx = 0; kx < 3; ++kx) {
              const int row = 2 * r - 1 + ky, col = 2 * c - 1 + kx;
              if (row < 0 || row >= 8 || col < 0 || col >= 8) continue;
              sum += w.data[static_cast<std::size_t>(((o * 2 + i) * 3 + ky) * 3 + kx)] *
                     x.data[static_cast<std::size_t>((i * 8 + row) * 8 + col)];
            }
        CHECK(y.data[static_cast<std::size_t>((o * 4 + r) * 4 + c)] == doctest::Approx(sum));
      }
  // Exported with explicit pads (1 before, none after) and imported again: the same graph.
  const tensor::Graph again = frontend::graph_from_onnx(frontend::graph_to_onnx(graph), "again");
  CHECK(frontend::graph_to_json(again) == frontend::graph_to_json(graph));
}

TEST_CASE("padding that is not SAME, SAME_LOWER or VALID keeps a convolution opaque") {
  // Pads 2 on each side grow the output (10x10); pads only after the data shift the windows.
  CHECK(ops_of(frontend::graph_from_onnx(bytes_of(padded_conv({2, 2, 2, 2}, 1, 10)), "a")) ==
        std::vector<Op>{Op::kOpaque});
  CHECK(ops_of(frontend::graph_from_onnx(bytes_of(padded_conv({0, 0, 2, 2}, 1, 8)), "b")) ==
        std::vector<Op>{Op::kOpaque});
}

TEST_CASE("export computes the weights rewrites create; weights without values travel as inputs") {
  tensor::GraphBuilder b;
  const auto x = b.input("x", {1, 2, 5, 5});
  const auto w3 =
      b.weight("w3", {2, 2, 3, 3},
               std::make_shared<tensor::Tensor>(tensor::random_tensor({2, 2, 3, 3}, 1, "w3")));
  const auto w1 =
      b.weight("w1", {2, 2, 1, 1},
               std::make_shared<tensor::Tensor>(tensor::random_tensor({2, 2, 1, 1}, 1, "w1")));
  const auto big = b.add1(Op::kEnlarge, {w1, w3}, {}, "enlarged");
  const auto y =
      b.conv2d(x, b.concat(0, {w3, big}), 1, 1, tensor::Padding::kSame, tensor::Activation::kRelu);
  const auto free = b.weight("free", {1, 4, 1, 1});
  b.output("out", b.ewmul(y, free));
  const tensor::Graph graph = std::move(b).finish();
  onnx::ModelProto written;
  REQUIRE(written.ParseFromString(frontend::graph_to_onnx(graph, "rewritten")));
  CHECK(written.graph().initializer_size() == 1);  // concat(w3, enlarge(w1, w3)), folded
  CHECK(written.graph().input_size() == 2);        // x and the weight without values
  // Read back: the weight without values is a weight again, the relu the fused activation again.
  const tensor::Graph again = frontend::graph_from_onnx(bytes_of(written), "rewritten.onnx");
  CHECK(ops_of(again) == std::vector<Op>{Op::kConv2d, Op::kEwMul});
  CHECK(again.node(*again.find("free")).op == Op::kWeight);
  const auto inputs = tensor::random_inputs(graph, 5);
  tensor::InterpretOptions seeded;
  seeded.random_weight_seed = 5;
  const auto want = tensor::interpret(graph, inputs, seeded);
  const auto got = tensor::interpret(again, inputs, seeded);
  REQUIRE(got.size() == 1);
  for (std::size_t i = 0; i < want[0].size(); ++i)
    CHECK(got[0].data[i] == doctest::Approx(want[0].data[i]).epsilon(1e-5));
}

TEST_CASE("bad ONNX input is a clear error naming the file and the node") {
  const std::string good = bytes_of(classifier());
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx(good.substr(0, good.size() / 2), "cut.onnx"),
                       doctest::Contains("cut.onnx: error: not a valid ONNX model"), Error);
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx("", "empty.onnx"),
                       doctest::Contains("not a valid ONNX model"), Error);

  onnx::ModelProto missing = classifier();
  missing.mutable_graph()->mutable_initializer()->RemoveLast();  // fc.b
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx(bytes_of(missing), "missing.onnx"),
                       doctest::Contains("the ONNX checker rejects the model"), Error);

  onnx::ModelProto dynamic = classifier();
  dynamic.mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(0)
      ->set_dim_param("batch");
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx(bytes_of(dynamic), "dynamic.onnx"),
                       doctest::Contains("graph input 'image' cannot be imported: dimension 0 is "
                                         "'batch'"),
                       Error);
  // --input-shape fixes it; a wrong name or rank is an error.
  const tensor::Graph fixed =
      frontend::graph_from_onnx(bytes_of(dynamic), "dynamic.onnx", {{"image", {1, 3, 8, 8}}});
  CHECK(fixed.type_of(fixed.outputs()[0].tensor).shape == tensor::Shape{1, 5});
  CHECK_THROWS_WITH_AS(
      frontend::graph_from_onnx(bytes_of(dynamic), "dynamic.onnx", {{"img", {1, 3, 8, 8}}}),
      doctest::Contains("--input-shape: the model has no tensor input 'img'"), Error);
  CHECK_THROWS_WITH_AS(
      frontend::graph_from_onnx(bytes_of(dynamic), "dynamic.onnx", {{"image", {3, 8, 8}}}),
      doctest::Contains("input 'image' has rank 4, the given shape rank 3"), Error);

  // An element type mctsat has no semantics for: no --input-shape hint, which would not help.
  onnx::ModelProto bfloat16 = model_shell();
  add_value_info(bfloat16.mutable_graph()->add_input(), "image", {2, 2});
  add_value_info(bfloat16.mutable_graph()->add_output(), "y", {2, 2});
  add_node(*bfloat16.mutable_graph(), "Relu", {"image"}, {"y"});
  for (auto* info :
       {bfloat16.mutable_graph()->mutable_input(0), bfloat16.mutable_graph()->mutable_output(0)})
    info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BFLOAT16);
  try {
    frontend::graph_from_onnx(bytes_of(bfloat16), "bfloat16.onnx");
    FAIL("a BFLOAT16 input was imported");
  } catch (const Error& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find("graph input 'image' cannot be imported: its element type BFLOAT16 is not "
                       "supported") != std::string::npos);
    CHECK(message.find("--input-shape") == std::string::npos);
  }

  onnx::ModelProto future = classifier();
  future.mutable_opset_import(0)->set_version(99);
  CHECK_THROWS_AS(frontend::graph_from_onnx(bytes_of(future), "future.onnx"), Error);

  // A reshape to a shape of another element count: the node is named.
  onnx::ModelProto reshape = model_shell();
  onnx::GraphProto& g = *reshape.mutable_graph();
  add_value_info(g.add_input(), "x", {2, 6});
  auto* shape = g.add_initializer();
  shape->set_name("shape");
  shape->set_data_type(onnx::TensorProto::INT64);
  shape->add_dims(2);
  shape->add_int64_data(5);
  shape->add_int64_data(5);
  add_node(g, "Reshape", {"x", "shape"}, {"y"});
  add_value_info(g.add_output(), "y", {5, 5});
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx(bytes_of(reshape), "reshape.onnx"),
                       doctest::Contains("Reshape_1"), Error);
}

TEST_CASE("load_model and save_model read and write .onnx files") {
  // The demo's weights have no values: they travel as graph inputs and read back as weights;
  // the model computes the same.
  const std::string path = "/tmp/mctsat-test-onnx-io-demo.onnx";
  const tensor::Graph demo = frontend::load_model("demo");
  frontend::save_model(demo, path);
  const tensor::Graph again = frontend::load_model(path);
  CHECK(again.outputs().size() == demo.outputs().size());
  const auto inputs = tensor::random_inputs(demo, 2);
  tensor::InterpretOptions seeded;
  seeded.random_weight_seed = 2;
  CHECK(tensor::interpret(again, inputs, seeded) == tensor::interpret(demo, inputs, seeded));
}

TEST_CASE("--input-value makes a graph input a constant that folds like any other") {
  // y = x * k with k an input: as a constant, k becomes a weight with its values.
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2});
  add_value_info(g.add_input(), "k", {2});
  add_node(g, "Mul", {"x", "k"}, {"y"});
  add_value_info(g.add_output(), "y", {2});
  const tensor::Graph graph =
      frontend::graph_from_onnx(bytes_of(model), "k.onnx", {}, {{"k", {3, -1}}});
  const auto k = graph.find("k");
  REQUIRE(k);
  CHECK(graph.node(*k).op == Op::kWeight);
  REQUIRE(graph.node(*k).value);
  CHECK(graph.node(*k).value->data == std::vector<double>{3, -1});
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx(bytes_of(model), "k.onnx", {}, {{"q", {1}}}),
                       doctest::Contains("--input-value: the model has no tensor input 'q'"),
                       Error);
  CHECK_THROWS_WITH_AS(frontend::graph_from_onnx(bytes_of(model), "k.onnx", {}, {{"k", {1}}}),
                       doctest::Contains("input 'k' of shape 2 takes 2 values, not 1"), Error);
}
