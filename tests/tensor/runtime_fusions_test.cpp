// Graphs priced as ONNX Runtime runs them: a convolution's bias, residual sum and activation are
// fused, a Gemm's bias and activation too; an activation behind a concat is not; a split of a
// convolution's output copies; Attention costs its products, an attention operator its
// decomposition's operators; unused operators cost nothing; the
// kNone runtime is the plain sum; the fusing model's name. (Layer norms and GELU as exporters
// write them: tests/cli/torch_models_cli_test.cpp, on bert-layer.)
#include "tensor/runtime_fusions.hpp"

#include <memory>

#include <doctest/doctest.h>

#include "tensor/device_profile.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {
namespace runtime_fusions_test {

std::shared_ptr<const CostModel> cpu() {
  return std::make_shared<RooflineCostModel>(builtin_profile("cpu-2core"));
}

// conv -> + bias -> relu, the way exporters write a convolution layer; `residual` adds a tensor
// of the output's shape before the relu.
Graph conv_layer(bool residual) {
  GraphBuilder b;
  const TensorRef x = b.input("x", {1, 16, 8, 8});
  const TensorRef conv = b.conv2d(x, b.weight("w", {16, 16, 3, 3}), 1, 1, Padding::kSame);
  TensorRef sum = b.ewadd(conv, b.weight("bias", {16, 1, 1}));
  if (residual) sum = b.ewadd(sum, x);
  b.output("y", b.relu(sum));
  return std::move(b).finish();
}

// The cost of the graph's operators other than conv2d.
double epilogue_cost(const Graph& graph, const CostModel& model) {
  double total = 0;
  for (const NodeCost& cost : node_costs(graph, model))
    if (graph.node(cost.node).op != Op::kConv2d) total += cost.cost_ms;
  return total;
}

TEST_CASE("a convolution's bias, residual sum and activation run in its kernel") {
  const FusingCostModel ort(cpu(), RuntimeFusions::kOnnxRuntime);
  for (bool residual : {false, true}) {
    CAPTURE(residual);
    const Graph graph = conv_layer(residual);
    const AsRunPlan plan = as_run_plan(graph, RuntimeFusions::kOnnxRuntime);
    std::size_t fused = 0;
    for (NodeId id = 0; id < graph.size(); ++id) {
      const Op op = graph.node(id).op;
      CHECK(plan.fused[id] == (op == Op::kEwAdd || op == Op::kRelu));
      fused += plan.fused[id];
    }
    CHECK(fused == (residual ? 3u : 2u));
    CHECK(plan.copies.empty());
    const AsRunCosts costs = as_run_costs(graph, ort);
    CHECK(costs.fused == fused);
    CHECK(epilogue_cost(graph, *cpu()) > 0);
    CHECK(costs.total_ms ==
          doctest::Approx(graph_cost(graph, *cpu()) - epilogue_cost(graph, *cpu())));
    CHECK(costs.total_ms < graph_cost(graph, *cpu()));
  }
}

TEST_CASE("nothing is fused into an output another operator also reads") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {1, 16, 8, 8});
  const TensorRef conv = b.conv2d(x, b.weight("w", {16, 16, 3, 3}), 1, 1, Padding::kSame);
  b.output("pre", conv);
  b.output("y", b.relu(conv));
  const Graph graph = std::move(b).finish();
  const AsRunPlan plan = as_run_plan(graph, RuntimeFusions::kOnnxRuntime);
  for (NodeId id = 0; id < graph.size(); ++id) CHECK_FALSE(plan.fused[id]);
}

TEST_CASE("a relu behind a concat costs a pass that the two fused relus did not") {
  // concat(relu(conv + b1), relu(conv + b2)) against relu(concat(conv + b1, conv + b2)): operator
  // by operator the second is one relu cheaper; as ONNX Runtime runs them it is one relu dearer.
  auto branches = [](bool relu_after_concat) {
    GraphBuilder b;
    const TensorRef x = b.input("x", {1, 16, 8, 8});
    std::vector<TensorRef> outs;
    for (const char* name : {"a", "b"}) {
      const TensorRef conv = b.conv2d(x, b.weight(std::string("w") + name, {16, 16, 1, 1}), 1, 1,
                                      Padding::kSame);
      const TensorRef biased = b.ewadd(conv, b.weight(std::string("bias") + name, {16, 1, 1}));
      outs.push_back(relu_after_concat ? biased : b.relu(biased));
    }
    const TensorRef joined = b.concat(1, outs);
    b.output("y", relu_after_concat ? b.relu(joined) : joined);
    return std::move(b).finish();
  };
  const Graph fused_relus = branches(false), moved_relu = branches(true);
  CHECK(graph_cost(moved_relu, *cpu()) < graph_cost(fused_relus, *cpu()));
  const FusingCostModel ort(cpu(), RuntimeFusions::kOnnxRuntime);
  CHECK(as_run_cost(moved_relu, ort) > as_run_cost(fused_relus, ort));
}

