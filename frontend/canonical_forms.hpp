// Canonical forms of imported graphs: an exporter writes one computation in several ways (a
// convolution's batch normalization as its own node or folded into its kernel, a fused activation
// as a separate operator), while the rewrite rules match one form. The ONNX importer brings what
// it maps into the forms the catalog's own models (the zoo) use, so that a model optimizes the
// same whether it comes from the zoo or through an ONNX file:
//   - batch normalization after a convolution (with or without a bias add) whose kernel, bias and
//     normalization parameters all have values is folded into the kernel and one bias add:
//     conv2d(x, w) [+ b] -> batchnorm(scale, beta, mean, var)  becomes
//     conv2d(x, w * s) + (b - mean) * s + beta, with s = scale / sqrt(var + 1e-5) per channel;
//   - an elementwise add or multiply by a weight (a bias, a scale) takes the weight as its second
//     operand, whichever order the exporter wrote (both are commutative with the same broadcast);
//   - a relu, sigmoid or tanh that an exporter wrote for a fused activation (named by the caller;
//     mctsat's ONNX exporter marks them) becomes the fused activation of its operand, a conv2d,
//     matmul or pooling without one that nothing else reads, so an optimized model reads back at
//     the cost it was written with. Other activations stay separate operators, as in the zoo's
//     models and TENSAT's: the rules fuse them, and a model's speedup is counted from the unfused
//     form.
// (Padding codes are made canonical where the importer maps window operators.)
#pragma once

#include <set>
#include <string>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// The graph in canonical form; it computes the same outputs (up to floating-point rounding where
// batch normalization is folded). Nodes no output needs afterwards are dropped and weight-only
// subgraphs folded (fold_weights). Expects a validated graph; returns one.
// `fused_activations` names the activation nodes to fuse.
tensor::Graph to_canonical_forms(const tensor::Graph& graph,
                                 const std::set<std::string>& fused_activations);

}  // namespace mctsat::frontend
