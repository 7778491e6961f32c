// Graphs priced as ONNX Runtime runs them: a convolution's bias, residual sum and activation are
// fused, a Gemm's bias and activation too; an activation behind a concat is not; a split of a
// convolution's output copies; the kNone runtime is the plain sum; the fusing model's name.
#include "tensor/runtime_fusions.hpp"

#include <memory>

#include <doctest/doctest.h>

#include "tensor/device_profile.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/roofline_cost_model.hpp"

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

TEST_CASE("a Gemm takes its bias and activation, a batched matmul does not") {
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

}  // namespace runtime_fusions_test
}  // namespace mctsat::tensor
