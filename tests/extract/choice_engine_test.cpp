// The choice engine under local moves: reference counts equal the chosen parents (and roots) using
// each class, a priced move's change equals the exact DAG cost difference, reverting restores the
// counts and the choice, a move closing a cycle is refused, and an abandoned move leaves nothing.
#include <doctest/doctest.h>

#include "extract/choice_engine.hpp"
#include "tests/extract/problems.hpp"

using namespace mctsat::extract;
using namespace extract_test;

namespace {

// Each class's count: roots, plus the chosen nodes of needed classes whose children include it.
std::vector<std::uint32_t> counted_refs(const Problem& problem, const Choice& choice) {
  std::vector<std::uint32_t> refs(problem.num_classes(), 0);
  for (Index root : problem.roots()) ++refs[root];
  for (Index eclass : check_choice(problem, choice).order)
    for (Index child : problem.unique_children(choice[eclass])) ++refs[child];
  return refs;
}

std::vector<std::uint32_t> engine_refs(const ChoiceEngine& engine) {
  std::vector<std::uint32_t> refs;
  for (Index eclass = 0; eclass < engine.problem().num_classes(); ++eclass)
    refs.push_back(engine.refs(eclass));
  return refs;
}

}  // namespace

TEST_CASE("a priced move changes the cost exactly as the DAG cost does, and reverts") {
  const SharedSubgraph p = shared_subgraph();
  Choice choice(p.problem.num_classes(), kNone);
  choice[p.s] = p.s1;
  choice[p.a] = p.a2;
  choice[p.b] = p.b2;
  choice[p.r] = p.r1;
  ChoiceEngine engine(p.problem, choice, /*acyclic_shortcut=*/false);
  CHECK(engine.total() == 13);  // r1 + a2 + b2
  CHECK(engine_refs(engine) == counted_refs(p.problem, choice));
  CHECK_FALSE(engine.needed(p.s));

  // a2 -> a1 brings in S (8) and costs 1 - 6: +3.
  const std::size_t mark = engine.mark();
  const auto first = engine.apply(p.a, p.a1);
  REQUIRE(first.has_value());
  CHECK(*first == 3);
  CHECK(engine.added() == std::vector<Index>{p.s});
  CHECK(engine.refs(p.s) == 1);
  CHECK(engine.set_choice(p.a, p.a1, /*keep_heights=*/true));
  // b2 -> b1 then shares S: 1 - 6 = -5.
  const auto second = engine.apply(p.b, p.b1);
  REQUIRE(second.has_value());
  CHECK(*second == -5);
  CHECK(engine.refs(p.s) == 2);
  CHECK(engine.set_choice(p.b, p.b1, true));
  CHECK(engine.total() + *first + *second == dag_cost(p.problem, choice, p.problem.roots()));
  CHECK(engine_refs(engine) == counted_refs(p.problem, choice));

  engine.revert_to(mark);
  CHECK(choice[p.a] == p.a2);
  CHECK(choice[p.b] == p.b2);
  CHECK(engine_refs(engine) == counted_refs(p.problem, choice));
  CHECK_FALSE(engine.needed(p.s));

  // Kept this time: the total follows.
  const auto kept = engine.apply(p.a, p.a1);
  REQUIRE(kept.has_value());
  CHECK(engine.set_choice(p.a, p.a1, true));
  engine.commit(*kept);
  CHECK(engine.total() == 16);
  CHECK(check_choice(p.problem, choice).cost == 16);
  CHECK(engine_refs(engine) == counted_refs(p.problem, choice));
}

TEST_CASE("a move that would close a cycle, or costs too much, is refused and leaves nothing") {
  const MutualCycle p = mutual_cycle();
  Choice choice(p.problem.num_classes(), kNone);
  choice[p.x] = p.x1;  // x points at y
  choice[p.y] = p.y2;  // y is a leaf
  choice[p.r] = p.r1;
  ChoiceEngine engine(p.problem, choice, /*acyclic_shortcut=*/false);
  const std::vector<std::uint32_t> before = engine_refs(engine);
  const double total = engine.total();
  // y -> y1 would point back at x, which reaches y: a cycle.
  CHECK_FALSE(engine.apply(p.y, p.y1).has_value());
  CHECK(engine_refs(engine) == before);
  CHECK(engine.total() == total);
  // x -> x2 (a leaf of cost 10 instead of 1, refunding at most 0) abandoned at a change of 5.
  const std::size_t mark = engine.mark();
  CHECK_FALSE(engine.apply(p.x, p.x2, /*abort_at=*/5, ChoiceEngine::kUnlimited, /*refund_bound=*/0)
                  .has_value());
  CHECK(engine.mark() == mark);
  CHECK(engine_refs(engine) == before);
}
