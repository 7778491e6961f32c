// An independent checker of a clean e-graph's invariants, for the engine's tests. It recomputes
// everything from the live e-nodes (through the public API only) and returns a description of the
// first violation, or "" when the e-graph is consistent:
//   - every live e-node's children are canonical, and no two live e-nodes have equal content;
//   - num_nodes() is the number of live e-nodes, and classes()/num_classes() are the canonical
//     classes of the live e-nodes, in id order;
//   - nodes_of(c) lists exactly the live e-nodes of class c, sorted by (operator, payload, id), and
//     nodes_of(c, op) is its slice for one operator;
//   - classes_with_op(op) lists, in class order and each once, the classes holding an op e-node;
//   - for_each_parent(c) visits exactly the live e-nodes having c as a child, each once;
//   - lookup() of every live e-node's content finds its class.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "egraph/egraph.hpp"

namespace eglang {

template <class Analysis>
std::string invariant_violation(const mctsat::egraph::EGraph<Analysis>& egraph) {
  using mctsat::egraph::Id;
  using mctsat::egraph::OpCode;
  std::ostringstream why;
  if (!egraph.clean()) return "the e-graph is not clean";

  using Content = std::tuple<OpCode, std::int64_t, std::vector<Id>>;
  std::map<Content, Id> contents;
  std::map<Id, std::vector<Id>> members;    // canonical class -> live e-nodes
  std::map<Id, std::set<Id>> parents;       // canonical class -> live e-nodes using it
  std::map<OpCode, std::set<Id>> op_index;  // operator -> classes
  std::size_t live = 0;
  OpCode max_op = 0;
  for (Id n = 0; n < egraph.num_ids(); ++n) {
    if (!egraph.live(n)) continue;
    ++live;
    const auto node = egraph.node(n);
    std::vector<Id> children(node.children.begin(), node.children.end());
    for (Id child : children) {
      if (egraph.find(child) != child) {
        why << "e-node " << n << " has the non-canonical child " << child;
        return why.str();
      }
      parents[child].insert(n);
    }
    const auto [it, fresh] = contents.emplace(Content{node.op, node.payload, children}, n);
    if (!fresh) {
      why << "e-nodes " << it->second << " and " << n << " have equal content";
      return why.str();
    }
    const Id eclass = egraph.find(n);
    members[eclass].push_back(n);
    op_index[node.op].insert(eclass);
    max_op = std::max(max_op, node.op);
    const auto found = egraph.lookup(node.op, node.payload, node.children);
    if (!found || *found != eclass) {
      why << "lookup of e-node " << n << "'s content does not find its class " << eclass;
      return why.str();
    }
  }
  if (egraph.num_nodes() != live) {
    why << "num_nodes() is " << egraph.num_nodes() << " but " << live << " e-nodes are live";
    return why.str();
  }

  std::vector<Id> expected_classes;
  for (const auto& [eclass, nodes] : members) expected_classes.push_back(eclass);
  const auto classes = egraph.classes();
  if (!std::equal(classes.begin(), classes.end(), expected_classes.begin(), expected_classes.end()))
    return "classes() differs from the classes of the live e-nodes";
  if (egraph.num_classes() != expected_classes.size()) {
    why << "num_classes() is " << egraph.num_classes() << " but " << expected_classes.size()
        << " classes hold live e-nodes";
    return why.str();
  }

  for (auto& [eclass, nodes] : members) {
    std::sort(nodes.begin(), nodes.end(), [&](Id x, Id y) {
      const auto nx = egraph.node(x), ny = egraph.node(y);
      return std::tie(nx.op, nx.payload, x) < std::tie(ny.op, ny.payload, y);
    });
    const auto listed = egraph.nodes_of(eclass);
    if (!std::equal(listed.begin(), listed.end(), nodes.begin(), nodes.end())) {
      why << "nodes_of(" << eclass << ") is not its sorted live e-nodes";
      return why.str();
    }
    for (OpCode op = 0; op <= max_op + 1; ++op) {
      std::vector<Id> slice;
      for (Id n : nodes)
        if (egraph.node(n).op == op) slice.push_back(n);
      const auto listed_op = egraph.nodes_of(eclass, op);
      if (!std::equal(listed_op.begin(), listed_op.end(), slice.begin(), slice.end())) {
        why << "nodes_of(" << eclass << ", " << op << ") is wrong";
        return why.str();
      }
    }
    std::vector<Id> visited;
    egraph.for_each_parent(eclass, [&](Id parent) { visited.push_back(parent); });
    std::sort(visited.begin(), visited.end());
    const std::set<Id>& expected = parents[eclass];
    if (!std::equal(visited.begin(), visited.end(), expected.begin(), expected.end())) {
      why << "for_each_parent(" << eclass << ") visits " << visited.size()
          << " e-nodes, expected the " << expected.size() << " live parents once each";
      return why.str();
    }
  }

  for (OpCode op = 0; op <= max_op + 1; ++op) {
    const auto listed = egraph.classes_with_op(op);
    const std::set<Id>& expected = op_index[op];
    if (!std::equal(listed.begin(), listed.end(), expected.begin(), expected.end())) {
      why << "classes_with_op(" << op << ") is wrong";
      return why.str();
    }
  }
  return "";
}

}  // namespace eglang
