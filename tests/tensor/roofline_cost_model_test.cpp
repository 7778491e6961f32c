// The roofline cost model: FLOP and byte counts checked by hand, compute- and memory-bound
// operators against the formula with the V100's numbers, views and weight-only subgraphs free, and
// merging small matmuls paying off.
#include "tensor/roofline_cost_model.hpp"

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/shape_inference.hpp"

#include "tests/tensor/op_instances.hpp"

namespace mctsat::tensor {
namespace {

using testing::f32;
using testing::Instance;
using testing::make;

// V100 numbers (devices/v100.json).
constexpr double kPeak = 15.7e12, kBandwidth = 900e9, kLaunch = 5e-6, kSaturation = 80.0 * 2048;

TEST_CASE("a large matmul is compute bound and priced by the formula with the V100 numbers") {
  const RooflineCostModel model(builtin_profile("v100"));
  CHECK(model.name() == "roofline(v100)");
  const Instance mm = make(Op::kMatmul, {f32({4096, 4096}), f32({4096, 4096})}, {std::int64_t{0}});
  const double n = 4096;
  CHECK(operator_flops(mm.get()) == 2 * n * n * n);
  CHECK(operator_bytes(mm.get()) == 3 * n * n * 4);
  CHECK(operator_compute_work(mm.get()) == n * n);
  CHECK(operator_memory_work(mm.get()) == 3 * n * n);

  const auto estimate = model.estimate(mm.get());
  CHECK(estimate.compute_bound());
  const double efficiency = n * n / (n * n + kSaturation);
  CHECK(estimate.compute_efficiency == doctest::Approx(efficiency));
  const double expected_ms = (2 * n * n * n / (kPeak * efficiency) + kLaunch) * 1e3;
  CHECK(model.cost(mm.get()) == doctest::Approx(expected_ms));
  CHECK(model.cost(mm.get()) == doctest::Approx(8.844562).epsilon(1e-6));  // by hand
}

TEST_CASE("a relu is memory bound") {
  const RooflineCostModel model(builtin_profile("v100"));
  const Instance relu = make(Op::kRelu, {f32({1, 64, 56, 56})}, {});
  const double elements = 64.0 * 56 * 56;  // 200704
  CHECK(operator_flops(relu.get()) == elements);
  CHECK(operator_bytes(relu.get()) == 2 * elements * 4);
  const auto estimate = model.estimate(relu.get());
  CHECK_FALSE(estimate.compute_bound());
  CHECK(operator_memory_work(relu.get()) == 2 * elements);
  // Memory work: 401408 elements moved, efficiency 401408 / (401408 + 163840) = 0.7101.
  const double efficiency = 2 * elements / (2 * elements + kSaturation);
  CHECK(model.cost(relu.get()) ==
        doctest::Approx((2 * elements * 4 / (kBandwidth * efficiency) + kLaunch) * 1e3));
  CHECK(model.cost(relu.get()) == doctest::Approx(0.0075122).epsilon(1e-5));  // 2.51 us + 5 us
}

TEST_CASE("FLOP counts per operator") {
  SUBCASE("matmul with a fused activation, batched") {
    const Instance mm =
        make(Op::kMatmul, {f32({8, 32, 64}), f32({64, 16})}, {std::int64_t{3}});  // tanh
    CHECK(operator_flops(mm.get()) == 2.0 * 8 * 32 * 16 * 64 + kTanhFlops * 8 * 32 * 16);
  }
  SUBCASE("conv2d, plain and grouped") {
    const Instance conv =
        make(Op::kConv2d, {f32({1, 64, 56, 56}), f32({128, 64, 3, 3})},
             {std::int64_t{1}, std::int64_t{1}, std::int64_t{0}, std::int64_t{2}});
    const double out = 128.0 * 56 * 56;
    CHECK(operator_flops(conv.get()) == 2 * out * 64 * 9 + kReluFlops * out);
    // Four groups: 16 input channels per output; stride 2 halves the spatial size.
    const Instance grouped =
        make(Op::kConv2d, {f32({2, 64, 56, 56}), f32({64, 16, 3, 3})},
             {std::int64_t{2}, std::int64_t{2}, std::int64_t{0}, std::int64_t{0}});
    CHECK(operator_flops(grouped.get()) == 2.0 * 2 * 64 * 28 * 28 * 16 * 9);
  }
  SUBCASE("elementwise, activations, softmax, batchnorm") {
    const Instance add =
        make(Op::kEwAdd, {f32({4, 1, 8}), f32({3, 8})}, {});  // broadcasts to 4x3x8
    CHECK(operator_flops(add.get()) == 96);
    CHECK(operator_bytes(add.get()) == (32 + 24 + 96) * 4.0);
    CHECK(operator_flops(make(Op::kSigmoid, {f32({10, 10})}, {}).get()) == 400);
    CHECK(operator_flops(make(Op::kSoftmax, {f32({10, 10})}, {std::int64_t{1}}).get()) == 500);
    const Instance bn =
        make(Op::kBatchNorm, {f32({1, 8, 4, 4}), f32({8}), f32({8}), f32({8}), f32({8})}, {});
    CHECK(operator_flops(bn.get()) == 2 * 128);
    CHECK(operator_bytes(bn.get()) == (128 + 4 * 8 + 128) * 4.0);
  }
  SUBCASE("pooling") {
    const Instance pool = make(Op::kPoolMax, {f32({1, 64, 112, 112})},
                               {std::int64_t{3}, std::int64_t{3}, std::int64_t{2}, std::int64_t{2},
                                std::int64_t{0}, std::int64_t{0}});
    CHECK(operator_flops(pool.get()) == 64.0 * 56 * 56 * 9);
    const Instance global = make(Op::kGlobalAvgPool, {f32({2, 512, 7, 7})}, {});
    CHECK(operator_flops(global.get()) == 2.0 * 512 * 49 + 2 * 512);
    CHECK(operator_compute_work(global.get()) == 2.0 * 512 * 49);  // a reduction: its inputs
    CHECK(operator_memory_work(global.get()) == 2.0 * 512 * 49 + 2 * 512);
  }
  SUBCASE("data movement: transpose, concat, enlarge") {
    const Instance transpose =
        make(Op::kTranspose, {f32({64, 1024})}, {std::vector<std::int64_t>{1, 0}});
    CHECK(operator_flops(transpose.get()) == 0);
    CHECK(operator_bytes(transpose.get()) == 2 * 64 * 1024 * 4.0);
    const Instance concat =
        make(Op::kConcat, {f32({2, 3}), f32({2, 5})}, {std::int64_t{1}, std::int64_t{2}});
    CHECK(operator_flops(concat.get()) == 0);
    CHECK(operator_bytes(concat.get()) == (6 + 10 + 16) * 4.0);
    const Instance enlarge = make(Op::kEnlarge, {f32({8, 8, 1, 1}), f32({8, 8, 3, 3})}, {});
    CHECK(operator_bytes(enlarge.get()) == (64 + 576) * 4.0);  // the reference is not read
  }
  SUBCASE("element types set the bytes") {
    const Instance relu = make(Op::kRelu, {TensorType{{1000}, DType::kFloat16}}, {});
    CHECK(operator_bytes(relu.get()) == 2 * 1000 * 2.0);
  }
}

TEST_CASE("views and noop cost nothing; every other operator pays the launch overhead") {
  const RooflineCostModel model(builtin_profile("v100"));
  const Instance views[] = {
      make(Op::kReshape, {f32({4, 6})}, {Shape{24}}),
      make(Op::kFlatten, {f32({2, 3, 4})}, {std::int64_t{1}}),
      make(Op::kSplit, {f32({4, 6})}, {std::int64_t{1}, std::vector<std::int64_t>{2, 4}}),
      make(Op::kIdentity, {f32({4})}, {}),
      make(Op::kDropout, {f32({4})}, {}),
      make(Op::kNoop, {f32({4}), f32({4})}, {}),
      make(Op::kInput, {}, {Shape{4, 4}}),
      make(Op::kWeight, {}, {Shape{4, 4}}),
  };
  for (const Instance& view : views) {
    CAPTURE(op_name(view.op));
    CHECK(model.cost(view.get()) == 0);
    CHECK(operator_flops(view.get()) == 0);
    CHECK(operator_bytes(view.get()) == 0);
  }
  const Instance tiny = make(Op::kEwAdd, {f32({1}), f32({1})}, {});
  // 12 bytes moved by 3 elements of work: 12 B / (900 GB/s * 3 / (3 + 163840)) = 0.73 us, a
  // latency-like floor on top of the launch overhead.
  CHECK(model.cost(tiny.get()) ==
        doctest::Approx((12 * (3 + kSaturation) / (3 * kBandwidth) + kLaunch) * 1e3));
  CHECK(model.cost(tiny.get()) < (kLaunch + 1e-6) * 1e3);
}

TEST_CASE("opaque operators are priced as data movement plus the launch overhead") {
  const RooflineCostModel model(builtin_profile("v100"));
  const std::vector<TensorType> outputs = {f32({1, 64, 56, 56})};
  Instance lrn{Op::kOpaque,
               {f32({1, 64, 56, 56})},
               {std::int64_t{7}, encode_output_types(outputs)},
               outputs};
  const double elements = 64.0 * 56 * 56;
  CHECK(operator_flops(lrn.get()) == 0);
  CHECK(operator_bytes(lrn.get()) == 2 * elements * 4);
  const double efficiency = 2 * elements / (2 * elements + kSaturation);
  CHECK(model.cost(lrn.get()) ==
        doctest::Approx((2 * elements * 4 / (kBandwidth * efficiency) + kLaunch) * 1e3));
}

TEST_CASE("an instance that does not fit its operator is an error, not a crash") {
  const RooflineCostModel model(builtin_profile("v100"));
  const std::vector<TensorType> inputs = {f32({4, 4})};
  const std::vector<TensorType> outputs = {f32({4, 4})};
  const Attrs attrs = {std::int64_t{0}};
  CHECK_THROWS_AS(model.cost(OpInstance{Op::kMatmul, inputs, attrs, outputs}), Error);
  const std::vector<TensorType> two = {f32({4, 4}), f32({4, 4})};
  const Attrs bad_act = {std::int64_t{9}};
  CHECK_THROWS_AS(model.cost(OpInstance{Op::kMatmul, two, bad_act, outputs}), Error);
  DeviceProfile broken = builtin_profile("v100");
  broken.peak_flops = 0;
  CHECK_THROWS_AS(RooflineCostModel{broken}, Error);
}

// Two 64x1024 * 1024x1024 matmuls sharing their input, and the same computed as one
// 64x1024 * 1024x2048 matmul whose result is split (the weights' concat is weight-only).
Graph separate_matmuls() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {64, 1024});
  b.output("y1", b.matmul(x, b.weight("w1", {1024, 1024})));
  b.output("y2", b.matmul(x, b.weight("w2", {1024, 1024})));
  return std::move(b).finish();
}

