// Tests of multi-pattern rules: join_matches (consistent pairs on shared variables, no two roots in
// one class, cross products, the limit, three-way joins) and multi-pattern rewrites searched and
// applied end to end (each right-hand side merged with its own root; all or nothing when the
// analysis rejects one of them).
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "egraph/multi_match.hpp"
#include "egraph/rewrite.hpp"
#include "tests/egraph/const_fold.hpp"
#include "tests/egraph/invariants.hpp"
#include "tests/egraph/match_rows.hpp"
#include "tests/egraph/test_language.hpp"

using namespace mctsat::egraph;
using namespace eglang;

namespace {

constexpr Id N = kNoId;

// The matches of one pattern over three rule variables, as (root, {subst}) pairs.
Matches part(std::vector<std::pair<Id, std::vector<Id>>> rows) {
  Matches m;
  m.num_vars = 3;
  for (const auto& [root, subst] : rows) {
    m.roots.push_back(root);
    m.substs.insert(m.substs.end(), subst.begin(), subst.end());
  }
  return m;
}

}  // namespace

TEST_CASE("join_matches keeps only the pairs that agree on shared variables") {
  const std::vector<Matches> parts{
      part({{10, {1, N, N}}, {11, {2, N, N}}}),
      part({{20, {1, 5, N}}, {21, {2, 6, N}}, {22, {1, 7, N}}, {23, {3, 8, N}}})};
  const Matches joined = join_matches(parts, kAll);
  CHECK(joined.num_roots == 2);
  CHECK(joined.num_vars == 3);
  CHECK(rows(joined) ==
        std::vector<std::vector<Id>>{{10, 20, 1, 5, N}, {10, 22, 1, 7, N}, {11, 21, 2, 6, N}});
}

TEST_CASE("join_matches skips combinations whose roots are the same class") {
  const std::vector<Matches> parts{part({{10, {1, N, N}}, {11, {2, N, N}}}),
                                   part({{10, {1, 9, N}}, {20, {1, 5, N}}, {11, {2, 6, N}}})};
  CHECK(rows(join_matches(parts, kAll)) == std::vector<std::vector<Id>>{{10, 20, 1, 5, N}});
}

TEST_CASE("join_matches without shared variables is the cross product, up to the limit") {
  const std::vector<Matches> parts{part({{10, {1, N, N}}, {11, {2, N, N}}}),
                                   part({{20, {N, 5, N}}, {21, {N, 6, N}}})};
  const std::vector<std::vector<Id>> all{
      {10, 20, 1, 5, N}, {10, 21, 1, 6, N}, {11, 20, 2, 5, N}, {11, 21, 2, 6, N}};
  CHECK(rows(join_matches(parts, kAll)) == all);
  CHECK(rows(join_matches(parts, 4)) == all);
  CHECK(rows(join_matches(parts, 3)) == std::vector<std::vector<Id>>(all.begin(), all.begin() + 3));
  CHECK(rows(join_matches(parts, 1)) == std::vector<std::vector<Id>>(all.begin(), all.begin() + 1));
}

TEST_CASE("join_matches with an empty side or a single pattern") {
  const Matches some = part({{10, {1, N, N}}, {11, {2, N, N}}});
  const Matches none = part({});
  CHECK(join_matches(std::vector<Matches>{some, none}, kAll).size() == 0);
  CHECK(join_matches(std::vector<Matches>{none, some}, kAll).size() == 0);
  const Matches single = join_matches(std::vector<Matches>{some}, kAll);
  CHECK(single.num_roots == 1);
  CHECK(rows(single) == std::vector<std::vector<Id>>{{10, 1, N, N}, {11, 2, N, N}});
}

