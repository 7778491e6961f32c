// Building patterns and querying their variables.
#include "egraph/pattern.hpp"

#include <algorithm>

#include "support/error.hpp"

namespace mctsat::egraph {

std::uint32_t Pattern::var(VarId v) {
  nodes_.push_back(PatternNode{true, v, 0, 0, {}});
  return root();
}

std::uint32_t Pattern::node(OpCode op, std::int64_t payload, std::vector<std::uint32_t> children) {
  for (std::uint32_t child : children) MCTSAT_ASSERT(child < nodes_.size());
  nodes_.push_back(PatternNode{false, 0, op, payload, std::move(children)});
  return root();
}

std::vector<VarId> Pattern::vars() const {
  std::vector<VarId> order;
  std::vector<std::uint32_t> stack{root()};
  while (!stack.empty()) {
    const PatternNode& n = nodes_[stack.back()];
    stack.pop_back();
    if (n.is_var) {
      if (std::find(order.begin(), order.end(), n.var) == order.end()) order.push_back(n.var);
      continue;
    }
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) stack.push_back(*it);
  }
  return order;
}

bool Pattern::ground(std::uint32_t index) const {
  const PatternNode& n = nodes_[index];
  if (n.is_var) return false;
  return std::all_of(n.children.begin(), n.children.end(),
                     [&](std::uint32_t c) { return ground(c); });
}

}  // namespace mctsat::egraph
