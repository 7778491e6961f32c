// Tests of the oneDNN executor against the reference interpreter: every supported operator with
// its attribute variants (activations, padding modes, strides, groups, broadcasting, split axes),
// weight-only subgraphs, repeated runs, and clear errors naming the node for what it cannot run.
#include "runtime/dnnl_executor.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::runtime {
namespace {

using namespace tensor;

constexpr std::uint64_t kWeightSeed = 3;
constexpr double kTolerance = 1e-5;  // float32 against float64, relative to the largest value

// max |got - want| / max |want|.
double relative_error(const Tensor& got, const Tensor& want) {
  REQUIRE(shape_string(got.shape) == shape_string(want.shape));
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < want.data.size(); ++i) {
    diff = std::max(diff, std::abs(got.data[i] - want.data[i]));
    scale = std::max(scale, std::abs(want.data[i]));
  }
  return diff / std::max(scale, 1e-30);
}

// Runs `graph` on seeded inputs with both engines and checks every output; returns the largest
// relative error.
double check_against_interpreter(const Graph& graph, double tolerance = kTolerance) {
  const auto inputs = random_inputs(graph, 7);
  InterpretOptions interpret_options;
  interpret_options.random_weight_seed = kWeightSeed;
  const std::vector<Tensor> want = interpret(graph, inputs, interpret_options);
  ExecutorOptions options;
  options.random_weight_seed = kWeightSeed;
  DnnlExecutor executor(graph, options);
  const std::vector<Tensor> got = executor.run(inputs);
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("output " << graph.outputs()[i].name);
    const double error = relative_error(got[i], want[i]);
    CHECK(error <= tolerance);
    worst = std::max(worst, error);
  }
  return worst;
}

// One `op` node on inputs x0, x1, ... of the given shapes; every output is a graph output.
Graph single_op(Op op, const std::vector<Shape>& shapes, Attrs attrs) {
  GraphBuilder builder;
  std::vector<TensorRef> refs;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    refs.push_back(builder.input(fmt::format("x{}", i), shapes[i]));
  const auto outs = builder.add(op, refs, std::move(attrs), "op");
  for (std::size_t i = 0; i < outs.size(); ++i) builder.output(fmt::format("y{}", i), outs[i]);
  return std::move(builder).finish();
}

void check_op(Op op, const std::vector<Shape>& shapes, Attrs attrs) {
  INFO(op_name(op) << " on " << shapes.size() << " inputs");
  check_against_interpreter(single_op(op, shapes, std::move(attrs)));
}

std::string error_node(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.where().node;
  }
  return "(no error)";
}

TEST_CASE("matmul: plain, batched, broadcast, every fused activation") {
  for (std::int64_t act = 0; act <= 3; ++act) {
    check_op(Op::kMatmul, {{5, 7}, {7, 3}}, {act});
    check_op(Op::kMatmul, {{2, 3, 4, 5}, {5, 6}}, {act});
    check_op(Op::kMatmul, {{3, 1, 4, 5}, {2, 5, 6}}, {act});
  }
}

TEST_CASE("conv2d: SAME and VALID, strides, groups, depthwise, fused activations") {
  for (std::int64_t pad = 0; pad <= 1; ++pad) {
    for (std::int64_t act = 0; act <= 3; ++act)
      check_op(Op::kConv2d, {{1, 4, 9, 8}, {6, 4, 3, 3}}, {1, 1, pad, act});
    check_op(Op::kConv2d, {{2, 4, 9, 8}, {6, 4, 3, 2}}, {2, 3, pad, 2});
    check_op(Op::kConv2d, {{1, 6, 7, 7}, {4, 3, 3, 3}}, {1, 2, pad, 0});  // 2 groups
    check_op(Op::kConv2d, {{1, 5, 8, 8}, {5, 1, 3, 3}}, {2, 2, pad, 2});  // depthwise
  }
}

