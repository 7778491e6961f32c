// The e-node blacklist (kept through rebuilding and copying) and the post-iteration cycle pass:
// finding cycles, and breaking each at its newest e-node until none is left, checked against an
// independent topological sort on random e-graphs.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "egraph/cycles.hpp"
#include "egraph/egraph.hpp"

using namespace mctsat::egraph;

namespace cycles_test {

constexpr OpCode kLeaf = 0, kF = 1, kG = 2, kH = 3;

// Whether the classes reachable through live, non-blacklisted e-nodes can be topologically sorted
// (Kahn's algorithm): an oracle independent of the depth-first search under test.
bool acyclic_by_kahn(const EGraph<NoAnalysis>& egraph) {
  const std::size_t ids = egraph.num_ids();
  std::vector<std::vector<Id>> parents(ids);  // child class -> parent classes (with repeats)
  std::vector<std::size_t> out_degree(ids, 0);
  for (Id c : egraph.classes())
    for (Id n : egraph.nodes_of(c)) {
      if (egraph.blacklisted(n)) continue;
      for (Id child : egraph.node(n).children) {
        ++out_degree[c];
        parents[egraph.find(child)].push_back(c);
      }
    }
  std::vector<Id> ready;
  for (Id c : egraph.classes())
    if (out_degree[c] == 0) ready.push_back(c);
  std::size_t sorted = 0;
  while (!ready.empty()) {
    const Id c = ready.back();
    ready.pop_back();
    ++sorted;
    for (Id p : parents[c])
      if (--out_degree[p] == 0) ready.push_back(p);
  }
  return sorted == egraph.num_classes();
}

TEST_CASE("the blacklist is kept through rebuilding and copying") {
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 1), b = egraph.add(kLeaf, 2);
  const Id fa = egraph.add(kF, 0, {a}), fb = egraph.add(kF, 0, {b});
  egraph.rebuild();
  CHECK(egraph.num_blacklisted() == 0);
  CHECK_FALSE(egraph.blacklisted(fa));

  egraph.blacklist(fa);
  egraph.blacklist(fa);  // twice counts once
  CHECK(egraph.blacklisted(fa));
  CHECK_FALSE(egraph.blacklisted(fb));
  CHECK(egraph.num_blacklisted() == 1);

  EGraph<NoAnalysis> copy = egraph;
  CHECK(copy.blacklisted(fa));
  CHECK(copy.num_blacklisted() == 1);
  copy.blacklist(fb);
  CHECK(copy.num_blacklisted() == 2);
  CHECK_FALSE(egraph.blacklisted(fb));  // the copy is independent
  CHECK(egraph.num_blacklisted() == 1);

  // New e-nodes start off the list; merging and rebuilding leave the flags alone.
  const Id ga = egraph.add(kG, 0, {fa});
  egraph.merge(a, b);
  egraph.rebuild();
  CHECK(egraph.blacklisted(fa));
  CHECK_FALSE(egraph.blacklisted(ga));
  CHECK(egraph.num_blacklisted() == 1);
  CHECK(egraph.num_classes() == 3);  // {a, b}, {f a, f b} (congruent), {g (f a)}
}

TEST_CASE("an acyclic e-graph has no cycle to remove") {
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 1);
  const Id fa = egraph.add(kF, 0, {a});
  const Id h = egraph.add(kH, 0, {fa, a});
  egraph.rebuild();
  const std::vector<Id> roots{h};
  CHECK(find_cycle(egraph, roots).empty());
  CHECK_FALSE(has_cycle(egraph));
  CHECK(remove_cycles(egraph, roots) == 0);
  CHECK(egraph.num_blacklisted() == 0);
}

TEST_CASE("a merge that closes a self-loop is broken at the looping e-node") {
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 1);
  const Id fa = egraph.add(kF, 0, {a});  // e-node id fa
  egraph.merge(a, fa);                   // a = f(a)
  egraph.rebuild();
  const std::vector<Id> roots{a};
  CHECK(find_cycle(egraph, roots) == std::vector<Id>{fa});
  CHECK(remove_cycles(egraph, roots) == 1);
  CHECK(egraph.blacklisted(fa));
  CHECK_FALSE(egraph.blacklisted(a));
  CHECK(find_cycle(egraph, roots).empty());
  CHECK(remove_cycles(egraph, roots) == 0);
}

TEST_CASE("a two-class cycle is broken at its newest e-node") {
  // a = g(f(a)): class A = {a, g(F)}, F = {f(A)}.
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 1);
  const Id fa = egraph.add(kF, 0, {a});
  const Id gfa = egraph.add(kG, 0, {fa});
  egraph.merge(a, gfa);
  egraph.rebuild();
  std::vector<Id> cycle = find_cycle(egraph, std::vector<Id>{a});
  std::sort(cycle.begin(), cycle.end());
  CHECK(cycle == std::vector<Id>{fa, gfa});
  CHECK(remove_cycles(egraph, std::vector<Id>{fa}) == 1);  // any class of the cycle will do
  CHECK(egraph.blacklisted(gfa));
  CHECK_FALSE(egraph.blacklisted(fa));
  CHECK_FALSE(has_cycle(egraph));
}

