// Whole zoo models on the oneDNN executor against the reference interpreter, with the zoo's
// seeded random weights: the largest relative output error is printed and bounded.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "frontend/zoo.hpp"
#include "runtime/dnnl_executor.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::frontend {
namespace {

// float32 through a few dozen layers against float64, relative to the largest output value.
constexpr double kTolerance = 1e-3;

double max_relative_error(const std::vector<tensor::Tensor>& got,
                          const std::vector<tensor::Tensor>& want) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    REQUIRE(got[i].shape == want[i].shape);
    double diff = 0, scale = 0;
    for (std::size_t j = 0; j < want[i].data.size(); ++j) {
      diff = std::max(diff, std::abs(got[i].data[j] - want[i].data[j]));
      scale = std::max(scale, std::abs(want[i].data[j]));
    }
    worst = std::max(worst, diff / std::max(scale, 1e-30));
  }
  return worst;
}

void check_model(std::string_view name) {
  const std::optional<tensor::Graph> graph = build_zoo_model(name);
  REQUIRE(graph.has_value());
  const auto inputs = tensor::random_inputs(*graph, 5);
  tensor::InterpretOptions interpret_options;
  interpret_options.random_weight_seed = 11;
  runtime::ExecutorOptions executor_options;
  executor_options.random_weight_seed = 11;
  const double error =
      max_relative_error(runtime::DnnlExecutor(*graph, executor_options).run(inputs),
                         tensor::interpret(*graph, inputs, interpret_options));
  MESSAGE(name << ": max relative error " << error);
  CHECK(error <= kTolerance);
}

TEST_CASE("demo") {
  check_model("demo");
}

TEST_CASE("nasrnn") {
  check_model("nasrnn");
}

}  // namespace
}  // namespace mctsat::frontend
