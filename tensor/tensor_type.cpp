// Names and sizes of element types and printing of shapes.
#include "tensor/tensor_type.hpp"

#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mctsat::tensor {
namespace {
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  std::int64_t bytes;
};
constexpr std::array kDTypes = {
    DTypeInfo{DType::kFloat32, "f32", 4}, DTypeInfo{DType::kFloat16, "f16", 2},
    DTypeInfo{DType::kFloat64, "f64", 8}, DTypeInfo{DType::kInt64, "i64", 8},
    DTypeInfo{DType::kInt32, "i32", 4},   DTypeInfo{DType::kInt8, "i8", 1},
    DTypeInfo{DType::kUInt8, "u8", 1},    DTypeInfo{DType::kBool, "bool", 1},
};
const DTypeInfo& info(DType dtype) {
  return kDTypes[static_cast<std::size_t>(dtype)];
}
}  // namespace

std::string_view dtype_name(DType dtype) {
  return info(dtype).name;
}
std::int64_t dtype_bytes(DType dtype) {
  return info(dtype).bytes;
}

bool parse_dtype(std::string_view name, DType& out) {
  for (const auto& entry : kDTypes) {
    if (entry.name == name) {
      out = entry.dtype;
      return true;
    }
  }
  return false;
}

std::int64_t numel(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string shape_string(const Shape& shape) {
  return shape.empty() ? "scalar" : fmt::format("{}", fmt::join(shape, "x"));
}

std::string type_string(const TensorType& type) {
  return fmt::format("{}[{}]", dtype_name(type.dtype), fmt::join(type.shape, "x"));
}

}  // namespace mctsat::tensor
