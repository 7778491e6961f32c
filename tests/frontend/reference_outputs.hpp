// Whether two imported graphs compute the same first output on the same random inputs, with the
// reference kernels and the ONNX reference operators for what stays opaque: how the frontend tests
// check a recognised operator against the decomposition it replaced.
#pragma once

#include <vector>

#include <doctest/doctest.h>

#include "frontend/onnx_opaque_evaluator.hpp"
#include "tensor/interpreter.hpp"

inline std::vector<mctsat::tensor::Tensor> reference_outputs(const mctsat::tensor::Graph& graph) {
  return mctsat::tensor::interpret(graph, mctsat::tensor::random_inputs(graph, 3),
                                   mctsat::frontend::with_onnx_opaque_evaluator({}));
}

// Relative 1e-6: the graphs' float32 constants are rounded where an operator's are not.
inline void check_same_output(const mctsat::tensor::Graph& a, const mctsat::tensor::Graph& b) {
  const mctsat::tensor::Tensor ya = reference_outputs(a).at(0), yb = reference_outputs(b).at(0);
  REQUIRE(ya.shape == yb.shape);
  for (std::size_t i = 0; i < ya.data.size(); ++i)
    CHECK(ya.data[i] == doctest::Approx(yb.data[i]).epsilon(1e-6).scale(1));
}