TEST_CASE("join_matches joins three patterns on their pairwise shared variables") {
  const std::vector<Matches> parts{
      part({{10, {1, N, N}}, {11, {2, N, N}}}),                   // ?0
      part({{20, {1, 5, N}}, {21, {2, 6, N}}, {22, {1, 7, N}}}),  // ?0 ?1
      part({{30, {N, 5, 100}},
            {31, {N, 7, 101}},
            {32, {N, 6, 102}},  // ?1 ?2
            {33, {N, 5, 103}},
            {11, {N, 6, 104}},
            {34, {N, 9, 105}}})};
  const Matches joined = join_matches(parts, kAll);
  CHECK(joined.num_roots == 3);
  // (11, 21, 11) would use one class twice; ?1 = 9 has no partner.
  CHECK(rows(joined) == std::vector<std::vector<Id>>{{10, 20, 30, 1, 5, 100},
                                                     {10, 20, 33, 1, 5, 103},
                                                     {10, 22, 31, 1, 7, 101},
                                                     {11, 21, 32, 2, 6, 102}});
  CHECK(join_matches(parts, 2).size() == 2);
}

TEST_CASE("a multi-pattern rewrite merges each right-hand side with its own root") {
  EGraph<NoAnalysis> egraph;
  const Id fa = add(egraph, "(f a)"), pa = add(egraph, "(p a)");
  const Id fb = add(egraph, "(f b)"), pc = add(egraph, "(p c)");
  egraph.rebuild();
  CHECK(egraph.num_nodes() == 7);
  const auto rule =
      rewrite<NoAnalysis>("split", {"(f ?0)", "(p ?0)"}, {"(r (k ?0))", "(h (k ?0))"});
  CHECK(rule->multi());
  const Matches matches = rule->search(egraph);
  CHECK(rows(matches) == std::vector<std::vector<Id>>{{fa, pa, id_of(egraph, "a")}});
  const ApplyStats stats = rule->apply(egraph, matches);
  CHECK(stats.matches == 1);
  CHECK(stats.applied == 1);
  egraph.rebuild();
  CHECK(egraph.num_nodes() == 10);   // (k a), (r (k a)), (h (k a))
  CHECK(egraph.num_classes() == 8);  // only (k a) is a new class
  CHECK(egraph.find(id_of(egraph, "(r (k a))")) == egraph.find(fa));
  CHECK(egraph.find(id_of(egraph, "(h (k a))")) == egraph.find(pa));
  CHECK(egraph.find(fa) != egraph.find(pa));
  CHECK(egraph.nodes_of(egraph.find(fb)).size() == 1);
  CHECK(egraph.nodes_of(egraph.find(pc)).size() == 1);
  CHECK_FALSE(lookup(egraph, "(k b)").has_value());
  CHECK(invariant_violation(egraph) == "");

  // Applying the same matches again changes nothing.
  CHECK(rule->apply(egraph, rule->search(egraph)).applied == 0);
}

TEST_CASE("a multi-pattern search never pairs a class with itself") {
  EGraph<NoAnalysis> egraph;
  const Id fa = add(egraph, "(f a)"), fb = add(egraph, "(f b)");
  egraph.rebuild();
  const Id a = id_of(egraph, "a"), b = id_of(egraph, "b");
  const auto rule = rewrite<NoAnalysis>("pair", {"(f ?0)", "(f ?1)"}, {"(g ?0 ?1)", "(g ?1 ?0)"});
  const Matches matches = rule->search(egraph);
  CHECK(rows(matches) == std::vector<std::vector<Id>>{{fa, fb, a, b}, {fb, fa, b, a}});
  const ApplyStats stats = rule->apply(egraph, matches);
  CHECK(stats.applied == 1);  // the second match re-adds the same two e-nodes
  egraph.rebuild();
  CHECK(egraph.find(id_of(egraph, "(g a b)")) == egraph.find(fa));
  CHECK(egraph.find(id_of(egraph, "(g b a)")) == egraph.find(fb));
  CHECK(egraph.find(fa) != egraph.find(fb));
}

TEST_CASE("a multi-pattern match whose one right-hand side is invalid adds nothing") {
  EGraph<ConstFold> egraph;
  const Id f6 = add(egraph, "(f 6)");
  add(egraph, "(p 0)");
  const Id p2 = add(egraph, "(p 2)");
  egraph.rebuild();
  CHECK(egraph.num_nodes() == 6);
  const auto rule = rewrite<ConstFold>("div-mul", {"(f ?0)", "(p ?1)"}, {"(/ ?0 ?1)", "(* ?0 ?1)"});
  const Matches matches = rule->search(egraph);
  CHECK(matches.size() == 2);  // ?1 = 0 and ?1 = 2
  const ApplyStats stats = rule->apply(egraph, matches);
  CHECK(stats.invalid == 1);
  CHECK(stats.applied == 1);
  CHECK(egraph.num_nodes() == 8);  // (/ 6 2) and (* 6 2)
  egraph.rebuild();
  CHECK_FALSE(lookup(egraph, "(* 6 0)").has_value());  // valid, but its partner was not
  CHECK(egraph.data(f6).value == 3);
  CHECK(egraph.data(p2).value == 12);
}

