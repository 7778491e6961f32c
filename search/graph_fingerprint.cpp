// Graph fingerprints: a bottom-up (Merkle) hash over the chosen e-nodes, iteratively.
#include "search/graph_fingerprint.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor_language.hpp"

namespace mctsat::search {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

}  // namespace

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
    std::uint64_t h = mix(0, node.op);
    const auto op = tensor::tensor_op(node.op);
    if (op == tensor::Op::kInput || op == tensor::Op::kWeight) {
      h = mix(h, std::hash<std::string>{}(tables.leaves.at(node.payload).name));
    } else if (op == tensor::Op::kOpaque) {
      h = mix(h, std::hash<std::string>{}(tables.opaque.at(node.payload).name));
    } else {
      h = mix(h, static_cast<std::uint64_t>(node.payload));
    }
    for (const egraph::Id child : node.children) h = mix(h, hash[egraph.find(child)]);
    hash[c] = h;
    done[c] = true;
    if (op && op != tensor::Op::kInput && op != tensor::Op::kWeight) ++result.operators;
  }
  result.hash = state.roots.size();
  for (const egraph::Id root : state.roots) result.hash = mix(result.hash, hash[egraph.find(root)]);
  return result;
}

}  // namespace mctsat::search
