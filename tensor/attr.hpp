// Attribute values of graph nodes: an integer, a list of integers or a real number, matching the
// ParamKind of the operator's signature slot.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "tensor/op.hpp"

namespace mctsat::tensor {

using Attr = std::variant<std::int64_t, std::vector<std::int64_t>, double>;
using Attrs = std::vector<Attr>;

ParamKind attr_kind(const Attr& attr);
std::string attr_string(const Attr& attr);  // "3", "[1,0,2]", "0.5"

inline std::int64_t attr_int(const Attr& attr) {
  return std::get<std::int64_t>(attr);
}
inline const std::vector<std::int64_t>& attr_ints(const Attr& attr) {
  return std::get<std::vector<std::int64_t>>(attr);
}
inline double attr_float(const Attr& attr) {
  return std::get<double>(attr);
}

// The fused activation and padding mode an integer attribute holds; throws mctsat::Error for a
// code outside the catalog's (validated graphs never have one).
Activation activation_attr(const Attr& attr);
Padding padding_attr(const Attr& attr);

}  // namespace mctsat::tensor