TEST_CASE(
    "join_matches with a filter keeps what it accepts, asking once per combination of groups") {
  // Cross product of 3 x 3; groups: part 0 {10, 12} and {11}; part 1 {20} and {21, 22}.
  const std::vector<Matches> parts{part({{10, {1, N, N}}, {11, {2, N, N}}, {12, {3, N, N}}}),
                                   part({{20, {N, 5, N}}, {21, {N, 6, N}}, {22, {N, 7, N}}})};
  std::vector<std::vector<Id>> asked;
  JoinFilter filter;
  filter.groups = {{0, 1, 0}, {0, 1, 1}};
  // Keeps group pairs (0, 1) and (1, 0): ?0 odd with ?1 = 6 or 7, ?0 = 2 with ?1 = 5.
  filter.keep = [&](std::span<const Id> roots, std::span<const Id> subst) {
    asked.push_back({roots[0], roots[1]});
    return (subst[0] == 2) == (subst[1] == 5);
  };
  const std::vector<std::vector<Id>> kept = rows(join_matches(parts, kAll, &filter));
  CHECK(kept == std::vector<std::vector<Id>>{{10, 21, 1, 6, N},
                                             {10, 22, 1, 7, N},
                                             {11, 20, 2, 5, N},
                                             {12, 21, 3, 6, N},
                                             {12, 22, 3, 7, N}});
  CHECK(asked == std::vector<std::vector<Id>>{{10, 20}, {10, 21}, {11, 20}, {11, 21}});
  // The limit counts kept matches only.
  CHECK(rows(join_matches(parts, 3, &filter)) ==
        std::vector<std::vector<Id>>(kept.begin(), kept.begin() + 3));
}

TEST_CASE("conditions checked in a multi-pattern search: only passing matches, the same result") {
  // ?0 and ?1 must hold equal constants: a condition on class data that merges do not change.
  const Condition<ConstFold> equal = [](const EGraph<ConstFold>& g, std::span<const Id> subst) {
    return g.data(subst[0]).value.has_value() && g.data(subst[0]).value == g.data(subst[1]).value;
  };
  EGraph<ConstFold> in_search, at_apply;
  for (EGraph<ConstFold>* egraph : {&in_search, &at_apply}) {
    for (const char* term : {"(f 1)", "(f 2)", "(f 3)", "(p 2)", "(p 3)", "(p 4)", "(p x)"})
      add(*egraph, term);
    egraph->rebuild();
  }
  const auto make = [&](ConditionCheck check) {
    return Rewrite<ConstFold>("pair", {pattern("(f ?0)"), pattern("(p ?1)")},
                              {pattern("(g ?0 ?1)"), pattern("(g ?1 ?0)")}, 2, {equal}, {}, check);
  };
  const Rewrite<ConstFold> searched = make(ConditionCheck::kSearch);
  const Rewrite<ConstFold> applied = make(ConditionCheck::kApply);
  const Matches few = searched.search(in_search), all = applied.search(at_apply);
  CHECK(all.size() == 12);  // 3 x 4
  CHECK(few.size() == 2);   // (f 2) with (p 2), (f 3) with (p 3)
  const ApplyStats few_stats = searched.apply(in_search, few);
  const ApplyStats all_stats = applied.apply(at_apply, all);
  CHECK(few_stats.rejected == 0);
  CHECK(all_stats.rejected == 10);
  CHECK(few_stats.applied == all_stats.applied);
  in_search.rebuild();
  at_apply.rebuild();
  CHECK(in_search.num_nodes() == at_apply.num_nodes());
  CHECK(in_search.num_classes() == at_apply.num_classes());
  CHECK(in_search.find(id_of(in_search, "(g 2 2)")) == in_search.find(id_of(in_search, "(f 2)")));
}
