// The zoo's `nasrnn`: TENSAT's NasRNN benchmark (uwplse/tensat, src/nasrnn.rs, itself TASO's
// examples/nasrnn.py). Five time steps of the recurrent cell found by
// neural architecture search (Zoph & Le), hidden size 512, batch 1: each step takes its own 1x512
// input x_t and the previous state h. Eight "combination" nodes per step compute x_t.W + h.U, each
// with its own pair of 512x512 weights (so the 16 products of a step share their left operands:
// the matmul-merging rewrites' favourite pattern); a fixed tree of relu / sigmoid / tanh, ewadd
// and ewmul folds the eight into the new state. As in TENSAT, the initial state is a weight, so
// the eight h.U products of the first step are weight-only (folded, free).
//
// `nasrnn-T` (zoo.hpp's generated models) unrolls the same cell over T steps.
//
// Operators: 230, as TENSAT's; per step 46 = 16 matmul + 11 ewadd + 4 ewmul + 8 tanh + 5 sigmoid
// + 2 relu. The graph has one output, the final state (1x512), as TENSAT's root.
#include <array>
#include <vector>

#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {
namespace {

using tensor::GraphBuilder;
using tensor::TensorRef;

constexpr std::int64_t kHidden = 512;

// One step of the cell: the new state from the input x and the previous state h. Every operator
// is its own statement so that node order (and fresh names) never depends on the compiler's order
// of evaluating arguments.
TensorRef nas_cell(GraphBuilder& b, int step, TensorRef x, TensorRef h) {
  std::array<TensorRef, 8> t{};
  for (std::size_t i = 0; i < t.size(); ++i) {
    const TensorRef wx = b.weight(fmt::format("step{}_comb{}_wx", step, i), {kHidden, kHidden});
    const TensorRef wh = b.weight(fmt::format("step{}_comb{}_wh", step, i), {kHidden, kHidden});
    const TensorRef from_x = b.matmul(x, wx);
    const TensorRef from_h = b.matmul(h, wh);
    t[i] = b.ewadd(from_x, from_h);
  }
  auto add = [&b](TensorRef p, TensorRef q) { return b.ewadd(p, q); };
  auto mul = [&b](TensorRef p, TensorRef q) { return b.ewmul(p, q); };
  auto sigmoid = [&b](TensorRef p) { return b.sigmoid(p); };
  auto tanh = [&b](TensorRef p) { return b.tanh(p); };
  auto relu = [&b](TensorRef p) { return b.relu(p); };
  // combine(f, p, g, q) = f(p) op g(q), with f(p) built before g(q).
  auto combine = [](auto op, auto f, TensorRef p, auto g, TensorRef q) {
    const TensorRef fp = f(p);
    const TensorRef gq = g(q);
    return op(fp, gq);
  };
  const TensorRef m0 = combine(add, relu, t[0], sigmoid, t[3]);
  const TensorRef m1 = combine(add, sigmoid, t[1], tanh, t[2]);
  const TensorRef m2 = combine(mul, sigmoid, t[4], tanh, t[5]);
  const TensorRef m3 = combine(mul, sigmoid, t[6], relu, t[7]);
  const TensorRef m4 = combine(add, sigmoid, m1, tanh, m2);
  const TensorRef m5 = combine(mul, tanh, m0, tanh, m3);
  const TensorRef m6 = combine(mul, tanh, m4, tanh, m5);
  return b.tanh(m6);
}

}  // namespace

tensor::Graph build_nasrnn(int steps) {
  GraphBuilder b;
  std::vector<TensorRef> xs(static_cast<std::size_t>(steps));
  for (int step = 0; step < steps; ++step) {
    xs[static_cast<std::size_t>(step)] = b.input(fmt::format("x{}", step), {1, kHidden});
  }
  TensorRef state = b.weight("state0", {1, kHidden});
  for (int step = 0; step < steps; ++step) {
    state = nas_cell(b, step, xs[static_cast<std::size_t>(step)], state);
  }
  b.output("state", state);
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
