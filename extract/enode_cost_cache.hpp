// A memo of e-node prices (tensor::enode_cost) shared by the e-graphs of one search. An e-node's
// price is a function of its operator, its payload, its class's analysis data and its children's
// classes' data, so e-nodes equal in all of these, in any e-graph, have one price: the reward
// extractions of a tree search, which price every e-node of thousands of states that share most
// of their e-nodes, look them up instead. Entries are compared in full (not by hash alone), so a
// price from the memo is the price enode_cost gives, bit for bit. Safe to use from several
// threads at once; it only grows (one entry per distinct e-node priced).
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "egraph/egraph.hpp"
#include "support/stable_hash.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/tensor_analysis.hpp"

namespace mctsat::extract {

class EnodeCostCache {
 public:
  explicit EnodeCostCache(const tensor::CostModel& model) : model_(model) {}
  const tensor::CostModel& model() const { return model_; }

  // The price of live e-node `node` of a clean e-graph; `class_hash(c)` gives the hash of canonical
  // class c's data (TensorAnalysis::hash), which the caller computes once per class.
  template <class ClassHash>
  double cost(const egraph::EGraph<tensor::TensorAnalysis>& egraph, egraph::Id node,
              ClassHash&& class_hash) {
    const egraph::ENodeRef enode = egraph.node(node);
    std::uint64_t key = hash_combine(enode.op, static_cast<std::uint64_t>(enode.payload));
    key = hash_combine(key, class_hash(egraph.find(node)));
    for (const egraph::Id child : enode.children)
      key = hash_combine(key, class_hash(egraph.find(child)));
    return lookup(egraph, node, enode, key);
  }

 private:
  struct Entry {
    egraph::OpCode op;
    std::int64_t payload;
    tensor::TensorData data;
    std::vector<tensor::TensorData> children;
    double cost;
  };
  double lookup(const egraph::EGraph<tensor::TensorAnalysis>& egraph, egraph::Id node,
                const egraph::ENodeRef& enode, std::uint64_t key);
  static bool same(const Entry& entry, const egraph::EGraph<tensor::TensorAnalysis>& egraph,
                   egraph::Id node, const egraph::ENodeRef& enode);

  const tensor::CostModel& model_;
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::vector<Entry>> entries_;
};

}  // namespace mctsat::extract
