// Conversions between ONNX tensors and mctsat's: element types, TensorProto <-> Tensor (values in
// float64) and ValueInfo types. Internal to frontend/ (it exposes ONNX's protobuf types); the ONNX
// importer, the exporter and the tests that read ONNX test data use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <onnx/onnx_pb.h>

#include "tensor/tensor_type.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::frontend::onnx_io {

// The mctsat element type of an ONNX TensorProto::DataType, or nullopt when mctsat has none.
std::optional<tensor::DType> dtype_from_onnx(std::int32_t elem_type);
std::int32_t dtype_to_onnx(tensor::DType dtype);
std::string onnx_type_name(std::int32_t elem_type);  // "FLOAT", "STRING", ...

// Checks, without decoding, that a TensorProto's data fits its dims: no negative dimension, an
// element count that fits in 63 bits, and raw_data (or the typed field its type uses) holding
// exactly that many elements. ONNX's own readers trust the dims and read past the data. Throws
// mctsat::Error (without a location); `what` names the tensor.
void check_tensor_proto(const onnx::TensorProto& proto, const std::string& what);

// The values of a TensorProto (raw_data or the typed fields; float16 decoded). Throws mctsat::Error
// (without a location) for external data, element types mctsat does not have, and a value count
// that does not match the dims. `what` names the tensor in messages.
tensor::Tensor tensor_from_proto(const onnx::TensorProto& proto, const std::string& what);
// Writes `value` as `dtype` into raw_data (integer types rounded to nearest).
void tensor_to_proto(const tensor::Tensor& value, tensor::DType dtype, onnx::TensorProto& proto);

// The static type of a ValueInfo (or of a TypeProto), or nullopt when it is not a tensor or its
// element type or any dimension is unknown. `dynamic` (if given) receives a description of the
// first unknown part, e.g. "dimension 0 is 'batch'".
std::optional<tensor::TensorType> type_from_proto(const onnx::TypeProto& type,
                                                  std::string* dynamic = nullptr);
void type_to_proto(const tensor::TensorType& type, onnx::TypeProto& proto);

}  // namespace mctsat::frontend::onnx_io