Graph merged_matmul() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {64, 1024});
  const TensorRef w = b.concat(1, {b.weight("w1", {1024, 1024}), b.weight("w2", {1024, 1024})});
  const auto parts = b.split(b.matmul(x, w), 1, {1024, 1024});
  b.output("y1", parts[0]);
  b.output("y2", parts[1]);
  return std::move(b).finish();
}

TEST_CASE("merging two small matmuls that share an input into one pays on the V100") {
  const RooflineCostModel model(builtin_profile("v100"));
  const double separate = graph_cost(separate_matmuls(), model);
  const double merged = graph_cost(merged_matmul(), model);
  // By hand: each small matmul 2*64*1024*1024 FLOP at 15.7 TFLOP/s * 65536 / (65536 + 163840)
  // = 29.92 us + 5 us; the merged one twice the FLOPs at efficiency 131072 / (131072 + 163840)
  // = 38.47 us + 5 us.
  CHECK(separate == doctest::Approx(2 * 0.0349211).epsilon(1e-5));
  CHECK(merged == doctest::Approx(0.0434700).epsilon(1e-5));
  CHECK(merged < separate);

  // The efficiency factor alone makes it pay, without any launch overhead.
  DeviceProfile no_launch = builtin_profile("v100");
  no_launch.launch_overhead_s = 0;
  const RooflineCostModel model_no_launch(no_launch);
  CHECK(graph_cost(merged_matmul(), model_no_launch) <
        0.7 * graph_cost(separate_matmuls(), model_no_launch));
}

