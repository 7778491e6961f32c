// The reference interpreter: executes a validated Graph on concrete float64 tensors, node by node
// in topological order with the reference kernels. It is the numerical oracle for rule testing
// and end-to-end equivalence checks, so it favours clarity and determinism over speed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/graph.hpp"
#include "tensor/reference_kernels.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::tensor {

// Evaluates an opaque operator: node `id` of `graph` on its input values, returning one value per
// output (throwing mctsat::Error when it cannot). The frontend provides one for operators
// imported from ONNX (frontend/onnx_opaque_evaluator.hpp).
using OpaqueEvaluator = std::function<std::vector<Tensor>(const Graph& graph, NodeId id,
                                                          std::span<const Tensor> inputs)>;

struct InterpretOptions {
  // When set, weights without values get deterministic pseudo-random values in [-1, 1) drawn
  // from a stream derived from this seed and the weight's name (see random_tensor). When unset,
  // such a weight is an error.
  std::optional<std::uint64_t> random_weight_seed;
  // Runs opaque operators; when unset, an opaque operator is an error.
  OpaqueEvaluator opaque_evaluator = nullptr;
};

// Runs `graph` and returns its outputs in graph.outputs() order. `inputs` maps input node names to
// values of the declared shape; only the nodes the outputs depend on are evaluated, and entries
// that name no needed input are ignored. Throws mctsat::Error at the offending node for a missing
// input, an input of the wrong shape, a weight without values (and no seed), an opaque operator
// without an opaque evaluator and values of the wrong shape from the evaluator.
std::vector<Tensor> interpret(const Graph& graph, const std::map<std::string, Tensor>& inputs,
                              const InterpretOptions& options = {});

// Deterministic pseudo-random values for every input node of `graph`, one stream per input name:
// uniform in [-1, 1) for floating-point inputs, rounded to the nearest integer (-1, 0, 1) for
// integer ones (valid indices of any axis, negative ones counting from the end), and 1 where the
// value is positive, else 0, for bool ones.
std::map<std::string, Tensor> random_inputs(const Graph& graph, std::uint64_t seed);

// A tensor of `shape` with values in [-1, 1) from std::mt19937_64 seeded with a mix of `seed` and
// a hash of `stream` (each value is 2 * (raw >> 11) * 2^-53 - 1, so results do not depend on the
// standard library). Different streams are independent: adding a node changes no other values.
Tensor random_tensor(const Shape& shape, std::uint64_t seed, std::string_view stream);

// The values a weight without values gets under a random weight seed: random_tensor scaled by
// 1/sqrt(fan-in) (the first dimension of a matrix, the product of all but the first of a kernel),
// so that activations keep their magnitude through deep networks instead of overflowing.
Tensor random_weight(const Shape& shape, std::uint64_t seed, std::string_view name);

}  // namespace mctsat::tensor
