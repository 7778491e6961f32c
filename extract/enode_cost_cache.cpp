// The memo of e-node prices (see enode_cost_cache.hpp).
#include "extract/enode_cost_cache.hpp"

#include "tensor/enode_cost.hpp"

namespace mctsat::extract {

bool EnodeCostCache::same(const Entry& entry, const egraph::EGraph<tensor::TensorAnalysis>& egraph,
                          egraph::Id node, const egraph::ENodeRef& enode) {
  if (entry.op != enode.op || entry.payload != enode.payload ||
      entry.children.size() != enode.children.size() || !(entry.data == egraph.data(node)))
    return false;
  for (std::size_t i = 0; i < entry.children.size(); ++i)
    if (!(entry.children[i] == egraph.data(enode.children[i]))) return false;
  return true;
}

double EnodeCostCache::lookup(const egraph::EGraph<tensor::TensorAnalysis>& egraph, egraph::Id node,
                              const egraph::ENodeRef& enode, std::uint64_t key) {
  {
    const std::lock_guard lock(mutex_);
    if (const auto found = entries_.find(key); found != entries_.end())
      for (const Entry& entry : found->second)
        if (same(entry, egraph, node, enode)) return entry.cost;
  }
  Entry entry{
      enode.op, enode.payload, egraph.data(node), {}, tensor::enode_cost(egraph, node, model_)};
  for (const egraph::Id child : enode.children) entry.children.push_back(egraph.data(child));
  const double cost = entry.cost;
  const std::lock_guard lock(mutex_);
  std::vector<Entry>& bucket = entries_[key];
  for (const Entry& other : bucket)
    if (same(other, egraph, node, enode)) return cost;  // priced meanwhile by another thread
  bucket.push_back(std::move(entry));
  return cost;
}

}  // namespace mctsat::extract
