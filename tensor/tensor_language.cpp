// Names of the e-graph operator codes and the literal helpers of tensor_language.hpp.
#include "tensor/tensor_language.hpp"

#include <array>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::tensor {
namespace {

constexpr std::array<std::string_view, 4> kExtraNames = {"int", "ints", "float", "proj"};

}  // namespace

std::string_view opcode_name(OpCode code) {
  if (const auto op = tensor_op(code)) return op_name(*op);
  MCTSAT_ASSERT(code < kOpCodeCount && "unknown e-graph operator code");
  return kExtraNames[code - kIntOp];
}

std::optional<OpCode> find_opcode(std::string_view name) {
  if (const auto op = find_op(name)) return op_code(*op);
  for (std::size_t i = 0; i < kExtraNames.size(); ++i) {
    if (kExtraNames[i] == name) return static_cast<OpCode>(kIntOp + i);
  }
  return std::nullopt;
}

void check_list_length(std::size_t length) {
  if (length > kMaxListLength)
    throw Error(fmt::format("an integer list of {} elements does not fit the e-graph (at most {})",
                            length, kMaxListLength));
}

std::uint32_t pattern_ints(egraph::Pattern& pattern, std::span<const std::int64_t> values) {
  check_list_length(values.size());
  std::vector<std::uint32_t> children;
  for (std::int64_t v : values) children.push_back(pattern_int(pattern, v));
  return pattern.node(kIntsOp, 0, std::move(children));
}

}  // namespace mctsat::tensor
