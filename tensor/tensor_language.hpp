// The tensor language of the e-graph: how tensor graphs are encoded as e-nodes.
//
// Operator codes. A tensor operator's code is its tensor::Op value (`op_code(Op)`); after the last
// Op come four e-graph-only operators:
//   int     an integer literal: payload = the value, no children
//   ints    an integer-list literal: children = `int` literal classes in order, no payload;
//           at most kMaxListLength elements (longer lists are not representable)
//   float   a real literal: payload = std::bit_cast<std::int64_t>(double value), no children
//   proj    one output of a multi-output e-class: payload = output index, one child (the tuple
//           class; TENSAT's split_0 / split_1)
//
// Children. A tensor operator's e-node has one child per parameter in the catalog's positional
// order (exactly OpSignature::params, a variadic trailing tensor parameter repeated), attributes as
// literal classes: e.g. (matmul act a b), (conv2d stride_h stride_w pad act x w), (transpose x
// perm), (concat axis ndim x1 x2 ...), (split axis sizes x), (clip min max x). Rule patterns are
// written the same way, e.g. (matmul 0 ?a ?b) with `0` an `int` ground subterm.
//
// Leaves and opaque operators. An input or weight e-node has one child, its shape (an `ints`
// class), and its payload is the leaf's index in the leaf table (so two inputs of equal shape stay
// distinct). An opaque e-node's payload is an index into the opaque table, which holds the
// original graph node (type, attributes, output types); its children are its tensor inputs only.
//
// Values. Every operator yields one tensor, except split (and opaque operators with several
// outputs), whose e-class is a tuple read through `proj i` e-nodes, and noop, which yields a value
// without data.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/pattern.hpp"
#include "tensor/op.hpp"

namespace mctsat::tensor {

using egraph::Id;
using egraph::kNoId;
using egraph::OpCode;

inline constexpr OpCode kIntOp = static_cast<OpCode>(kOpCount);
inline constexpr OpCode kIntsOp = kIntOp + 1;
inline constexpr OpCode kFloatOp = kIntOp + 2;
inline constexpr OpCode kProjOp = kIntOp + 3;
inline constexpr std::size_t kOpCodeCount = kOpCount + 4;

// Longest `ints` literal the e-graph represents (its highest tensor rank is op.hpp's kMaxRank).
inline constexpr std::size_t kMaxListLength = 8;

constexpr OpCode op_code(Op op) {
  return static_cast<OpCode>(op);
}
// The tensor operator of a code; nullopt for the e-graph-only operators and unknown codes.
constexpr std::optional<Op> tensor_op(OpCode code) {
  if (code < kOpCount) return static_cast<Op>(code);
  return std::nullopt;
}
constexpr bool is_literal(OpCode code) {
  return code == kIntOp || code == kIntsOp || code == kFloatOp;
}

// Names of all operator codes: the catalog's names, then "int", "ints", "float", "proj". Unknown
// codes are an internal error.
std::string_view opcode_name(OpCode code);
std::optional<OpCode> find_opcode(std::string_view name);

inline std::int64_t float_payload(double value) {
  return std::bit_cast<std::int64_t>(value);
}
inline double payload_float(std::int64_t payload) {
  return std::bit_cast<double>(payload);
}

// Literal classes. add_ints throws mctsat::Error for lists longer than kMaxListLength.
void check_list_length(std::size_t length);
template <class Analysis>
Id add_int(egraph::EGraph<Analysis>& egraph, std::int64_t value) {
  return egraph.add(kIntOp, value, {});
}
template <class Analysis>
Id add_float(egraph::EGraph<Analysis>& egraph, double value) {
  return egraph.add(kFloatOp, float_payload(value), {});
}
template <class Analysis>
Id add_ints(egraph::EGraph<Analysis>& egraph, std::span<const std::int64_t> values) {
  check_list_length(values.size());
  Id children[kMaxListLength];
  for (std::size_t i = 0; i < values.size(); ++i) children[i] = add_int(egraph, values[i]);
  return egraph.add(kIntsOp, 0, std::span<const Id>(children, values.size()));
}

// Literal subterms of rule patterns (returning the pattern node's index).
inline std::uint32_t pattern_int(egraph::Pattern& pattern, std::int64_t value) {
  return pattern.node(kIntOp, value);
}
inline std::uint32_t pattern_float(egraph::Pattern& pattern, double value) {
  return pattern.node(kFloatOp, float_payload(value));
}
std::uint32_t pattern_ints(egraph::Pattern& pattern, std::span<const std::int64_t> values);

}  // namespace mctsat::tensor
