// Timing helpers of the oneDNN executor: quantiles and timing statistics on known values, output
// differences, and interleaved runs that time every graph equally and reproduce its outputs.
#include "runtime/timed_execution.hpp"

#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::runtime {
namespace {

using namespace tensor;

TEST_CASE("timing statistics are the quantiles of the runs") {
  const TimingStats stats = TimingStats::of({5, 1, 3});
  CHECK(stats.runs == 3);
  CHECK(stats.median_ms == 3);
  CHECK(stats.q1_ms == 2);
  CHECK(stats.q3_ms == 4);
  CHECK(stats.min_ms == 1);
  CHECK(stats.max_ms == 5);
  CHECK(stats.to_json()["median_ms"] == 3.0);
  CHECK(TimingStats::of({}).runs == 0);
}

TEST_CASE("max_relative_difference scales by the first outputs, checks shapes, refuses overflow") {
  const std::vector<Tensor> a = {Tensor({2}, std::vector<double>{1, -4})};
  const std::vector<Tensor> b = {Tensor({2}, std::vector<double>{1.5, -4})};
  CHECK(max_relative_difference(a, b) == doctest::Approx(0.125));
  CHECK(max_relative_difference(a, a) == 0);
  CHECK(outputs_finite(a));
  const std::vector<Tensor> overflow = {
      Tensor({2}, std::vector<double>{1, std::numeric_limits<double>::infinity()})};
  CHECK_FALSE(outputs_finite(overflow));
  CHECK(std::isnan(max_relative_difference(a, overflow)));
  CHECK(std::isnan(max_relative_difference(overflow, overflow)));
  CHECK_THROWS_AS(max_relative_difference(a, {}), Error);
  CHECK_THROWS_AS(max_relative_difference(a, {Tensor({1, 2}, 0.0)}), Error);
}

Graph small_mlp(bool fused) {
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 16});
  const TensorRef w = b.weight("w", {16, 8});
  const TensorRef y = fused ? b.matmul(x, w, Activation::kRelu) : b.relu(b.matmul(x, w));
  b.output("y", y);
  return std::move(b).finish();
}

TEST_CASE("interleaved runs time every graph as often and keep its outputs") {
  const Graph plain = small_mlp(false), fused = small_mlp(true);
  const auto inputs = random_inputs(plain, 5);
  std::vector<TimedGraph> graphs;
  graphs.emplace_back(plain, inputs, 5);
  graphs.emplace_back(fused, inputs, 5);
  CHECK(graphs[0].primitives() > graphs[1].primitives());
  time_interleaved(graphs, 4, 1);
  for (const TimedGraph& graph : graphs) {
    CHECK(graph.times_ms().size() == 4);
    for (double ms : graph.times_ms()) CHECK(ms >= 0);
  }
  CHECK(max_relative_difference(graphs[0].outputs(), graphs[1].outputs()) <= 1e-6);
  InterpretOptions options;
  options.random_weight_seed = 5;
  CHECK(max_relative_difference(interpret(plain, inputs, options), graphs[0].outputs()) <= 1e-5);
}

}  // namespace
}  // namespace mctsat::runtime
