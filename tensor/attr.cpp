// Kinds and printing of attribute values.
#include "tensor/attr.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mctsat::tensor {

ParamKind attr_kind(const Attr& attr) {
  switch (attr.index()) {
    case 0:
      return ParamKind::kInt;
    case 1:
      return ParamKind::kInts;
    default:
      return ParamKind::kFloat;
  }
}

std::string attr_string(const Attr& attr) {
  switch (attr_kind(attr)) {
    case ParamKind::kInt:
      return std::to_string(attr_int(attr));
    case ParamKind::kInts:
      return fmt::format("[{}]", fmt::join(attr_ints(attr), ","));
    default:
      return fmt::format("{}", attr_float(attr));
  }
}

}  // namespace mctsat::tensor
