// Canonical forms on import: batch normalization folded into convolutions with values, the
// activations mctsat's exporter wrote for fused ones fused again, SAME padding wherever it reads
// the same cells, and weights without values kept as weights, so that a zoo model read back from
// ONNX is the zoo model operator for operator.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include "frontend/canonical_forms.hpp"
#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/zoo.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/graph_queries.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;
using tensor::Activation;
using tensor::Op;
using tensor::Padding;

namespace {

std::shared_ptr<const tensor::Tensor> values(const tensor::Shape& shape, const char* stream,
                                             double offset = 0.0) {
  tensor::Tensor t = tensor::random_tensor(shape, 7, stream);
  for (double& v : t.data) v += offset;
  return std::make_shared<const tensor::Tensor>(std::move(t));
}

// The operators of a graph with their attributes and input types, as a sorted list: equal for
// graphs that compute alike operator for operator, whatever their node names and order.
std::vector<std::string> operator_fingerprint(const tensor::Graph& graph) {
  std::vector<std::string> lines;
  for (const tensor::Node& node : graph.nodes()) {
    std::string line = std::string(tensor::op_name(node.op));
    for (const auto& attr : node.attrs) {
      if (tensor::attr_kind(attr) == tensor::ParamKind::kInt)
        line += fmt::format(" {}", tensor::attr_int(attr));
      else if (tensor::attr_kind(attr) == tensor::ParamKind::kInts)
        line += " [" + tensor::shape_string(tensor::attr_ints(attr)) + "]";
      else
        line += fmt::format(" {}", tensor::attr_float(attr));
    }
    for (const auto& in : node.inputs) line += " " + tensor::type_string(graph.type_of(in));
    lines.push_back(std::move(line));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

tensor::Graph through_onnx(const tensor::Graph& graph) {
  return frontend::graph_from_onnx(frontend::graph_to_onnx(graph, "m"), "m.onnx");
}

}  // namespace

TEST_CASE("batch normalization folds into the convolution before it, with or without a bias") {
  for (const bool with_bias : {false, true}) {
    CAPTURE(with_bias);
    tensor::GraphBuilder b;
    const auto x = b.input("x", {1, 3, 6, 6});
    auto y =
        b.conv2d(x, b.weight("w", {4, 3, 3, 3}, values({4, 3, 3, 3}, "w")), 1, 1, Padding::kSame);
    if (with_bias) y = b.ewadd(y, b.weight("b", {4, 1, 1}, values({4, 1, 1}, "b")));
    y = b.batchnorm(
        y, b.weight("scale", {4}, values({4}, "scale")), b.weight("beta", {4}, values({4}, "beta")),
        b.weight("mean", {4}, values({4}, "mean")), b.weight("var", {4}, values({4}, "var", 1.5)));
    b.output("y", b.relu(y));
    const tensor::Graph graph = std::move(b).finish();
    const tensor::Graph folded = frontend::to_canonical_forms(graph, {});
    CHECK(count_op(folded, Op::kBatchNorm) == 0);
    CHECK(count_op(folded, Op::kConv2d) == 1);
    CHECK(count_op(folded, Op::kEwAdd) == 1);
    const auto inputs = tensor::random_inputs(graph, 3);
    const auto want = tensor::interpret(graph, inputs), got = tensor::interpret(folded, inputs);
    REQUIRE(got[0].data.size() == want[0].data.size());
    for (std::size_t i = 0; i < want[0].data.size(); ++i)
      CHECK(got[0].data[i] == doctest::Approx(want[0].data[i]).epsilon(1e-9));
  }
}

TEST_CASE("a bias or scale weight becomes the second operand of its add or multiply") {
  tensor::GraphBuilder b;
  const auto x = b.input("x", {1, 4, 8});
  const auto bias = b.weight("bias", {8}, values({8}, "bias"));
  const auto scale = b.weight("scale", {8}, values({8}, "scale"));
  const auto y = b.ewadd(bias, b.matmul(x, b.weight("w", {8, 8}, values({8, 8}, "w"))));
  const auto z = b.ewmul(scale, y);
  b.output("out",
           b.ewadd(z, b.ewmul(x, scale)));  // already in the canonical order, and two tensors
  const tensor::Graph graph = std::move(b).finish();
  const tensor::Graph canonical = frontend::to_canonical_forms(graph, {});
  for (const tensor::Node& node : canonical.nodes()) {
    if (node.op != Op::kEwAdd && node.op != Op::kEwMul) continue;
    CAPTURE(node.name);
    CHECK(canonical.node(node.inputs[0].node).op != Op::kWeight);
  }
  const auto inputs = tensor::random_inputs(graph, 5);
  CHECK(tensor::interpret(canonical, inputs) == tensor::interpret(graph, inputs));
}

TEST_CASE("batch normalization stays where the convolution's kernel has no values or is shared") {
  tensor::GraphBuilder b;
  const auto x = b.input("x", {1, 3, 6, 6});
  const auto conv = b.conv2d(x, b.weight("w", {4, 3, 1, 1}), 1, 1, Padding::kSame);
  auto bn = [&](tensor::TensorRef in, const char* name) {
    const std::string n = name;
    return b.batchnorm(
        in, b.weight(n + "s", {4}, values({4}, "s")), b.weight(n + "b", {4}, values({4}, "b")),
        b.weight(n + "m", {4}, values({4}, "m")), b.weight(n + "v", {4}, values({4}, "v", 1.5)));
  };
  b.output("y", bn(conv, "bn"));
  const auto shared =
      b.conv2d(x, b.weight("w2", {4, 3, 1, 1}, values({4, 3, 1, 1}, "w2")), 1, 1, Padding::kSame);
  b.output("z", bn(shared, "bn2"));
  b.output("shared", shared);  // the convolution's result is read twice
  const tensor::Graph graph = std::move(b).finish();
  CHECK(count_op(frontend::to_canonical_forms(graph, {}), Op::kBatchNorm) == 2);
}

TEST_CASE("only the activations named as fused are fused, into an operand read by them alone") {
  tensor::GraphBuilder b;
  const auto x = b.input("x", {1, 2, 4, 4});
  const auto w = b.weight("w", {2, 2, 1, 1});
  const auto a = b.add1(Op::kRelu, {b.conv2d(x, w, 1, 1, Padding::kSame)}, {}, "fused");
  const auto c = b.add1(Op::kRelu, {b.conv2d(a, w, 1, 1, Padding::kSame)}, {}, "separate");
  const auto shared = b.conv2d(c, w, 1, 1, Padding::kSame);
  const auto d = b.add1(Op::kTanh, {shared}, {}, "read_twice");
  b.output("y", b.ewadd(d, shared));
  const tensor::Graph graph = std::move(b).finish();
  const tensor::Graph canonical = frontend::to_canonical_forms(graph, {"fused", "read_twice"});
  CHECK(count_op(canonical, Op::kRelu) == 1);
  CHECK(count_op(canonical, Op::kTanh) == 1);
  int fused = 0;
  for (const auto& node : canonical.nodes())
    if (node.op == Op::kConv2d && tensor::attr_int(node.attrs[3]) == 2) ++fused;
  CHECK(fused == 1);
  tensor::InterpretOptions seeded;
  seeded.random_weight_seed = 4;
  const auto inputs = tensor::random_inputs(graph, 4);
  CHECK(tensor::interpret(canonical, inputs, seeded) == tensor::interpret(graph, inputs, seeded));
}

TEST_CASE("an optimized model's fused activations read back fused from ONNX") {
  tensor::GraphBuilder b;
  const auto x = b.input("x", {2, 8});
  const auto m = b.matmul(x, b.weight("w", {8, 8}), Activation::kTanh);
  const auto image = b.reshape(m, {1, 1, 4, 4});
  const auto conv =
      b.conv2d(image, b.weight("k", {3, 1, 3, 3}), 1, 1, Padding::kSame, Activation::kRelu);
  b.output("y", b.pool(Op::kPoolMax, conv, 2, 2, 2, 2, Padding::kValid, Activation::kSigmoid));
  const tensor::Graph graph = std::move(b).finish();
  const tensor::Graph again = through_onnx(graph);
  CHECK(count_op(again, Op::kRelu) + count_op(again, Op::kTanh) + count_op(again, Op::kSigmoid) ==
        0);
  CHECK(count_op(again, Op::kWeight) == 2);  // the weights without values stay weights
  // The padding codes come back as written (auto_pad), though SAME reads the same cells as the
  // pooling's VALID here.
  CHECK(operator_fingerprint(again) == operator_fingerprint(graph));
}

TEST_CASE("zoo models read back from ONNX operator for operator") {
  for (const char* name : {"squeezenet", "resnet50", "inceptionv3"}) {
    CAPTURE(name);
    const tensor::Graph zoo = *frontend::build_zoo_model(name);
    const tensor::Graph again = through_onnx(zoo);
    const auto got = operator_fingerprint(again), want = operator_fingerprint(zoo);
    CHECK(got == want);
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
      if (got[i] != want[i]) {
        FAIL_CHECK(got[i] << " != " << want[i]);
        break;
      }
    }
  }
}

TEST_CASE("ONNX windows whose padding reads the same cells as SAME import as SAME") {
  // A 1x1 stride-1 Conv without pads, a 3x3 Conv with PyTorch's pads 1 and a 3x3 stride-2 one
  // with pads 0 (VALID: it reads other cells).
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, 2, 7, 7});
  add_initializer(g, "w1", {2, 2, 1, 1});
  add_initializer(g, "w3", {2, 2, 3, 3});
  add_node(g, "Conv", {"x", "w1"}, {"a"});
  set_ints(add_node(g, "Conv", {"a", "w3"}, {"b"}), "pads", {1, 1, 1, 1});
  set_ints(add_node(g, "Conv", {"b", "w3"}, {"c"}), "strides", {2, 2});
  add_value_info(g.add_output(), "c", {1, 2, 3, 3});
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "pads.onnx");
  std::vector<std::int64_t> pads;
  for (const auto& node : graph.nodes())
    if (node.op == Op::kConv2d) pads.push_back(tensor::attr_int(node.attrs[2]));
  CHECK(pads == std::vector<std::int64_t>{0, 0, 1});
}

