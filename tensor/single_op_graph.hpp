// A graph of one operator instance alone, for timing it: every operand is a graph input, except
// those `is_weight` names, which are weights with seeded random values (a model holds them as
// weights and a runtime prepares them once, so timing them as inputs would add work no model
// pays); batch-normalization parameters are kept positive so the timed values stay finite.
#pragma once

#include <cstddef>
#include <functional>

#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::tensor {

// Operands named operand0, operand1, ...; outputs out0, out1, ... . Throws mctsat::Error when the
// instance is not a valid node.
Graph single_op_graph(const OpInstance& instance,
                      const std::function<bool(Op, std::size_t)>& is_weight);

}  // namespace mctsat::tensor
