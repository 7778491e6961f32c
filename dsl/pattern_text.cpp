// Writing checked terms as canonical text.
#include "dsl/pattern_text.hpp"

#include <fmt/format.h>

#include "tensor/op.hpp"

namespace mctsat::dsl {

std::string pattern_text(const Pat& pattern) {
  return pattern_text(pattern, [](VarIndex v) { return fmt::format("?{}", v); });
}

std::string pattern_text(const Pat& p, const std::function<std::string(VarIndex)>& var) {
  switch (p.kind) {
    case Pat::Kind::kVar:
      return var(p.var);
    case Pat::Kind::kInt:
      return std::to_string(p.value);
    case Pat::Kind::kInts:
      return fmt::format("[{}]", fmt::join(p.ints, ","));
    case Pat::Kind::kFloat:
      return fmt::format("{}", p.real);
    case Pat::Kind::kInferredSizes:
      return "<sizes>";
    case Pat::Kind::kProj:
    case Pat::Kind::kOp: {
      std::string out = p.kind == Pat::Kind::kProj ? fmt::format("(proj {}", p.value)
                                                   : fmt::format("({}", tensor::op_name(p.op));
      for (const Pat& a : p.args) out += " " + pattern_text(a, var);
      return out + ")";
    }
  }
  return {};
}

}  // namespace mctsat::dsl
