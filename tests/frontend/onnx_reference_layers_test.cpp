// The reference MaxPool, AveragePool (what the importer keeps opaque: ceil_mode, odd pads), GRU and
// LayerNormalization on small inputs worked out by hand: window sizes, the ceil_mode rule, padding
// counted or not; the GRU's gates in both of ONNX's forms (linear_before_reset or not).
#include <cmath>
#include <optional>
#include <vector>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/onnx_reference_ops.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;

namespace {

// 0, 1, 2, ... in a 1x1xHxW tensor.
frontend::OnnxValue iota(std::int64_t h, std::int64_t w) {
  std::vector<double> values;
  for (std::int64_t i = 0; i < h * w; ++i) values.push_back(static_cast<double>(i));
  return {tensor::Tensor({1, 1, h, w}, values), tensor::DType::kFloat32};
}

tensor::Tensor run(const onnx::NodeProto& node, const frontend::OnnxValue& x) {
  const std::vector<std::optional<frontend::OnnxValue>> inputs = {x};
  auto outputs = frontend::evaluate_onnx_node(node, 13, inputs);
  REQUIRE(outputs.size() == 1);
  REQUIRE(outputs[0].has_value());
  return outputs[0]->value;
}

onnx::NodeProto pool(const char* type) {
  onnx::GraphProto g;
  return *add_node(g, type, {"x"}, {"y"});
}

}  // namespace

TEST_CASE("MaxPool with ceil_mode keeps the partial last window (googlenet's pools)") {
  onnx::NodeProto node = pool("MaxPool");
  set_ints(&node, "kernel_shape", {2, 2});
  set_ints(&node, "strides", {2, 2});
  set_int(&node, "ceil_mode", 1);
  const tensor::Tensor y = run(node, iota(5, 5));
  CHECK(y.shape == tensor::Shape{1, 1, 3, 3});
  CHECK(y.data == std::vector<double>{6, 8, 9, 16, 18, 19, 21, 23, 24});
  onnx::NodeProto floor = pool("MaxPool");
  set_ints(&floor, "kernel_shape", {2, 2});
  set_ints(&floor, "strides", {2, 2});
  CHECK(run(floor, iota(5, 5)).data == std::vector<double>{6, 8, 16, 18});
}

TEST_CASE("AveragePool counts padding cells only with count_include_pad") {
  onnx::NodeProto node = pool("AveragePool");
  set_ints(&node, "kernel_shape", {3, 3});
  set_ints(&node, "pads", {1, 1, 1, 1});
  const tensor::Tensor excluded = run(node, iota(3, 3));
  REQUIRE(excluded.shape == tensor::Shape{1, 1, 3, 3});
  CHECK(excluded.data[0] == doctest::Approx((0 + 1 + 3 + 4) / 4.0));
  CHECK(excluded.data[4] == doctest::Approx(4.0));
  set_int(&node, "count_include_pad", 1);
  const tensor::Tensor included = run(node, iota(3, 3));
  CHECK(included.data[0] == doctest::Approx((0 + 1 + 3 + 4) / 9.0));
  CHECK(included.data[4] == doctest::Approx(4.0));
}

TEST_CASE("GRU: one unit over two steps, with and without linear_before_reset") {
  // W = [1, 1, 1] (z, r, h), R = [0.5, 0.5, 0.5], biases 0 but R's for h: 0.25; x = [1, 2].
  const auto value = [](tensor::Shape shape, std::vector<double> values) {
    return std::optional<frontend::OnnxValue>(frontend::OnnxValue{
        tensor::Tensor(std::move(shape), std::move(values)), tensor::DType::kFloat64});
  };
  const std::vector<std::optional<frontend::OnnxValue>> inputs = {
      value({2, 1, 1}, {1, 2}), value({1, 3, 1}, {1, 1, 1}), value({1, 3, 1}, {0.5, 0.5, 0.5}),
      value({1, 6}, {0, 0, 0, 0, 0, 0.25})};
  const auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  for (const int linear_before_reset : {0, 1}) {
    CAPTURE(linear_before_reset);
    onnx::GraphProto g;
    onnx::NodeProto node = *add_node(g, "GRU", {"x", "w", "r", "b"}, {"y", "y_h"});
    set_int(&node, "hidden_size", 1);
    set_int(&node, "linear_before_reset", linear_before_reset);
    const auto outputs = frontend::evaluate_onnx_node(node, 14, inputs);
    REQUIRE(outputs.size() == 2);
    double h = 0;
    std::vector<double> expected;
    for (const double x : {1.0, 2.0}) {
      const double z = sigmoid(x + 0.5 * h), r = sigmoid(x + 0.5 * h);
      const double candidate =
          std::tanh(x + (linear_before_reset ? r * (0.5 * h + 0.25) : 0.5 * (r * h) + 0.25));
      h = (1 - z) * candidate + z * h;
      expected.push_back(h);
    }
    REQUIRE(outputs[0]->value.shape == tensor::Shape{2, 1, 1, 1});
    CHECK(outputs[0]->value.data[0] == doctest::Approx(expected[0]));
    CHECK(outputs[0]->value.data[1] == doctest::Approx(expected[1]));
    CHECK(outputs[1]->value.data[0] == doctest::Approx(expected[1]));
  }
}

TEST_CASE("LayerNormalization normalizes the last axis, then scales and shifts") {
  onnx::GraphProto g;
  const onnx::NodeProto node = *add_node(g, "LayerNormalization", {"x", "scale", "bias"}, {"y"});
  // Rows (1, 2, 3) and (4, 4, 4): mean 2 and 4, variance 2/3 and 0.
  const std::vector<std::optional<frontend::OnnxValue>> inputs = {
      frontend::OnnxValue{tensor::Tensor({2, 3}, {1, 2, 3, 4, 4, 4})},
      frontend::OnnxValue{tensor::Tensor({3}, {1, 2, 1})},
      frontend::OnnxValue{tensor::Tensor({3}, {0, 0, 10})}};
  const auto outputs = frontend::evaluate_onnx_node(node, 17, inputs);
  REQUIRE(outputs.size() == 1);
  const tensor::Tensor& y = outputs[0]->value;
  const double inverse = 1 / std::sqrt(2.0 / 3 + 1e-5);
  CHECK(y.data[0] == doctest::Approx(-inverse));
  CHECK(y.data[1] == doctest::Approx(0));
  CHECK(y.data[2] == doctest::Approx(inverse + 10));
  CHECK(y.data[3] == doctest::Approx(0));  // a constant row: epsilon keeps it finite
  CHECK(y.data[5] == doctest::Approx(10));
}
