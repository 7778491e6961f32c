// Shapes, element types and tensor types: the static description of a tensor in a graph.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mctsat::tensor {

// A shape over any dimension type: int64_t in the engine, z3::expr in the verifier.
template <class Dim>
using BasicShape = std::vector<Dim>;
using Shape = BasicShape<std::int64_t>;

enum class DType : std::uint8_t {
  kFloat32,
  kFloat16,
  kFloat64,
  kInt64,
  kInt32,
  kInt8,
  kUInt8,
  kBool
};

std::string_view dtype_name(DType dtype);             // "f32", "i64", ...
bool parse_dtype(std::string_view name, DType& out);  // false if unknown
std::int64_t dtype_bytes(DType dtype);

struct TensorType {
  Shape shape;
  DType dtype = DType::kFloat32;
  friend bool operator==(const TensorType&, const TensorType&) = default;
};

std::int64_t numel(const Shape& shape);           // 1 for rank 0
std::string shape_string(const Shape& shape);     // "64x1024", "scalar" for rank 0
std::string type_string(const TensorType& type);  // "f32[64x1024]"

}  // namespace mctsat::tensor
