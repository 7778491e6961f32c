// Graph fingerprints: a bottom-up (Merkle) hash over the chosen e-nodes, iteratively.
#include "search/graph_fingerprint.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "support/stable_hash.hpp"
#include "tensor/tensor_language.hpp"

namespace mctsat::search {
std::uint64_t own_fingerprint(const tensor::TensorTables& tables, egraph::OpCode op_code,
                              std::int64_t payload) {
  const std::uint64_t h = hash_combine(0, op_code);
  const auto op = tensor::tensor_op(op_code);
  if (op == tensor::Op::kInput || op == tensor::Op::kWeight)
    return hash_combine(h, fnv1a(tables.leaves.at(payload).name));
  if (op == tensor::Op::kOpaque) return hash_combine(h, fnv1a(tables.opaque.at(payload).name));
  return hash_combine(h, static_cast<std::uint64_t>(payload));
}

bool counts_as_operator(egraph::OpCode op_code) {
  const auto op = tensor::tensor_op(op_code);
  return op && op != tensor::Op::kInput && op != tensor::Op::kWeight;
}

GraphFingerprint graph_fingerprint(const tensor::TensorEGraph& state,
                                   const tensor::Selection& selection) {
  const auto& egraph = state.egraph;
  const auto& tables = state.tables();
  auto chosen = [&](egraph::Id c) {
    const egraph::Id node = selection[c];
    return node != egraph::kNoId ? node : egraph.nodes_of(c).front();
  };
  GraphFingerprint result;
  std::vector<std::uint64_t> hash(egraph.num_ids(), 0);
  std::vector<bool> done(egraph.num_ids(), false);
  // Depth-first, children before parents: (class, children pushed).
  std::vector<std::pair<egraph::Id, bool>> stack;
  for (const egraph::Id root : state.roots) stack.emplace_back(egraph.find(root), false);
  while (!stack.empty()) {
    const auto [c, expanded] = stack.back();
    if (done[c]) {
      stack.pop_back();
      continue;
    }
    const auto node = egraph.node(chosen(c));
    if (!expanded) {
      stack.back().second = true;
      for (const egraph::Id child : node.children)
        if (!done[egraph.find(child)]) stack.emplace_back(egraph.find(child), false);
      continue;
    }
    stack.pop_back();
    std::uint64_t h = own_fingerprint(tables, node.op, node.payload);
    for (const egraph::Id child : node.children) h = hash_combine(h, hash[egraph.find(child)]);
    hash[c] = h;
    done[c] = true;
    if (counts_as_operator(node.op)) ++result.operators;
  }
  result.hash = state.roots.size();
  for (const egraph::Id root : state.roots)
    result.hash = hash_combine(result.hash, hash[egraph.find(root)]);
  return result;
}

}  // namespace mctsat::search