TEST_CASE("a zero Pad before a Conv, as tf2onnx writes TensorFlow's SAME, becomes the Conv's own") {
  // Stride 2 on 8x8 with a 3x3 kernel: SAME pads one cell after the data on each axis.
  for (const bool read_twice : {false, true}) {
    CAPTURE(read_twice);
    onnx::ModelProto model = model_shell(11);
    onnx::GraphProto& g = *model.mutable_graph();
    add_value_info(g.add_input(), "input:0", {1, 2, 8, 8});
    add_initializer(g, "w", {4, 2, 3, 3});
    auto* pads = g.add_initializer();
    pads->set_name("pads");
    pads->set_data_type(onnx::TensorProto::INT64);
    pads->add_dims(8);
    for (std::int64_t v : {0, 0, 0, 0, 0, 0, 1, 1}) pads->add_int64_data(v);
    add_node(g, "Pad", {"input:0", "pads"}, {"padded:0"});
    set_ints(add_node(g, "Conv", {"padded:0", "w"}, {"conv:0"}), "strides", {2, 2});
    add_value_info(g.add_output(), "conv:0", {1, 4, 4, 4});
    if (read_twice) add_value_info(g.add_output(), "padded:0", {1, 2, 9, 9});
    const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "tf.onnx");
    CHECK(count_op(graph, Op::kOpaque) == (read_twice ? 1 : 0));
    for (const auto& node : graph.nodes())
      if (node.op == Op::kConv2d)
        CHECK(tensor::attr_int(node.attrs[2]) == (read_twice
                                                      ? static_cast<std::int64_t>(Padding::kValid)
                                                      : static_cast<std::int64_t>(Padding::kSame)));
  }
}

