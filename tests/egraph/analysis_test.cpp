// Tests of the analysis API with constant folding (const_fold.hpp): data made from children when
// e-nodes are added, dry runs that add nothing, propagation of data through parents when classes
// merge (on either side of the merge), data stamps, the `modify` hook, copies, and rewrites whose
// right-hand sides the analysis rejects (skipped, counted, never added).
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"
#include "tests/egraph/const_fold.hpp"
#include "tests/egraph/invariants.hpp"
#include "tests/egraph/test_language.hpp"

using namespace mctsat::egraph;
using namespace eglang;

namespace {

using FoldGraph = EGraph<ConstFold>;
using LiteralGraph = EGraph<ConstFoldWithLiterals>;

std::optional<std::int64_t> value(const FoldGraph& egraph, std::string_view term) {
  return egraph.data(id_of(egraph, term)).value;
}

}  // namespace

TEST_CASE("make() computes an added e-node's data from its children's") {
  FoldGraph egraph;
  CHECK(egraph.data(add(egraph, "(+ 2 3)")).value == 5);
  CHECK(egraph.data(add(egraph, "(* (+ 2 3) 4)")).value == 20);
  CHECK_FALSE(egraph.data(add(egraph, "(+ x 1)")).value.has_value());
  CHECK(egraph.data(add(egraph, "(/ 8 2)")).value == 4);
  CHECK_FALSE(egraph.data(add(egraph, "(/ 7 2)")).value.has_value());  // inexact: not folded
  CHECK(egraph.num_nodes() == 12);
  CHECK_FALSE(lookup(egraph, "5").has_value());  // no modify hook: no literal for the sum

  // The dry run says whether an e-node would be valid and what its data would be; it adds nothing.
  const Id eight = id_of(egraph, "8"), zero = add(egraph, "0"), x = id_of(egraph, "x");
  CHECK(egraph.num_nodes() == 13);
  ConstFold::Data out;
  const std::vector<Id> by_zero{eight, zero}, by_x{eight, x}, by_two{eight, id_of(egraph, "2")};
  CHECK_FALSE(egraph.make_data_of_classes(ENodeRef{kDiv, 0, by_zero}, out));
  CHECK(egraph.make_data_of_classes(ENodeRef{kDiv, 0, by_x}, out));
  CHECK_FALSE(out.value.has_value());
  CHECK(egraph.make_data_of_classes(ENodeRef{kDiv, 0, by_two}, out));
  CHECK(out.value == 4);
  CHECK(egraph.num_nodes() == 13);
}

TEST_CASE("merging a class with a constant propagates the constant up through its parents") {
  FoldGraph egraph;
  const Id x = add(egraph, "x");
  add(egraph, "(k x)");  // x has more parents than 2, so x's class survives the merge
  const Id s = add(egraph, "(+ x 3)");
  const Id p = add(egraph, "(* (+ x 3) 2)");
  const Id q = add(egraph, "(f (* (+ x 3) 2))");
  const Id two = id_of(egraph, "2"), three = id_of(egraph, "3");
  egraph.rebuild();
  CHECK_FALSE(egraph.data(p).value.has_value());

  egraph.set_epoch(3);
  egraph.merge(x, two);
  CHECK(egraph.find(two) == x);
  CHECK(egraph.data(x).value == 2);               // the merged data at once
  CHECK_FALSE(egraph.data(s).value.has_value());  // the parents at the rebuild
  egraph.rebuild();
  CHECK(egraph.data(s).value == 5);
  CHECK(egraph.data(p).value == 10);
  CHECK_FALSE(egraph.data(q).value.has_value());  // f does not fold
  CHECK(egraph.data_stamp(x) == 3);
  CHECK(egraph.data_stamp(s) == 3);
  CHECK(egraph.data_stamp(p) == 3);
  CHECK(egraph.data_stamp(q) == 0);
  CHECK(egraph.data_stamp(three) == 0);
  CHECK(invariant_violation(egraph) == "");
}

TEST_CASE("merge() reports which side changed, and the parents of that side are updated") {
  SUBCASE("the surviving class gains the constant (into_changed)") {
    FoldGraph egraph;
    const Id x = add(egraph, "x");
    const Id square = add(egraph, "(* x x)");
    const Id next = add(egraph, "(+ x 1)");
    const Id two = add(egraph, "2");
    add(egraph, "(+ 2 3)");
    egraph.rebuild();
    egraph.merge(two, x);  // x has two parents, 2 has one: x's class survives
    CHECK(egraph.find(two) == x);
    egraph.rebuild();
    CHECK(egraph.data(square).value == 4);
    CHECK(egraph.data(next).value == 3);
  }
  SUBCASE("the merged-away class gains the constant (from_changed)") {
    FoldGraph egraph;
    const Id x = add(egraph, "x");
    const Id square = add(egraph, "(* x x)");
    const Id two = add(egraph, "2");
    add(egraph, "(+ 2 3)");
    add(egraph, "(* 2 3)");
    egraph.rebuild();
    egraph.merge(x, two);  // 2 has two parents, x one: 2's class survives, unchanged
    CHECK(egraph.find(x) == two);
    CHECK(egraph.data_stamp(two) == 0);
    egraph.rebuild();
    CHECK(egraph.data(square).value == 4);  // only from_changed can have updated it
    CHECK(invariant_violation(egraph) == "");
  }
}

