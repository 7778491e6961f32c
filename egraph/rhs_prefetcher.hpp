// Prefetching for the apply phase. Instantiating a rewrite's right-hand sides is a chain of
// hashcons lookups at random addresses of a table far larger than the caches, and each lookup
// waits for its cache miss (most of them find an existing e-node once a rule has been applied).
// While the apply loop works on match m, the prefetcher starts loading, for match m + kAhead, the
// hashcons slots of the right-hand-side e-nodes whose children are all variables: the only ones
// whose content is known before instantiation. E-nodes higher up depend on the classes of
// those lookups; looking them up ahead as well cost more than it saved on anchor E1. Prefetches
// are hints: they never change the e-graph.
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
  // How many matches ahead: far enough for a load to arrive, near enough for it to stay cached
  // (tuned on anchor E1).
  static constexpr std::size_t kAhead = 8;

  explicit RhsPrefetcher(std::span<const Pattern> rhs) {
    for (std::uint32_t r = 0; r < rhs.size(); ++r) {
      const auto nodes = rhs[r].nodes();
      for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        if (!nodes[i].is_var && std::all_of(nodes[i].children.begin(), nodes[i].children.end(),
                                            [&](std::uint32_t c) { return nodes[c].is_var; }))
          targets_.push_back({r, i});
      }
    }
  }

  // Prefetches for the match kAhead after `m` (call once per match, in order).
  void ahead(const EGraph<Analysis>& egraph, std::span<const Pattern> rhs, const Matches& matches,
             std::size_t m) const {
    if (m + kAhead >= matches.size()) return;
    const auto subst = matches.subst(m + kAhead);
    for (const Target& t : targets_) {
      const auto nodes = rhs[t.pattern].nodes();
      const PatternNode& n = nodes[t.node];
      if (n.children.size() <= 2) {
        Id children[2] = {0, 0};
        bool known = true;
        for (std::size_t c = 0; c < n.children.size(); ++c) {
          children[c] = subst[nodes[n.children[c]].var];
          known = known && children[c] != kNoId;
        }
        // A variable a binder fills later is still unknown (kNoId).
        if (known)
          egraph.prefetch(n.op, n.payload, std::span<const Id>(children, n.children.size()));
        continue;
      }
      typename EGraph<Analysis>::ChildIds children;
      for (std::uint32_t c : n.children) children.push_back(subst[nodes[c].var]);
      if (std::find(children.begin(), children.end(), kNoId) == children.end())
        egraph.prefetch(n.op, n.payload, id_span(children));
    }
  }

 private:
  struct Target {
    std::uint32_t pattern, node;  // a right-hand side and a node index in it
  };
  std::vector<Target> targets_;  // e-nodes whose children are all variables
};

}  // namespace mctsat::egraph
