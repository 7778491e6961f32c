// One side of an equation, instantiated under a concrete binding as a tensor::Graph: every tensor
// variable becomes a graph input named after it, every root an output. The reference
// interpreter then evaluates both sides on the same inputs.
#pragma once

#include <vector>

#include "tensor/graph.hpp"
#include "verify/binding.hpp"

namespace mctsat::verify {

// The left-hand side's graph. Throws mctsat::Error when an operator rejects its inputs.
tensor::Graph lhs_graph(const Equation& equation, const Binding& binding);
// The right-hand side's graph; the sizes of its TENSAT splits come from `lhs`'s root shapes.
tensor::Graph rhs_graph(const Equation& equation, const Binding& binding, const tensor::Graph& lhs);

}  // namespace mctsat::verify
