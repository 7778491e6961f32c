// Tests of the hashcons on its own: removing stale slots in one sweep (Hashcons::remove_stale)
// keeps every other entry findable, whatever the probe runs look like (wrapping around the table,
// several stale slots in one run), and erase still works beside it.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "egraph/hashcons.hpp"
#include "egraph/node_store.hpp"

namespace {

using mctsat::egraph::hash_enode;
using mctsat::egraph::Hashcons;
using mctsat::egraph::Id;
using mctsat::egraph::NodeStore;

TEST_CASE("remove_stale removes exactly the slots with a stale child; the rest stay findable") {
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    std::mt19937 rng(seed);
    NodeStore nodes;
    Hashcons table;
    // Binary and unary e-nodes over children 0..99, about 0.7 of a 128-slot table (long probe runs,
    // some wrapping around its end). A child below `stale_below` counts as non-canonical.
    const Id stale_below = std::uniform_int_distribution<Id>(5, 60)(rng);
    std::set<std::vector<Id>> seen;
    std::vector<Id> all;
    while (all.size() < 89) {
      std::vector<Id> children(1 + rng() % 2);
      for (Id& c : children) c = std::uniform_int_distribution<Id>(0, 99)(rng);
      if (!seen.insert(children).second) continue;
      const Id node = nodes.push(0, 0, children);
      table.insert(node, nodes.get(node), hash_enode(0, 0, children), node);
      all.push_back(node);
    }
    // Erase a few entries the usual way first (as for e-nodes whose content no slot holds).
    for (std::size_t i = 0; i < all.size(); i += 11) {
      const auto content = nodes.get(all[i]);
      table.erase(all[i], hash_enode(0, 0, content.children));
    }
    table.remove_stale([&](Id child) { return child >= stale_below; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto content = nodes.get(all[i]);
      const bool stale = std::any_of(content.children.begin(), content.children.end(),
                                     [&](Id c) { return c < stale_below; });
      const std::size_t slot =
          table.find(nodes, 0, 0, content.children, hash_enode(0, 0, content.children));
      if (i % 11 == 0 || stale) {
        CHECK(slot == Hashcons::kNotFound);
      } else {
        ++kept;
        REQUIRE(slot != Hashcons::kNotFound);
        CHECK(table.node_at(slot) == all[i]);
      }
    }
    CHECK(table.size() == kept);
  }
}

}  // namespace