TEST_CASE("only cycles reachable from the roots are removed") {
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 1), b = egraph.add(kLeaf, 2);
  const Id fa = egraph.add(kF, 0, {a});
  const Id fb = egraph.add(kF, 0, {b});
  egraph.merge(b, fb);  // a cycle below b only
  egraph.rebuild();
  CHECK(find_cycle(egraph, std::vector<Id>{fa}).empty());
  CHECK(remove_cycles(egraph, std::vector<Id>{fa}) == 0);
  CHECK(has_cycle(egraph));
  CHECK(remove_cycles(egraph) == 1);
  CHECK(egraph.blacklisted(fb));
}

TEST_CASE("overlapping cycles are all broken, each at its newest e-node") {
  // A = {a, f(B), g(C)}, B = {b, f(A)}, C = {c, g(A), h(B, C)}: cycles A-B, A-C, C-C, A-C-B.
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 1), b = egraph.add(kLeaf, 2), c = egraph.add(kLeaf, 3);
  const Id fb = egraph.add(kF, 0, {b});
  const Id fa = egraph.add(kF, 0, {a});
  const Id gc = egraph.add(kG, 0, {c});
  const Id ga = egraph.add(kG, 0, {a});
  const Id hbc = egraph.add(kH, 0, {b, c});
  egraph.merge(a, fb);
  egraph.merge(b, fa);
  egraph.merge(a, gc);
  egraph.merge(c, ga);
  egraph.merge(c, hbc);
  egraph.rebuild();
  REQUIRE(egraph.num_classes() == 3);
  CHECK(has_cycle(egraph));
  const std::size_t removed = remove_cycles(egraph, std::vector<Id>{a});
  CHECK(removed == egraph.num_blacklisted());
  CHECK_FALSE(has_cycle(egraph));
  CHECK(acyclic_by_kahn(egraph));
  // The self-loop h(B, C) in C is the newest e-node of every cycle through it.
  CHECK(egraph.blacklisted(hbc));
  // Leaves are on no cycle; the oldest e-node of the A-B cycle is kept.
  CHECK_FALSE(egraph.blacklisted(a));
  CHECK_FALSE(egraph.blacklisted(b));
  CHECK_FALSE(egraph.blacklisted(c));
  CHECK_FALSE(egraph.blacklisted(fb));
}

TEST_CASE("random e-graphs end acyclic, agreeing with a topological sort") {
  std::mt19937 rng(12345);
  std::size_t cyclic_rounds = 0;
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    EGraph<NoAnalysis> egraph;
    std::vector<Id> ids;
    for (int i = 0; i < 4; ++i) ids.push_back(egraph.add(kLeaf, i));
    for (int i = 0; i < 40; ++i) {
      const Id x = ids[rng() % ids.size()], y = ids[rng() % ids.size()];
      ids.push_back(rng() % 2 ? egraph.add(kF + rng() % 2, 0, {x})
                              : egraph.add(kH, static_cast<std::int64_t>(rng() % 3), {x, y}));
    }
    for (std::uint32_t i = 0, merges = rng() % 5; i < merges; ++i)
      egraph.merge(ids[rng() % ids.size()], ids[rng() % ids.size()]);
    egraph.rebuild();
    const bool cyclic = has_cycle(egraph);
    cyclic_rounds += cyclic;
    CHECK(cyclic == !acyclic_by_kahn(egraph));
    const std::size_t removed = remove_cycles(egraph);
    CHECK((removed > 0) == cyclic);
    CHECK(removed == egraph.num_blacklisted());
    CHECK_FALSE(has_cycle(egraph));
    CHECK(acyclic_by_kahn(egraph));
  }
  // Both kinds of e-graph were tried.
  CHECK(cyclic_rounds > 5);
  CHECK(cyclic_rounds < 35);
}

TEST_CASE("a cycle through a very deep chain is found without recursion") {
  EGraph<NoAnalysis> egraph;
  const Id bottom = egraph.add(kLeaf, 0);
  Id top = bottom;
  constexpr int kDepth = 200'000;
  for (int i = 0; i < kDepth; ++i) top = egraph.add(kF, 0, {top});
  egraph.merge(bottom, top);  // bottom = f(f(...f(bottom)))
  egraph.rebuild();
  const std::vector<Id> roots{bottom};
  CHECK(find_cycle(egraph, roots).size() == kDepth);
  CHECK(remove_cycles(egraph, roots) == 1);
  CHECK(egraph.blacklisted(top));  // the newest e-node of the cycle
  CHECK_FALSE(has_cycle(egraph));
}

}  // namespace cycles_test
