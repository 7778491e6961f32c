// Kinds and printing of attribute values.
#include "tensor/attr.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/error.hpp"

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

Activation activation_attr(const Attr& attr) {
  const std::int64_t code = attr_int(attr);
  if (code < 0 || code > 3) throw Error(fmt::format("unknown activation code {}", code));
  return static_cast<Activation>(code);
}

Padding padding_attr(const Attr& attr) {
  const std::int64_t code = attr_int(attr);
  if (code < 0 || code > 2) throw Error(fmt::format("unknown padding code {}", code));
  return static_cast<Padding>(code);
}

}  // namespace mctsat::tensor
