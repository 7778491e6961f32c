// Concrete shape and type inference for one operator: checks the signature (arity, attribute
// kinds), runs the operator's shape function over int64_t, and says precisely what is wrong.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tensor/attr.hpp"
#include "tensor/op.hpp"
#include "tensor/tensor_type.hpp"

namespace mctsat::tensor {

// No tensor may hold more elements than this (keeps all size arithmetic far from overflow).
inline constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 40;

// Why `shape` is not a tensor's shape (a dimension below 1, or more than kMaxTensorElements
// elements), or empty when it is one: for shapes that come from outside (Python's TensorType).
std::string shape_error(const Shape& shape);

struct InferResult {
  std::vector<TensorType> outputs;
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};

// `leaf_dtype` is the element type of input and weight nodes (other operators take their first
// input's element type; opaque operators record theirs).
InferResult infer_types(Op op, std::span<const TensorType> inputs, const Attrs& attrs,
                        DType leaf_dtype = DType::kFloat32);
// The same verdict without the explanation, for callers that only need to know whether an
// operator application is well-typed (the e-graph's analysis, which rejects ill-shaped e-nodes by
// the thousand): no error message is built, and `outputs`' buffers are reused. False when
// ill-typed (`outputs` then unspecified).
bool infer_types_into(Op op, std::span<const TensorType> inputs, const Attrs& attrs,
                      DType leaf_dtype, std::vector<TensorType>& outputs);

// The output_shapes attribute of opaque operators: per output, its dtype code, rank and dims.
std::vector<std::int64_t> encode_output_types(std::span<const TensorType> types);
bool decode_output_types(std::span<const std::int64_t> encoded, std::vector<TensorType>& types,
                         std::string& error);

}  // namespace mctsat::tensor
