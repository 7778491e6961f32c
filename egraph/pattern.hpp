// Patterns: terms over operators with pattern variables (`?x`) at the leaves, stored flat in
// post-order (children before parents, the root last). Variables are small integers numbered by
// the rule that owns the pattern, so the patterns of a multi-pattern rule share them. Integer
// literals are e-nodes of their own (operator + payload) and appear here as ground subterms.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "egraph/id.hpp"

namespace mctsat::egraph {

using VarId = std::uint32_t;

struct PatternNode {
  bool is_var = false;
  VarId var = 0;  // when is_var
  OpCode op = 0;  // otherwise
  std::int64_t payload = 0;
  std::vector<std::uint32_t> children;  // indices of earlier pattern nodes
};

class Pattern {
 public:
  std::uint32_t var(VarId v);
  std::uint32_t node(OpCode op, std::int64_t payload = 0, std::vector<std::uint32_t> children = {});

  std::span<const PatternNode> nodes() const { return nodes_; }
  std::uint32_t root() const { return static_cast<std::uint32_t>(nodes_.size() - 1); }
  bool empty() const { return nodes_.empty(); }
  // Variables in order of first appearance (depth-first, left to right).
  std::vector<VarId> vars() const;
  // Whether the subterm at `index` contains no variable.
  bool ground(std::uint32_t index) const;

 private:
  std::vector<PatternNode> nodes_;
};

}  // namespace mctsat::egraph