TEST_CASE("a VALID window that SAME would pad is written as explicit zero pads, read back VALID") {
  // ONNX Runtime folds a Pad into the Conv or pool after it only when that node has no auto_pad:
  // written with auto_pad VALID, the Pads before inception-v3's average pools stayed, 4% of its
  // time.
  tensor::GraphBuilder b;
  const auto x = b.input("x", {1, 2, 8, 8});
  const auto pooled = b.pool(Op::kPoolAvg, x, 3, 3, 1, 1, Padding::kValid, Activation::kNone);
  const auto wide =
      b.conv2d(pooled, b.weight("k3", {2, 2, 3, 3}), 1, 1, Padding::kValid, Activation::kNone);
  b.output("y",
           b.conv2d(wide, b.weight("k1", {2, 2, 1, 1}), 1, 1, Padding::kValid, Activation::kNone));
  const tensor::Graph graph = std::move(b).finish();
  onnx::ModelProto model;
  REQUIRE(model.ParseFromString(frontend::graph_to_onnx(graph, "m")));
  std::vector<std::string> padding;  // per window node: its auto_pad, or its pads
  for (const onnx::NodeProto& node : model.graph().node())
    for (const onnx::AttributeProto& a : node.attribute())
      if (a.name() == "auto_pad" || a.name() == "pads")
        padding.push_back(node.op_type() + " " + a.name() + " " +
                          (a.name() == "auto_pad" ? a.s() : fmt::format("{}", a.ints_size())));
  // The 1x1 convolution, which SAME reads alike, keeps its name for the padding.
  CHECK(padding ==
        std::vector<std::string>{"AveragePool pads 4", "Conv pads 4", "Conv auto_pad VALID"});
  CHECK(operator_fingerprint(through_onnx(graph)) == operator_fingerprint(graph));
}