TEST_CASE("weight-only subgraphs, leaves and views cost nothing in graph_cost") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {64, 256});
  const TensorRef w =
      b.relu(b.ewadd(b.weight("w1", {256, 128}), b.weight("w2", {256, 128})));  // weight-only
  const TensorRef y = b.reshape(b.matmul(x, w), {64, 2, 64});                   // a view
  b.output("y", y);
  const Graph graph = std::move(b).finish();
  const RooflineCostModel model(builtin_profile("v100"));

  const Instance mm = make(Op::kMatmul, {f32({64, 256}), f32({256, 128})}, {std::int64_t{0}});
  const auto costs = node_costs(graph, model);
  REQUIRE(costs.size() == graph.size());
  int priced = 0;
  for (const NodeCost& cost : costs) {
    const Node& node = graph.node(cost.node);
    CAPTURE(node.name);
    if (node.op == Op::kMatmul) {
      CHECK(cost.cost_ms == doctest::Approx(model.cost(mm.get())));
      ++priced;
    } else {
      CHECK(cost.cost_ms == 0);
    }
  }
  CHECK(priced == 1);
  CHECK(graph_cost(graph, model) == doctest::Approx(model.cost(mm.get())));
  CHECK(graph_cost(graph, model) > 0);
}

TEST_CASE("the roofline model is deterministic and orders devices sensibly") {
  const Instance mm = make(Op::kMatmul, {f32({1024, 1024}), f32({1024, 1024})}, {std::int64_t{0}});
  const RooflineCostModel v100(builtin_profile("v100"));
  const RooflineCostModel h100(builtin_profile("h100"));
  const RooflineCostModel cpu(builtin_profile("cpu-2core"));
  CHECK(v100.cost(mm.get()) == v100.cost(mm.get()));
  CHECK(h100.cost(mm.get()) < v100.cost(mm.get()));
  CHECK(v100.cost(mm.get()) < cpu.cost(mm.get()));
  // On the CPU the big matmul runs near its 160 GFLOP/s peak: 2 * 1024^3 FLOP in about 13.4 ms.
  CHECK(cpu.cost(mm.get()) ==
        doctest::Approx(2.0 * 1024 * 1024 * 1024 / 160e9 * 1e3).epsilon(1e-3));
}

}  // namespace
}  // namespace mctsat::tensor