TEST_CASE("elementwise binary operators broadcast either operand") {
  for (Op op : {Op::kEwAdd, Op::kEwMul, Op::kEwSub, Op::kEwDiv}) {
    check_op(op, {{2, 3, 4}, {2, 3, 4}}, {});
    check_op(op, {{2, 3, 4}, {4}}, {});
    check_op(op, {{3, 1}, {2, 3, 4}}, {});
    check_op(op, {{3, 1}, {1, 4}}, {});
    check_op(op, {{}, {2, 2}}, {});
  }
}

TEST_CASE("unary operators, softmax, clip and global average pooling") {
  for (Op op : {Op::kRelu, Op::kTanh, Op::kSigmoid, Op::kDropout, Op::kIdentity})
    check_op(op, {{2, 3, 5}}, {});
  check_op(Op::kSmul, {{2, 3}, {1}}, {});
  check_op(Op::kSmul, {{2, 3}, {}}, {});
  check_op(Op::kSoftmax, {{2, 3, 5}}, {std::int64_t{1}});
  check_op(Op::kSoftmax, {{4, 6}}, {std::int64_t{1}});
  check_op(Op::kClip, {{4, 6}}, {-0.25, 0.5});
  check_op(Op::kGelu, {{2, 3, 5}}, {std::int64_t{0}});
  check_op(Op::kGelu, {{2, 3, 5}}, {std::int64_t{1}});
  check_op(Op::kLayerNorm, {{2, 3, 8}, {8}, {8}}, {1e-5});
  check_op(Op::kLayerNorm, {{6, 4}, {4}, {4}}, {0.5});
  // attention: heads, causal, scale; q, k, v, bias
  check_op(Op::kAttention, {{2, 5, 8}, {2, 5, 8}, {2, 5, 8}, {2, 1, 1, 5}},
           {std::int64_t{2}, std::int64_t{0}, 0.5});
  check_op(Op::kAttention, {{1, 4, 6}, {1, 4, 6}, {1, 4, 6}, {3, 4, 4}},
           {std::int64_t{3}, std::int64_t{1}, 0.25});
  check_op(Op::kAttention, {{2, 3, 4}, {2, 6, 4}, {2, 6, 8}, {1, 1, 1, 1}},
           {std::int64_t{1}, std::int64_t{0}, 1.0});
  check_op(Op::kClip, {{4, 6}}, {0.5, -0.25});  // min > max: everything becomes max
  check_op(Op::kGlobalAvgPool, {{2, 3, 5, 4}}, {});
}

TEST_CASE("pooling: max and average, SAME and VALID, strides, fused activation") {
  for (Op op : {Op::kPoolMax, Op::kPoolAvg}) {
    for (std::int64_t pad = 0; pad <= 1; ++pad) {
      check_op(op, {{1, 3, 7, 8}}, {3, 3, 2, 2, pad, 0});
      check_op(op, {{2, 2, 6, 6}}, {2, 3, 1, 2, pad, 3});
    }
  }
}

TEST_CASE("layout operators: transpose, reshape, flatten, concat, split on any axis") {
  check_op(Op::kTranspose, {{3, 5}}, {std::vector<std::int64_t>{1, 0}});
  check_op(Op::kTranspose, {{2, 3, 4, 5}}, {std::vector<std::int64_t>{0, 2, 3, 1}});
  check_op(Op::kReshape, {{2, 3, 4}}, {std::vector<std::int64_t>{6, 4}});
  check_op(Op::kFlatten, {{2, 3, 4}}, {std::int64_t{2}});
  check_op(Op::kConcat, {{2, 3, 4}, {2, 1, 4}, {2, 5, 4}}, {std::int64_t{1}, std::int64_t{3}});
  check_op(Op::kConcat, {{2, 3}, {4, 3}}, {std::int64_t{0}, std::int64_t{2}});
  check_op(Op::kSplit, {{6, 4}}, {std::int64_t{0}, std::vector<std::int64_t>{2, 4}});
  check_op(Op::kSplit, {{2, 6, 3}}, {std::int64_t{1}, std::vector<std::int64_t>{1, 2, 3}});
}