TEST_CASE("a Gemm takes its bias and activation, a product by a batch of matrices neither") {
  for (bool batched : {false, true}) {
    CAPTURE(batched);
    GraphBuilder b;
    const Shape in = batched ? Shape{2, 8, 32} : Shape{8, 32};
    const Shape w = batched ? Shape{2, 32, 64} : Shape{32, 64};
    const TensorRef product = b.matmul(b.input("x", in), b.weight("w", w));
    b.output("y", b.relu(b.ewadd(product, b.weight("bias", {64}))));
    const Graph graph = std::move(b).finish();
    const AsRunPlan plan = as_run_plan(graph, RuntimeFusions::kOnnxRuntime);
    std::size_t fused = 0;
    for (bool f : plan.fused) fused += f;
    CHECK(fused == (batched ? 0u : 2u));
  }
}

TEST_CASE("a rank-3 product by a matrix takes its bias, unless it projects an attention's result") {
  // [2, 8, 32] x [32, 64] runs as a Gemm between reshapes: the bias is fused, the relu after the
  // reshape is not. Reading an attention, ONNX Runtime keeps the product a MatMul.
  for (bool after_attention : {false, true}) {
    CAPTURE(after_attention);
    GraphBuilder b;
    TensorRef x = b.input("x", {2, 8, 32});
    if (after_attention)
      x = b.add1(Op::kAttention, {x, x, x, b.weight("no_bias", {1, 1, 1, 1})},
                 {std::int64_t{4}, std::int64_t{0}, 0.25});
    const TensorRef product = b.matmul(x, b.weight("w", {32, 64}));
    const TensorRef biased = b.ewadd(product, b.weight("bias", {64}));
    const TensorRef activated = b.relu(biased);
    b.output("y", activated);
    const Graph graph = std::move(b).finish();
    const AsRunPlan plan = as_run_plan(graph, RuntimeFusions::kOnnxRuntime);
    CHECK(plan.fused[biased.node] == !after_attention);
    CHECK_FALSE(plan.fused[activated.node]);
  }
}

TEST_CASE("a split of a convolution's output copies it out of and back into the blocked layout") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {1, 16, 8, 8});
  const TensorRef conv = b.conv2d(x, b.weight("w", {32, 16, 1, 1}), 1, 1, Padding::kSame);
  const std::vector<TensorRef> halves = b.split(conv, 1, {16, 16});
  b.output("a", b.conv2d(halves[0], b.weight("wa", {16, 16, 3, 3}), 1, 1, Padding::kSame));
  b.output("b", b.relu(halves[1]));
  const Graph graph = std::move(b).finish();
  const AsRunPlan plan = as_run_plan(graph, RuntimeFusions::kOnnxRuntime);
  // Split's own copy and the copy out of the blocked layout (the whole tensor), and the copy back
  // of the half a convolution reads.
  REQUIRE(plan.copies.size() == 3);
  CHECK(plan.copies[0] == graph.type_of(conv));
  CHECK(plan.copies[1] == graph.type_of(conv));
  CHECK(plan.copies[2] == graph.type_of(halves[0]));
  const FusingCostModel ort(cpu(), RuntimeFusions::kOnnxRuntime);
  const AsRunCosts costs = as_run_costs(graph, ort);
  CHECK(costs.copies_ms > 0);
  CHECK(costs.total_ms == doctest::Approx(graph_cost(graph, *cpu()) + costs.copies_ms));
}

TEST_CASE("without a fusing runtime the as-run cost is the sum of the operators") {
  const Graph graph = conv_layer(true);
  const AsRunPlan plan = as_run_plan(graph, RuntimeFusions::kNone);
  for (bool f : plan.fused) CHECK_FALSE(f);
  CHECK(as_run_cost(graph, *cpu()) == graph_cost(graph, *cpu()));
  const FusingCostModel none(cpu(), RuntimeFusions::kNone);
  CHECK(as_run_cost(graph, none) == graph_cost(graph, *cpu()));
}

TEST_CASE("the fusing model prices operators as its base and names its runtime") {
  const FusingCostModel ort(cpu(), RuntimeFusions::kOnnxRuntime);
  CHECK(ort.name() == "roofline(cpu-2core) as onnxruntime runs it");
  CHECK(ort.runtime_fusions() == RuntimeFusions::kOnnxRuntime);
  const Graph graph = conv_layer(false);
  CHECK(graph_cost(graph, ort) == graph_cost(graph, *cpu()));
}