TEST_CASE("the modify hook may add and merge: folded classes receive their literal") {
  SUBCASE("with the hook") {
    LiteralGraph egraph;
    const Id sum = add(egraph, "(+ 2 3)");
    const Id other = add(egraph, "(+ 1 4)");
    egraph.rebuild();
    CHECK(egraph.find(sum) == egraph.find(other));
    CHECK(lookup(egraph, "5") == egraph.find(sum));
    CHECK(egraph.nodes_of(egraph.find(sum)).size() == 3);  // 5, (+ 2 3), (+ 1 4)
    CHECK(egraph.node(egraph.nodes_of(egraph.find(sum))[0]).op == kNum);
    CHECK(egraph.num_nodes() == 7);    // 2 3 + 5 1 4 +
    CHECK(egraph.num_classes() == 5);  // 2 3 1 4 {5 + +}

    // Through propagation at the rebuild too.
    const Id x = add(egraph, "x");
    const Id product = add(egraph, "(* x 3)");
    egraph.rebuild();
    CHECK_FALSE(lookup(egraph, "6").has_value());
    egraph.merge(x, id_of(egraph, "2"));
    egraph.rebuild();
    CHECK(lookup(egraph, "6") == egraph.find(product));
    CHECK(invariant_violation(egraph) == "");
  }
  SUBCASE("without the hook") {
    FoldGraph egraph;
    const Id sum = add(egraph, "(+ 2 3)");
    const Id other = add(egraph, "(+ 1 4)");
    egraph.rebuild();
    CHECK(egraph.find(sum) != egraph.find(other));
    CHECK_FALSE(lookup(egraph, "5").has_value());
    CHECK(egraph.num_nodes() == 6);
  }
}

TEST_CASE("a copied e-graph carries its own analysis data") {
  FoldGraph original;
  const Id x = add(original, "x");
  const Id s = add(original, "(+ x 1)");
  add(original, "7");
  original.rebuild();
  FoldGraph copy = original;
  copy.merge(x, id_of(copy, "7"));
  copy.rebuild();
  CHECK(copy.data(s).value == 8);
  CHECK_FALSE(original.data(s).value.has_value());
  CHECK_FALSE(original.data(x).value.has_value());
}

TEST_CASE("Rewrite::apply skips and counts right-hand sides the analysis rejects, adding nothing") {
  FoldGraph egraph;
  const Id by_zero = add(egraph, "(* x 0)");
  const Id by_two = add(egraph, "(* x 2)");
  egraph.rebuild();
  CHECK(egraph.num_nodes() == 5);
  // Sound for ?1 != 0: (a*b*b)/b = a*b. With ?1 = 0 the division is invalid.
  const auto rule = rewrite<ConstFold>("mul-div", {"(* ?0 ?1)"}, {"(/ (* (* ?0 ?1) ?1) ?1)"});
  const Matches matches = rule->search(egraph);
  CHECK(matches.size() == 2);
  const ApplyStats stats = rule->apply(egraph, matches);
  CHECK(stats.matches == 2);
  CHECK(stats.applied == 1);
  CHECK(stats.invalid == 1);
  CHECK(stats.rejected == 0);
  CHECK(stats.filtered == 0);
  CHECK(stats.unapplied == 0);
  CHECK(egraph.num_nodes() == 7);  // (* (* x 2) 2) and the division: nothing for the zero case
  egraph.rebuild();
  CHECK_FALSE(lookup(egraph, "(* (* x 0) 0)").has_value());  // not even the valid inner e-node
  CHECK(lookup(egraph, "(/ (* (* x 2) 2) 2)") == egraph.find(by_two));
  CHECK(egraph.nodes_of(egraph.find(by_zero)).size() == 1);
  CHECK(invariant_violation(egraph) == "");

  // The check reads class data, not just literals: a divisor whose class folds to 0 is invalid.
  FoldGraph folded;
  const Id odd = add(folded, "(f y (+ 1 -1))");
  const Id even = add(folded, "(f 6 3)");
  folded.rebuild();
  CHECK(value(folded, "(+ 1 -1)") == 0);
  CHECK(folded.num_nodes() == 8);
  const auto divide = rewrite<ConstFold>("f-div", {"(f ?0 ?1)"}, {"(/ ?0 ?1)"});
  const ApplyStats second = divide->apply(folded, divide->search(folded));
  CHECK(second.matches == 2);
  CHECK(second.invalid == 1);  // y / (+ 1 -1)
  CHECK(second.applied == 1);  // 6 / 3
  CHECK(folded.num_nodes() == 9);
  folded.rebuild();
  CHECK(folded.data(even).value == 2);
  CHECK(folded.nodes_of(folded.find(odd)).size() == 1);
}
