// Prefetching for the apply phase. Instantiating a rewrite's right-hand sides is a chain of
// hashcons and union-find lookups at random addresses of tables far larger than the caches, and
// each lookup of an existing e-node (most of them, once a rule has been applied) waits for its
// cache misses. While the apply loop works on match m, the prefetcher starts the loads of later
// matches in three stages, each one step of `kStep` matches behind the previous one so that its
// own input has arrived: the hashcons slots of the right-hand-side e-nodes whose children are all
// variables (3 steps ahead), the union-find entries of the e-nodes found in those slots (2 steps
// ahead), then, with those classes known, the slots of the e-nodes one level higher (1 step
// ahead). Prefetches are hints: they never change the e-graph.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/machine.hpp"
#include "egraph/pattern.hpp"

namespace mctsat::egraph {

template <class Analysis>
class RhsPrefetcher {
 public:
  // Matches between two stages: far enough for a load to arrive, near enough for it to stay
  // cached (tuned on anchor E1).
  static constexpr std::size_t kStep = 4;

  explicit RhsPrefetcher(std::span<const Pattern> rhs) {
    for (std::uint32_t r = 0; r < rhs.size(); ++r) {
      const auto nodes = rhs[r].nodes();
      std::vector<std::uint32_t> heights(nodes.size(), 0);  // 0 for variables
      for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].is_var) continue;
        std::uint32_t h = 0;
        for (std::uint32_t c : nodes[i].children) h = std::max(h, heights[c]);
        heights[i] = h + 1;
        if (h == 0) leaves_.push_back({r, i});
        if (h == 1) uppers_.push_back({r, i});
      }
    }
  }

  // Prefetches for the matches after `m` (call once per match, in order).
  void ahead(const EGraph<Analysis>& egraph, std::span<const Pattern> rhs, const Matches& matches,
             std::size_t m) const {
    typename EGraph<Analysis>::ChildIds children;
    if (m + 3 * kStep < matches.size()) {
      const auto subst = matches.subst(m + 3 * kStep);
      for (const Target& t : leaves_) {
        const PatternNode& n = rhs[t.pattern].nodes()[t.node];
        if (leaf_children(rhs[t.pattern], n, subst, children))
          egraph.prefetch(n.op, n.payload, id_span(children));
      }
    }
    if (m + 2 * kStep < matches.size()) {
      const auto subst = matches.subst(m + 2 * kStep);
      for (const Target& t : leaves_) {
        const PatternNode& n = rhs[t.pattern].nodes()[t.node];
        if (leaf_children(rhs[t.pattern], n, subst, children))
          egraph.prefetch_class(n.op, n.payload, id_span(children));
      }
    }
    if (m + kStep < matches.size()) {
      const auto subst = matches.subst(m + kStep);
      typename EGraph<Analysis>::ChildIds grandchildren;
      for (const Target& t : uppers_) {
        const auto nodes = rhs[t.pattern].nodes();
        const PatternNode& n = nodes[t.node];
        children.clear();
        for (std::uint32_t c : n.children) {
          if (nodes[c].is_var) {
            children.push_back(subst[nodes[c].var]);
          } else if (!leaf_children(rhs[t.pattern], nodes[c], subst, grandchildren)) {
            break;
          } else if (const auto id =
                         egraph.lookup(nodes[c].op, nodes[c].payload, id_span(grandchildren))) {
            children.push_back(*id);
          } else {
            break;  // the child e-node is new, and so is this one
          }
        }
        if (children.size() == n.children.size() &&
            std::find(children.begin(), children.end(), kNoId) == children.end())
          egraph.prefetch(n.op, n.payload, id_span(children));
      }
    }
  }

 private:
  struct Target {
    std::uint32_t pattern, node;  // a right-hand side and a node index in it
  };

  // The classes of a node whose children are all variables; false when a binder fills one later.
  static bool leaf_children(const Pattern& pattern, const PatternNode& n, std::span<const Id> subst,
                            typename EGraph<Analysis>::ChildIds& children) {
    children.clear();
    for (std::uint32_t c : n.children) children.push_back(subst[pattern.nodes()[c].var]);
    return std::find(children.begin(), children.end(), kNoId) == children.end();
  }

  std::vector<Target> leaves_;  // e-nodes whose children are all variables
  std::vector<Target> uppers_;  // e-nodes whose children are variables or leaves_ e-nodes
};

}  // namespace mctsat::egraph
