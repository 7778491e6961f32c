// The numeric equivalence check of `optimize --check` and `convert --check`: evaluates two graphs
// with the reference interpreter on the same seeded random inputs and reports the largest
// difference of their outputs.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

// The largest difference between `original`'s and `other`'s outputs on random inputs, relative
// to the outputs' magnitude, as JSON: passed, finite, max_abs_difference,
// max_relative_difference, tolerance, seed. Weights without values get tensor::random_weight
// values under `seed`; an input of `other` that `original` lacks but that names a weight of
// `original` without values (ONNX export turns those into graph inputs) is fed the same values.
// Throws mctsat::Error when the graphs' outputs differ in number or shape.
nlohmann::json check_equivalence(const tensor::Graph& original, const tensor::Graph& other,
                                 double tolerance, std::uint64_t seed);

// Why a check of check_equivalence failed, for a person: outputs that are not finite (NaN or
// infinity: no difference can be measured) or the difference against the tolerance.
std::string check_failure(const nlohmann::json& check);

}  // namespace mctsat::frontend