TEST_CASE("batch normalization with stored statistics") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {2, 3, 4, 5});
  auto param = [&](const std::string& name, std::vector<double> values) {
    return b.weight(name, {3}, std::make_shared<Tensor>(Shape{3}, std::move(values)));
  };
  const TensorRef y = b.batchnorm(x, param("scale", {0.5, -1.0, 2.0}), param("bias", {0, 1, -1}),
                                  param("mean", {0.1, -0.2, 0.3}), param("var", {0.5, 1.5, 2.0}));
  b.output("y", y);
  check_against_interpreter(std::move(b).finish());
}

TEST_CASE("weight-only subgraphs are pre-computed, kernel transforms included") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {1, 4, 8, 8});
  const TensorRef small = b.weight("small", {4, 4, 1, 1});
  const TensorRef big = b.weight("big", {4, 4, 3, 3});
  const TensorRef enlarged = b.add1(Op::kEnlarge, {small, big}, {});
  const TensorRef kernel = b.add1(Op::kEwAdd, {enlarged, big}, {});
  const TensorRef grouped = b.weight("grouped", {4, 2, 3, 3});
  const TensorRef merged = b.add1(Op::kMerge, {grouped}, {std::int64_t{2}});
  b.output("a", b.conv2d(x, kernel, 1, 1, Padding::kSame, Activation::kRelu));
  b.output("b", b.conv2d(x, merged, 1, 1, Padding::kSame));
  b.output("folded", kernel);
  const Graph graph = std::move(b).finish();
  check_against_interpreter(graph);
  ExecutorOptions options;
  options.random_weight_seed = kWeightSeed;
  CHECK(DnnlExecutor(graph, options).primitive_count() == 2);  // two convolutions, nothing else
}

TEST_CASE("weights read by run-time and weight-only nodes, twice by one, or as outputs") {
  // The executor keeps a weight's float64 values only while a weight-only node, an opaque one or
  // an output still has to read them, and moves them into their last reader: every reader here
  // must still see the right values.
  GraphBuilder b;
  const TensorRef x = b.input("x", {2, 3});
  const TensorRef w = b.weight("w", {3, 3});
  b.output("direct", b.matmul(x, w));               // a run-time reader first
  const TensorRef turned = b.transpose(w, {1, 0});  // weight-only readers after it
  const TensorRef doubled = b.ewadd(w, w);          // the last reader, reading it twice
  b.output("turned", b.matmul(x, turned));
  b.output("doubled", b.matmul(x, doubled));
  auto values = std::make_shared<Tensor>(Shape{3, 3});
  for (std::size_t i = 0; i < values->data.size(); ++i) values->data[i] = 0.25 * i - 1;
  const TensorRef stored = b.weight("stored", {3, 3}, values);  // only run-time readers
  b.output("stored", b.matmul(x, stored));
  const TensorRef kept = b.weight("kept", {3, 3});
  b.output("kept_product", b.matmul(x, b.transpose(b.transpose(kept, {1, 0}), {1, 0})));
  b.output("kept", kept);  // and an output
  const Graph graph = std::move(b).finish();
  check_against_interpreter(graph);
}

TEST_CASE("a small network; repeated runs with new inputs give new, correct results") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {2, 16});
  TensorRef h = b.matmul(x, b.weight("w1", {16, 32}), Activation::kRelu);
  const auto halves = b.split(h, 1, {16, 16});
  h = b.ewadd(halves[0], b.tanh(halves[1]));
  h = b.matmul(b.transpose(h, {1, 0}), b.weight("w2", {2, 8}));
  b.output("y", b.add1(Op::kSoftmax, {h}, {std::int64_t{1}}));
  const Graph graph = std::move(b).finish();
  check_against_interpreter(graph);

  ExecutorOptions options;
  options.random_weight_seed = kWeightSeed;
  DnnlExecutor executor(graph, options);
  InterpretOptions interpret_options;
  interpret_options.random_weight_seed = kWeightSeed;
  for (std::uint64_t seed : {1, 2, 1}) {
    const auto inputs = random_inputs(graph, seed);
    CHECK(relative_error(executor.run(inputs)[0], interpret(graph, inputs, interpret_options)[0]) <=
          kTolerance);
  }
}

