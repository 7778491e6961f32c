// The extraction problem: a flat, analysis-independent copy of the part of an e-graph that
// extraction looks at, built once per extraction. Classes and e-nodes are renumbered densely
// (class indices 0..C-1, node indices 0..N-1, in the order they were added); every node keeps its
// class, its children's classes and its cost, every class its nodes, its candidate nodes and the
// nodes using it.
//
// Forbidden nodes (blacklisted e-nodes, e-nodes of infinite cost) stay in the problem so that an
// outside choice using one can be recognized and rejected, but they are never candidates: an
// extractor iterating candidates(c) or parents(c) never sees them.
//
// Builders: `ProblemBuilder` (by hand, tests and importers), `problem_from_egraph` (any EGraph and
// a per-e-node cost callback; this header), `problem_from_tensor` (tensor_problem.hpp) and
// `problem_from_serialized` (serialized_problem.hpp). E-graph builders keep only the classes
// reachable from the roots.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "support/error.hpp"

namespace mctsat::extract {

using egraph::Id;
using egraph::kNoId;

// A class or node index of a problem.
using Index = std::uint32_t;
inline constexpr Index kNone = std::numeric_limits<Index>::max();

class Problem {
 public:
  std::size_t num_classes() const { return class_begin_.size() - 1; }
  std::size_t num_nodes() const { return node_class_.size(); }

  Index node_class(Index node) const { return node_class_[node]; }
  double node_cost(Index node) const { return node_cost_[node]; }
  bool forbidden(Index node) const { return forbidden_[node] != 0; }
  // The children's classes in e-node order (a class may repeat, as in (ewadd x x)).
  std::span<const Index> children(Index node) const {
    return {children_.data() + child_begin_[node], children_.data() + child_begin_[node + 1]};
  }
  // The same classes, each once, ascending.
  std::span<const Index> unique_children(Index node) const {
    return {unique_children_.data() + unique_begin_[node],
            unique_children_.data() + unique_begin_[node + 1]};
  }
  // Every node of a class, forbidden ones included, ascending.
  std::span<const Index> nodes(Index eclass) const {
    return {class_nodes_.data() + class_begin_[eclass],
            class_nodes_.data() + class_begin_[eclass + 1]};
  }
  // The nodes an extractor may choose for a class (not forbidden), ascending.
  std::span<const Index> candidates(Index eclass) const {
    return {candidates_.data() + candidate_begin_[eclass],
            candidates_.data() + candidate_begin_[eclass + 1]};
  }
  // The non-forbidden nodes having the class among their children (each once), ascending.
  std::span<const Index> parents(Index eclass) const {
    return {parents_.data() + parent_begin_[eclass], parents_.data() + parent_begin_[eclass + 1]};
  }
  // The root classes, each once, in the order given.
  std::span<const Index> roots() const { return roots_; }

  // Where a class or node came from (an e-graph id), kNoId for hand-built ones.
  Id class_source(Index eclass) const { return class_source_[eclass]; }
  Id node_source(Index node) const { return node_source_[node]; }
  std::string describe_node(Index node) const;  // "node 3 (e-node 17) of class 1 (e-class 12)"

 private:
  friend class ProblemBuilder;
  std::vector<Index> node_class_;
  std::vector<double> node_cost_;
  std::vector<std::uint8_t> forbidden_;
  std::vector<std::uint32_t> child_begin_{0}, unique_begin_{0};
  std::vector<Index> children_, unique_children_;
  std::vector<std::uint32_t> class_begin_{0}, candidate_begin_{0}, parent_begin_{0};
  std::vector<Index> class_nodes_, candidates_, parents_;
  std::vector<Index> roots_;
  std::vector<Id> class_source_, node_source_;
};

// Builds a problem: classes first (or interleaved), then nodes naming their class and children
// classes, then roots. Throws mctsat::Error for a child or root that is not a class, and for a
// cost that is negative or NaN; a node of infinite cost is forbidden.
class ProblemBuilder {
 public:
  Index add_class(Id source = kNoId);
  Index add_node(Index eclass, double cost, std::span<const Index> children, bool forbidden = false,
                 Id source = kNoId);
  Index add_node(Index eclass, double cost, std::initializer_list<Index> children = {},
                 bool forbidden = false) {
    return add_node(eclass, cost, std::span<const Index>(children.begin(), children.size()),
                    forbidden);
  }
  void add_root(Index eclass);
  std::size_t num_classes() const { return class_source_.size(); }
  Problem finish() &&;

 private:
  struct PendingNode {
    Index eclass;
    double cost;
    bool forbidden;
    Id source;
    std::uint32_t child_begin, child_end;
  };
  std::vector<Id> class_source_;
  std::vector<PendingNode> nodes_;
  std::vector<Index> children_;
  std::vector<Index> roots_;
};

// No e-node keeps its children (see problem_from_egraph).
struct KeepAllChildren {
  bool operator()(Id) const { return false; }
};

// The problem of a clean e-graph for the given roots: every class reachable from a root through
// the children of live e-nodes, all their live e-nodes, `cost(node)` (a double) per e-node.
// `leaf(node)` true makes an e-node a leaf (its children are dropped, e.g. literal lists whose
// value is read from analysis data). Blacklisted e-nodes are forbidden.
template <class Analysis, class Cost, class Leaf = KeepAllChildren>
Problem problem_from_egraph(const egraph::EGraph<Analysis>& egraph, std::span<const Id> roots,
                            Cost&& cost, Leaf&& leaf = {}) {
  MCTSAT_ASSERT(egraph.clean());
  const std::size_t ids = egraph.num_ids();
  // Reachable classes, by a depth-first walk from the roots.
  std::vector<std::uint8_t> reached(ids, 0);
  std::vector<Id> stack;
  for (Id root : roots) {
    root = egraph.find(root);
    if (!reached[root]) stack.push_back(root);
    reached[root] = 1;
  }
  while (!stack.empty()) {
    const Id eclass = stack.back();
    stack.pop_back();
    for (Id node : egraph.nodes_of(eclass)) {
      if (leaf(node)) continue;
      for (Id child : egraph.node(node).children) {
        child = egraph.find(child);
        if (reached[child]) continue;
        reached[child] = 1;
        stack.push_back(child);
      }
    }
  }
  ProblemBuilder builder;
  std::vector<Index> index(ids, kNone);
  for (Id eclass : egraph.classes())
    if (reached[eclass]) index[eclass] = builder.add_class(eclass);
  std::vector<Index> children;
  for (Id eclass : egraph.classes()) {
    if (!reached[eclass]) continue;
    for (Id node : egraph.nodes_of(eclass)) {
      children.clear();
      if (!leaf(node))
        for (Id child : egraph.node(node).children) children.push_back(index[egraph.find(child)]);
      // The one place where the e-graph's blacklist is honoured.
      const bool forbidden = egraph.blacklisted(node);
      builder.add_node(index[eclass], static_cast<double>(cost(node)), children, forbidden, node);
    }
  }
  for (Id root : roots) builder.add_root(index[egraph.find(root)]);
  return std::move(builder).finish();
}

}  // namespace mctsat::extract
