// Layer normalization and GELU as exporters decompose them, recognised on import and replaced by
// the catalog's layernorm and gelu, so that the search, the cost models and the executors see one
// operator each (the way ONNX Runtime runs them), and an exported model writes them back in the
// form ONNX Runtime fuses (onnx_export.hpp).
//
//   layer normalization over the last axis of x (PyTorch's nn.LayerNorm below opset 17, Hugging
//   Face's, tf2onnx's):
//     mean = ReduceMean(x, axes = [last], keepdims), d = x - mean,
//     v = ReduceMean(Pow(d, 2) or d * d, same axes), n = d / Sqrt(v + epsilon),
//     [n * gamma] [+ beta]      -> layernorm(epsilon, x, gamma or ones, beta or zeros)
//   with epsilon a positive one-element weight, gamma and beta weights of shape [H] with values;
//   GELU's erf form (PyTorch's nn.GELU, Hugging Face's gelu):
//     x / sqrt(2) (or x * 1/sqrt(2)), Erf, + 1, then * x and * 0.5 in either order -> gelu(0, x)
//   and its tanh approximation (Hugging Face's gelu_new, GPT-2's):
//     tanh(sqrt(2/pi) * (x + 0.044715 * (Pow(x, 3) or x * x * x))), + 1, then * x and * 0.5
//     in either order                                                          -> gelu(1, x)
//   with the constants one-element weights within 1e-6 (relative) of those values.
// Every intermediate tensor of a match must be read only inside it and be no graph output; the
// last node's name is kept. Anything else is left as it was.
#pragma once

#include <cstddef>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

struct RecognisedOperators {
  tensor::Graph graph;  // validated, weights folded, unread nodes dropped
  std::size_t layer_norms = 0;
  std::size_t gelus = 0;
};

// Expects a validated graph whose weight-only subgraphs are folded (constants are weights).
RecognisedOperators recognise_decomposed_operators(const tensor::Graph& graph);

}  // namespace mctsat::frontend