TEST_CASE("dead tensors' buffers are reused; outputs, views and late weights are not clobbered") {
  // A chain of 1 MiB activations: without reuse 14 MiB, in chunks of 4, 8 and 16 MiB; with it the
  // input, two alternating buffers, the views, the outputs and the late weight fit in 4 + 8 MiB.
  GraphBuilder b;
  const TensorRef x = b.input("x", {1, 64, 64, 64});
  TensorRef h = b.relu(x);
  const TensorRef early = b.tanh(h);  // a graph output read again later: must survive
  for (int i = 0; i < 4; ++i) h = b.sigmoid(b.relu(h));
  const TensorRef flat = b.add1(Op::kReshape, {h}, {std::vector<std::int64_t>{64, 4096}});
  h = b.tanh(b.relu(b.add1(Op::kReshape, {flat}, {std::vector<std::int64_t>{1, 64, 64, 64}})));
  // A weight first needed here, after dead buffers were released: its values are written while
  // building, so it must not share a buffer that a step overwrites at every run.
  h = b.ewadd(b.ewadd(h, early), b.weight("late", {1, 64, 64, 64}));
  b.output("early", early);
  b.output("y", h);
  const Graph graph = std::move(b).finish();
  check_against_interpreter(graph);
  ExecutorOptions options;
  options.random_weight_seed = kWeightSeed;
  DnnlExecutor executor(graph, options);
  CHECK(executor.buffer_bytes() == std::size_t{12} << 20);
  InterpretOptions interpret_options;
  interpret_options.random_weight_seed = kWeightSeed;
  const auto inputs = random_inputs(graph, 3);
  const std::vector<Tensor> expected = interpret(graph, inputs, interpret_options);
  for (int run = 0; run < 2; ++run) {  // the second run finds what the first one left
    const std::vector<Tensor> out = executor.run(inputs);
    CHECK(relative_error(out[0], expected[0]) <= kTolerance);
    CHECK(relative_error(out[1], expected[1]) <= kTolerance);
  }
}

TEST_CASE("errors name the node") {
  SUBCASE("opaque operator") {
    Graph graph;
    Node x;
    x.name = "x";
    x.attrs = {Shape{2, 6}};
    graph.add_node(std::move(x));
    Node lrn;
    lrn.name = "lrn";
    lrn.op = Op::kOpaque;
    lrn.inputs = {{0, 0}};
    lrn.attrs = {std::int64_t{7}, encode_output_types(std::vector<TensorType>{{{2, 6}}})};
    lrn.opaque = std::make_shared<OpaqueInfo>(OpaqueInfo{"LRN", ""});
    graph.add_node(std::move(lrn));
    graph.add_output("y", {1, 0});
    graph.infer_and_validate();
    CHECK(error_node([&] { DnnlExecutor executor(graph); }) == "lrn");
  }
  SUBCASE("kernel transform of a run-time tensor") {
    GraphBuilder b;
    const TensorRef x = b.input("x", {4, 4, 1, 1});
    b.output("y", b.add1(Op::kEnlarge, {x, b.weight("big", {4, 4, 3, 3})}, {}, "grow"));
    const Graph graph = std::move(b).finish();
    CHECK(error_node([&] { DnnlExecutor executor(graph, {kWeightSeed}); }) == "grow");
  }
  SUBCASE("weight without values and no seed") {
    const Graph graph = [] {
      GraphBuilder b;
      b.output("y", b.relu(b.matmul(b.input("x", {2, 2}), b.weight("w", {2, 2}))));
      return std::move(b).finish();
    }();
    CHECK(error_node([&] { DnnlExecutor executor(graph); }) == "w");
    DnnlExecutor executor(graph, {kWeightSeed});
    CHECK(error_node([&] { executor.set_inputs({}); }) == "x");
    CHECK(error_node([&] { executor.set_inputs({{"x", Tensor(Shape{2, 3})}}); }) == "x");
  }
  SUBCASE("thread count") {
    CHECK_THROWS_AS(set_executor_threads(0), Error);
    const int before = executor_threads();
    set_executor_threads(1);
    CHECK(executor_threads() == 1);
    set_executor_threads(before);
  }
}

}  // namespace
}  // namespace mctsat::runtime