TEST_CASE("ONNX Runtime's Attention costs its matrix products; what no output needs costs nothing") {
  // x [1, 64, 256] through an opaque com.microsoft.Attention with a packed [256, 768] weight, and a
  // relu of x that no output reads.
  GraphBuilder b;
  const TensorRef x = b.input("x", {1, 64, 256});
  const TensorRef weight = b.weight("qkv", {256, 768});
  const std::vector<TensorType> out = {TensorType{{1, 64, 256}}};
  const TensorRef attention =
      b.add1(Op::kOpaque, {x, weight}, {std::int64_t{1}, encode_output_types(out)}, "attention");
  const TensorRef unused = b.relu(x);
  b.output("y", attention);
  Graph graph = b.graph();
  graph.nodes()[attention.node].opaque =
      std::make_shared<const OpaqueInfo>(OpaqueInfo{"com.microsoft.Attention", ""});
  graph.infer_and_validate();
  const FusingCostModel ort(cpu(), RuntimeFusions::kOnnxRuntime);
  const AsRunCosts costs = as_run_costs(graph, ort);
  const Attrs none{std::int64_t{0}};
  auto product = [&](Shape a, Shape w, Shape o) {
    const std::vector<TensorType> in = {{std::move(a)}, {std::move(w)}}, result = {{std::move(o)}};
    return cpu()->cost(OpInstance{Op::kMatmul, in, none, result});
  };
  const double products = product({64, 256}, {256, 768}, {64, 768}) +
                          product({1, 64, 256}, {1, 256, 64}, {1, 64, 64}) +
                          product({1, 64, 64}, {1, 64, 256}, {1, 64, 256});
  CHECK(costs.nodes[attention.node].cost_ms == doctest::Approx(products));
  // Operator by operator an opaque operator is priced as data movement, far below its products.
  CHECK(node_costs(graph, *cpu())[attention.node].cost_ms < products / 2);
  CHECK(as_run_plan(graph, RuntimeFusions::kOnnxRuntime).dropped[unused.node]);
  CHECK(costs.nodes[unused.node].cost_ms == 0);
  CHECK(costs.total_ms == doctest::Approx(products));
}

TEST_CASE("an attention operator costs the decomposition ONNX Runtime runs for it") {
  // q, k and v [1, 64, 256] in 4 heads of 64; a zero bias (written as no Add), or one of values.
  auto attention_graph = [](double bias_value) {
    GraphBuilder b;
    const TensorRef q = b.input("q", {1, 64, 256}), k = b.input("k", {1, 64, 256}),
                    v = b.input("v", {1, 64, 256});
    const TensorRef bias = b.weight("bias", {1, 1, 1, 64},
                                    std::make_shared<const Tensor>(Shape{1, 1, 1, 64}, bias_value));
    b.output("y",
             b.add1(Op::kAttention, {q, k, v, bias}, {std::int64_t{4}, std::int64_t{0}, 0.125}));
    return std::move(b).finish();
  };
  const FusingCostModel ort(cpu(), RuntimeFusions::kOnnxRuntime);
  auto cost = [&](Op op, std::vector<Shape> in, const Attrs& attrs, Shape out) {
    std::vector<TensorType> inputs;
    for (Shape& shape : in) inputs.push_back({std::move(shape)});
    const std::vector<TensorType> outputs = {TensorType{std::move(out)}};
    return cpu()->cost(OpInstance{op, inputs, attrs, outputs});
  };
  const Shape heads = {1, 4, 64, 64}, split = {1, 64, 4, 64};
  const Attrs none{std::int64_t{0}};
  const double transpose =
      cost(Op::kTranspose, {split}, {std::vector<std::int64_t>{0, 2, 1, 3}}, heads);
  const double pieces = 4 * transpose + 2 * cost(Op::kMatmul, {heads, heads}, none, heads) +
                        cost(Op::kEwMul, {heads, {}}, {}, heads) +
                        cost(Op::kSoftmax, {heads}, {std::int64_t{3}}, heads);
  const Graph zero = attention_graph(0.0);
  const NodeId attention = zero.size() - 1;
  CHECK(as_run_costs(zero, ort).nodes[attention].cost_ms == doctest::Approx(pieces));
  // Operator by operator (the search's pricing) it is one kernel, cheaper than its pieces.
  CHECK(node_costs(zero, *cpu())[attention].cost_ms < pieces);
  const Graph biased = attention_graph(0.5);
  CHECK(as_run_costs(biased, ort).nodes[attention].cost_ms ==
        doctest::Approx(pieces + cost(Op::kEwAdd, {heads, {1, 1, 1, 64}}, {}, heads)));
}

}  // namespace runtime_fusions_test
}  // namespace mctsat::tensor
