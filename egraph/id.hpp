// Identifiers of the e-graph: dense 32-bit ids shared by e-nodes and e-classes (a new e-node opens
// the e-class with its own id), and 32-bit operator codes chosen by the language using the engine.
#pragma once

#include <cstdint>
#include <limits>
#include <span>

namespace mctsat::egraph {

using Id = std::uint32_t;
using OpCode = std::uint32_t;
inline constexpr Id kNoId = std::numeric_limits<Id>::max();

// An e-node's content: operator, integer payload (e.g. the value of an integer literal; 0 when
// unused) and children (e-class ids).
struct ENodeRef {
  OpCode op;
  std::int64_t payload;
  std::span<const Id> children;
};

// A view of any contiguous container of ids (e.g. boost's small_vector, which std::span does not
// accept directly).
template <class Ids>
std::span<const Id> id_span(const Ids& ids) {
  return {ids.data(), ids.size()};
}

}  // namespace mctsat::egraph
