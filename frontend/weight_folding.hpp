// Folding of weight-only subgraphs: every operator whose inputs are all weights with known values
// (directly or through other such operators) is computed with the reference kernels and replaced
// by one weight holding the result, as TASO pre-computes them. The ONNX importer uses it to turn
// transposed or scaled initializers into plain weights, the exporter to compute the kernels that
// rewrites create (concatenated, enlarged, merged) from the original weights.
#pragma once

#include <string>
#include <vector>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// The graph with such operators folded (a folded node keeps its name) and with the nodes no graph
// output depends on dropped (graph inputs are always kept). Multi-output operators, and operators
// over weights without values, are kept as they are. Expects a validated graph; returns one.
tensor::Graph fold_weights(const tensor::Graph& graph);

// The operators fold_weights leaves because they read weights without values, directly or through
// other such operators (a kernel merged from weights the model did not come with): an exported
// model computes them at every inference. Their op names, in topological order, one per
// operator.
std::vector<std::string> operators_over_unvalued_weights(const tensor::Graph& graph);

}  // namespace mctsat::frontend
