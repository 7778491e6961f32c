// Building the flat extraction problem: validation, candidate and parent indexes.
#include "extract/problem.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "support/cost_range.hpp"

namespace mctsat::extract {

std::string Problem::describe_node(Index node) const {
  const Index eclass = node_class_[node];
  std::string text = fmt::format("node {}", node);
  if (node_source_[node] != kNoId) text += fmt::format(" (e-node {})", node_source_[node]);
  text += fmt::format(" of class {}", eclass);
  if (class_source_[eclass] != kNoId) text += fmt::format(" (e-class {})", class_source_[eclass]);
  return text;
}

Index ProblemBuilder::add_class(Id source) {
  class_source_.push_back(source);
  return static_cast<Index>(class_source_.size() - 1);
}

Index ProblemBuilder::add_node(Index eclass, double cost, std::span<const Index> children,
                               bool forbidden, Id source) {
  const auto node = static_cast<Index>(nodes_.size());
  if (eclass >= class_source_.size())
    throw Error(fmt::format("extraction problem: node {} names class {}, which does not exist",
                            node, eclass));
  // Infinite: forbidden. Otherwise the accepted range, so that sums stay finite and the ILP's
  // scaled objective stays within what CBC accepts.
  if (const std::string error = cost_error(cost); !error.empty() && !(std::isinf(cost) && cost > 0))
    throw Error(
        fmt::format("extraction problem: node {} has cost {}; costs are 0 or from {:g} to "
                    "{:g} ms (or infinite: forbidden)",
                    node, error, kMinCostMs, kMaxCostMs));
  for (Index child : children)
    if (child >= class_source_.size())
      throw Error(fmt::format(
          "extraction problem: node {} has child class {}, which does not exist", node, child));
  const auto begin = static_cast<std::uint32_t>(children_.size());
  children_.insert(children_.end(), children.begin(), children.end());
  nodes_.push_back({eclass, cost, forbidden || std::isinf(cost), source, begin,
                    static_cast<std::uint32_t>(children_.size())});
  return node;
}

void ProblemBuilder::add_root(Index eclass) {
  if (eclass >= class_source_.size())
    throw Error(fmt::format("extraction problem: root class {} does not exist", eclass));
  if (std::find(roots_.begin(), roots_.end(), eclass) == roots_.end()) roots_.push_back(eclass);
}

Problem ProblemBuilder::finish() && {
  Problem p;
  const std::size_t classes = class_source_.size(), nodes = nodes_.size();
  // Nodes keep the order they were added in; each class lists its nodes ascending.
  std::vector<std::uint32_t> count(classes + 1, 0);
  for (const PendingNode& n : nodes_) ++count[n.eclass + 1];
  for (std::size_t c = 0; c < classes; ++c) count[c + 1] += count[c];
  p.class_begin_.assign(count.begin(), count.end());
  p.class_nodes_.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n)
    p.class_nodes_[count[nodes_[n].eclass]++] = static_cast<Index>(n);
  p.node_class_.resize(nodes);
  p.node_cost_.resize(nodes);
  p.forbidden_.resize(nodes);
  p.node_source_.resize(nodes);
  std::vector<Index> unique;
  for (Index n = 0; n < nodes; ++n) {
    const PendingNode& pending = nodes_[n];
    p.node_class_[n] = pending.eclass;
    p.node_cost_[n] = pending.cost;
    p.forbidden_[n] = pending.forbidden ? 1 : 0;
    p.node_source_[n] = pending.source;
    p.children_.insert(p.children_.end(), children_.begin() + pending.child_begin,
                       children_.begin() + pending.child_end);
    p.child_begin_.push_back(static_cast<std::uint32_t>(p.children_.size()));
    unique.assign(children_.begin() + pending.child_begin, children_.begin() + pending.child_end);
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    p.unique_children_.insert(p.unique_children_.end(), unique.begin(), unique.end());
    p.unique_begin_.push_back(static_cast<std::uint32_t>(p.unique_children_.size()));
  }
  // Candidates: the non-forbidden nodes of each class.
  for (std::size_t c = 0; c < classes; ++c) {
    for (Index n : p.nodes(static_cast<Index>(c)))
      if (!p.forbidden_[n]) p.candidates_.push_back(n);
    p.candidate_begin_.push_back(static_cast<std::uint32_t>(p.candidates_.size()));
  }
  // Parents: the non-forbidden nodes using each class, ascending (nodes are visited in order).
  std::vector<std::uint32_t> parent_count(classes + 1, 0);
  for (Index n = 0; n < nodes; ++n)
    if (!p.forbidden_[n])
      for (Index child : p.unique_children(n)) ++parent_count[child + 1];
  for (std::size_t c = 0; c < classes; ++c) parent_count[c + 1] += parent_count[c];
  p.parent_begin_.assign(parent_count.begin(), parent_count.end());
  p.parents_.resize(parent_count.back());
  for (Index n = 0; n < nodes; ++n)
    if (!p.forbidden_[n])
      for (Index child : p.unique_children(n)) p.parents_[parent_count[child]++] = n;
  p.roots_ = std::move(roots_);
  p.class_source_ = std::move(class_source_);
  return p;
}

}  // namespace mctsat::extract
