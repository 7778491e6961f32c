// Operator instances for the cost-model tests: an OpInstance with its own storage and output
// types from shape inference, and float32 tensor types.
#pragma once

#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "tensor/cost_model.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor::testing {

// Storage for an OpInstance, with output types from shape inference.
struct Instance {
  Op op;
  std::vector<TensorType> inputs;
  Attrs attrs;
  std::vector<TensorType> outputs;
  OpInstance get() const { return OpInstance{op, inputs, attrs, outputs}; }
};

inline Instance make(Op op, std::vector<TensorType> inputs, Attrs attrs) {
  InferResult inferred = infer_types(op, inputs, attrs);
  REQUIRE_MESSAGE(inferred.ok(), inferred.error);
  return Instance{op, std::move(inputs), std::move(attrs), std::move(inferred.outputs)};
}

inline TensorType f32(Shape shape) {
  return TensorType{std::move(shape), DType::kFloat32};
}

}  // namespace mctsat::tensor::testing
