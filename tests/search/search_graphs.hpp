// Small graphs and the output comparison shared by the search tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "tensor/graph_builder.hpp"
#include "tensor/interpreter.hpp"

namespace search_graphs {

using namespace mctsat::tensor;

// Three products of one input, two of them followed by activations, summed (several TASO rules
// apply, among them the multi-pattern merge of products sharing an input).
inline Graph projections() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {32, 128});
  const TensorRef q = b.relu(b.matmul(x, b.weight("wq", {128, 128})));
  const TensorRef k = b.matmul(x, b.weight("wk", {128, 128}));
  const TensorRef v = b.tanh(b.matmul(x, b.weight("wv", {128, 128})));
  b.output("y", b.ewadd(b.ewadd(q, k), v));
  return std::move(b).finish();
}

// The largest absolute difference between two graphs' outputs on the same seeded inputs and
// random weights.
inline double max_difference(const Graph& a, const Graph& b, std::uint64_t seed) {
  InterpretOptions options;
  options.random_weight_seed = seed;
  const auto inputs = random_inputs(a, seed);
  const auto out_a = interpret(a, inputs, options), out_b = interpret(b, inputs, options);
  double diff = 0;
  for (std::size_t o = 0; o < out_a.size(); ++o)
    for (std::size_t i = 0; i < out_a[o].data.size(); ++i)
      diff = std::max(diff, std::abs(out_a[o].data[i] - out_b[o].data[i]));
  return diff;
}

}  // namespace search_graphs
