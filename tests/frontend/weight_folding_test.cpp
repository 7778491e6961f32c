// operators_over_unvalued_weights (frontend/weight_folding.hpp): a kernel merged from weights with
// values is folded, one merged from weights without values is computed at every inference, and
// so is what reads it; an operator that also reads a graph input is not counted.
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/weight_folding.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/interpreter.hpp"

using namespace mctsat;

namespace {

// x [4, 8] times the concatenation of two [8, 4] weights, with or without values.
tensor::Graph merged_product(bool with_values) {
  auto values = [&](const char* stream) -> std::shared_ptr<const tensor::Tensor> {
    if (!with_values) return nullptr;
    return std::make_shared<const tensor::Tensor>(tensor::random_tensor({8, 4}, 3, stream));
  };
  tensor::GraphBuilder b;
  const auto x = b.input("x", {4, 8});
  const auto kernel =
      b.concat(1, {b.weight("w1", {8, 4}, values("w1")), b.weight("w2", {8, 4}, values("w2"))});
  b.output("y", b.matmul(x, b.relu(kernel)));
  return std::move(b).finish();
}

}  // namespace

TEST_CASE("a kernel merged from weights without values is computed at every inference") {
  CHECK(frontend::operators_over_unvalued_weights(merged_product(false)) ==
        std::vector<std::string>{"concat", "relu"});
}

TEST_CASE("a kernel merged from weights with values is folded") {
  CHECK(frontend::operators_over_unvalued_weights(merged_product(true)).empty());
}
