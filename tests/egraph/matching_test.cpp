// Tests of e-matching: the pattern compiler's output, each machine instruction (Bind filtering by
// operator, payload and arity; Compare from repeated variables; CheckGround from literal subterms;
// Yield), patterns rooted at a variable, ground and nested patterns, the match limit, conditions
// reading analysis data, and semi-naive matching (skip_before) down to whole runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "egraph/machine.hpp"
#include "egraph/program.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/runner.hpp"
#include "tests/egraph/const_fold.hpp"
#include "tests/egraph/invariants.hpp"
#include "tests/egraph/match_rows.hpp"
#include "tests/egraph/test_language.hpp"

using namespace mctsat::egraph;
using namespace eglang;

namespace {

using Graph = EGraph<NoAnalysis>;
using Kind = Instruction::Kind;

template <class Analysis>
Matches match(const EGraph<Analysis>& egraph, std::string_view text, std::uint32_t num_vars,
              std::size_t limit = kAll, std::uint32_t skip_before = 0, bool check_data = false) {
  return search(egraph, compile(pattern(text)), num_vars, limit, skip_before, check_data);
}

std::vector<Kind> kinds(const Program& program) {
  std::vector<Kind> out;
  for (const Instruction& ins : program.instructions) out.push_back(ins.kind);
  return out;
}

// Saturates by re-applying every match every iteration (run_iteration never skips).
template <class Analysis>
std::size_t saturate_without_skipping(EGraph<Analysis>& egraph, const RuleSet<Analysis>& rules,
                                      std::size_t max_iterations) {
  Runner<Analysis> runner;
  const std::vector<bool> all(rules.size(), true);
  for (std::size_t iteration = 0; iteration < max_iterations; ++iteration) {
    if (!runner.run_iteration(egraph, rules.span(), all, iteration).changed) return iteration + 1;
  }
  return max_iterations;
}

}  // namespace

TEST_CASE("compile() emits one Bind per operator node with its children's checks right after") {
  SUBCASE("repeated variable") {
    const Program p = compile(pattern("(g (f ?0) ?0)"));
    CHECK(kinds(p) == std::vector<Kind>{Kind::kBind, Kind::kBind, Kind::kCompare, Kind::kYield});
    CHECK_FALSE(p.root_is_var);
    CHECK(p.root_op == kG);
    CHECK(p.registers == 4);  // root, g's two children, f's child
    CHECK(p.binds == 2);
    const Instruction& bind_g = p.instructions[0];
    CHECK(bind_g.in == 0);
    CHECK(bind_g.out == 1);
    CHECK(bind_g.arity == 2);
    CHECK(bind_g.op == kG);
    CHECK(bind_g.depth == 0);
    const Instruction& bind_f = p.instructions[1];
    CHECK(bind_f.in == 1);
    CHECK(bind_f.out == 3);
    CHECK(bind_f.arity == 1);
    CHECK(bind_f.op == kF);
    CHECK(bind_f.depth == 1);
    CHECK(p.instructions[2].in == 3);  // f's child against g's second child
    CHECK(p.instructions[2].out == 2);
    CHECK(p.var_registers == std::vector<std::pair<VarId, std::uint32_t>>{{0, 2}});
  }
  SUBCASE("literal subterms") {
    const Program p = compile(pattern("(g 0 (f/5 ?1 (h a 7)))"));
    CHECK(kinds(p) == std::vector<Kind>{Kind::kBind, Kind::kCheckGround, Kind::kBind,
                                        Kind::kCheckGround, Kind::kYield});
    CHECK(p.instructions[2].payload == 5);
    CHECK(p.ground_terms == std::vector<std::uint32_t>{0, 4});  // "0" and "(h a 7)", post-order
    CHECK(p.instructions[1].out == 0);
    CHECK(p.instructions[3].out == 1);
    CHECK(p.var_registers == std::vector<std::pair<VarId, std::uint32_t>>{{1, 3}});
  }
  SUBCASE("breadth-first over nested operators") {
    const Program p = compile(pattern("(g (f ?0) (h ?1 ?2 ?0))"));
    CHECK(kinds(p) ==
          std::vector<Kind>{Kind::kBind, Kind::kBind, Kind::kBind, Kind::kCompare, Kind::kYield});
    CHECK(p.instructions[1].op == kF);
    CHECK(p.instructions[2].op == kH);
    CHECK(p.registers == 7);
  }
  SUBCASE("a variable root") {
    const Program p = compile(pattern("?3"));
    CHECK(kinds(p) == std::vector<Kind>{Kind::kYield});
    CHECK(p.root_is_var);
    CHECK(p.var_registers == std::vector<std::pair<VarId, std::uint32_t>>{{3, 0}});
  }
  SUBCASE("a ground pattern") {
    const Program p = compile(pattern("(f a)"));
    CHECK(kinds(p) == std::vector<Kind>{Kind::kBind, Kind::kCheckGround, Kind::kYield});
    CHECK(p.var_registers.empty());
  }
}

TEST_CASE("Bind filters by operator, payload and arity") {
  Graph egraph;
  const Id a = add(egraph, "a"), b = add(egraph, "b"), c = add(egraph, "c");
  const Id gab = add(egraph, "(g a b)");
  const Id gabc = add(egraph, "(g a b c)");
  const Id f1 = add(egraph, "(f/1 a)"), f2 = add(egraph, "(f/2 a)"), f0 = add(egraph, "(f a)");
  egraph.rebuild();
  CHECK(rows(match(egraph, "(g ?0 ?1)", 2)) == std::vector<std::vector<Id>>{{gab, a, b}});
  CHECK(rows(match(egraph, "(g ?0 ?1 ?2)", 3)) == std::vector<std::vector<Id>>{{gabc, a, b, c}});
  CHECK(rows(match(egraph, "(f/1 ?0)", 1)) == std::vector<std::vector<Id>>{{f1, a}});
  CHECK(rows(match(egraph, "(f/2 ?0)", 1)) == std::vector<std::vector<Id>>{{f2, a}});
  CHECK(rows(match(egraph, "(f ?0)", 1)) == std::vector<std::vector<Id>>{{f0, a}});
  CHECK(match(egraph, "(h ?0 ?1)", 2).size() == 0);
  CHECK(match(egraph, "(g ?0)", 1).size() == 0);
  CHECK(match(egraph, "(k ?0)", 1).size() == 0);  // beyond every operator in use

  // In one class with other e-nodes, each e-node still matches only its own operator, payload and
  // arity.
  egraph.merge(f0, f1);
  egraph.merge(f0, gab);
  egraph.rebuild();
  const Id merged = egraph.find(f0);
  CHECK(rows(match(egraph, "(f ?0)", 1)) == std::vector<std::vector<Id>>{{merged, a}});
  CHECK(rows(match(egraph, "(f/1 ?0)", 1)) == std::vector<std::vector<Id>>{{merged, a}});
  CHECK(rows(match(egraph, "(g ?0 ?1)", 2)) == std::vector<std::vector<Id>>{{merged, a, b}});
}

TEST_CASE("Compare: a repeated variable matches only equal classes") {
  Graph egraph;
  const Id a = add(egraph, "a"), b = add(egraph, "b");
  const Id gaa = add(egraph, "(g a a)");
  add(egraph, "(g a b)");
  const Id gbb = add(egraph, "(g b b)");
  const Id gfaa = add(egraph, "(g (f a) a)");
  add(egraph, "(g (f a) b)");
  egraph.rebuild();
  CHECK(rows(match(egraph, "(g ?0 ?0)", 1)) == std::vector<std::vector<Id>>{{gaa, a}, {gbb, b}});
  CHECK(rows(match(egraph, "(g (f ?0) ?0)", 1)) == std::vector<std::vector<Id>>{{gfaa, a}});
  CHECK(match(egraph, "(g ?0 ?1)", 2).size() == 5);

  // Equality is by class: after merging a and b, every g e-node has equal children.
  egraph.merge(a, b);
  egraph.rebuild();
  CHECK(match(egraph, "(g ?0 ?0)", 1).size() == 1);  // (g a a), (g a b), (g b b) are one
  CHECK(match(egraph, "(g (f ?0) ?0)", 1).size() == 1);
}

TEST_CASE("CheckGround: literal subterms match their class") {
  Graph egraph;
  const Id a = add(egraph, "a"), b = add(egraph, "b");
  const Id g0a = add(egraph, "(g 0 a)");
  add(egraph, "(g 1 a)");
  const Id g0b = add(egraph, "(g 0 b)");
  add(egraph, "(g a 0)");
  const Id gxc = add(egraph, "(g (* x 0) c)");
  egraph.rebuild();
  CHECK(rows(match(egraph, "(g 0 ?0)", 1)) == std::vector<std::vector<Id>>{{g0a, a}, {g0b, b}});
  CHECK(rows(match(egraph, "(g ?0 0)", 1)) ==
        std::vector<std::vector<Id>>{{id_of(egraph, "(g a 0)"), a}});
  CHECK(match(egraph, "(g 5 ?0)", 1).size() == 0);  // a literal the e-graph lacks
  CHECK(match(egraph, "(g (f 0) ?0)", 1).size() == 0);

  // The check compares classes: a class equal to 0 matches the literal 0.
  egraph.merge(id_of(egraph, "(* x 0)"), id_of(egraph, "0"));
  egraph.rebuild();
  CHECK(rows(match(egraph, "(g 0 ?0)", 1)) ==
        std::vector<std::vector<Id>>{{g0a, a}, {g0b, b}, {gxc, id_of(egraph, "c")}});
}

TEST_CASE("Yield writes one class per rule variable, kNoId for variables the pattern lacks") {
  Graph egraph;
  const Id a = add(egraph, "a");
  const Id fa = add(egraph, "(f a)");
  egraph.rebuild();
  const Matches matches = match(egraph, "(f ?2)", 4);
  CHECK(matches.num_vars == 4);
  CHECK(rows(matches) == std::vector<std::vector<Id>>{{fa, kNoId, kNoId, a, kNoId}});
}

TEST_CASE("a pattern rooted at a variable matches every class once") {
  Graph egraph;
  add(egraph, "(g (f a) b)");
  egraph.merge(id_of(egraph, "a"), id_of(egraph, "b"));
  egraph.rebuild();
  CHECK(egraph.num_classes() == 3);
  const Matches matches = match(egraph, "?0", 1);
  REQUIRE(matches.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(matches.roots_of(i)[0] == egraph.classes()[i]);
    CHECK(matches.subst(i)[0] == egraph.classes()[i]);
  }
}

TEST_CASE("ground and nested patterns") {
  Graph egraph;
  const Id fa = add(egraph, "(f a)");
  const Id fb = add(egraph, "(f b)");
  const Id g = add(egraph, "(g (f a) c)");
  add(egraph, "(h (f a) (g (f a) c) c)");
  egraph.rebuild();
  CHECK(rows(match(egraph, "(f a)", 0)) == std::vector<std::vector<Id>>{{fa}});
  CHECK(match(egraph, "(f c)", 0).size() == 0);
  CHECK(rows(match(egraph, "(h ?0 (g ?0 ?1) ?1)", 2)) ==
        std::vector<std::vector<Id>>{
            {id_of(egraph, "(h (f a) (g (f a) c) c)"), fa, id_of(egraph, "c")}});
  CHECK(match(egraph, "(h ?0 (g ?1 ?0) ?1)", 2).size() == 0);

  // Two f e-nodes in one class: a nested pattern finds each.
  egraph.merge(fa, fb);
  egraph.rebuild();
  const Id a = id_of(egraph, "a"), b = id_of(egraph, "b"), c = id_of(egraph, "c");
  CHECK(rows(match(egraph, "(g (f ?0) ?1)", 2)) ==
        std::vector<std::vector<Id>>{{egraph.find(g), a, c}, {egraph.find(g), b, c}});
  CHECK(match(egraph, "(h (f ?0) (g (f ?1) ?2) ?2)", 3).size() == 4);  // 2 x 2
}

TEST_CASE("the match limit stops a search after that many matches") {
  Graph egraph;
  for (std::string_view leaf : {"a", "b", "c", "d", "e"})
    add(egraph, "(f " + std::string(leaf) + ")");
  egraph.rebuild();
  CHECK(match(egraph, "(f ?0)", 1).size() == 5);
  const Matches two = match(egraph, "(f ?0)", 1, 2);
  CHECK(rows(two) == std::vector<std::vector<Id>>{{id_of(egraph, "(f a)"), id_of(egraph, "a")},
                                                  {id_of(egraph, "(f b)"), id_of(egraph, "b")}});
  CHECK(match(egraph, "(f ?0)", 1, 5).size() == 5);
  CHECK(match(egraph, "(f ?0)", 1, 1).size() == 1);
  CHECK(match(egraph, "(f ?0)", 1, 2).size() == 2);
  const Matches wide = match(egraph, "?0", 1, 3);  // a variable root obeys it too
  CHECK(wide.size() == 3);
}

TEST_CASE("conditions read analysis data; failing matches are counted as rejected") {
  using G = EGraph<ConstFold>;
  G egraph;
  const Id by_two = add(egraph, "(/ (* x 2) 2)");
  const Id by_y = add(egraph, "(/ (* x y) y)");
  const Id by_six = add(egraph, "(/ (* 3 2) 2)");
  egraph.rebuild();
  Condition<ConstFold> nonzero_constant = [](const G& g, std::span<const Id> subst) {
    const auto& v = g.data(subst[1]).value;
    return v.has_value() && *v != 0;
  };
  const auto rule = rewrite<ConstFold>("cancel", {"(/ (* ?0 ?1) ?1)"}, {"?0"}, {nonzero_constant});
  const Matches matches = rule->search(egraph);
  CHECK(matches.size() == 3);
  const ApplyStats stats = rule->apply(egraph, matches);
  CHECK(stats.matches == 3);
  CHECK(stats.rejected == 1);  // ?1 = y is not a constant
  CHECK(stats.applied == 2);
  egraph.rebuild();
  CHECK(egraph.find(by_two) == id_of(egraph, "x"));
  CHECK(egraph.find(by_six) == id_of(egraph, "3"));
  CHECK(egraph.find(by_y) != id_of(egraph, "x"));
}

TEST_CASE("semi-naive matching skips matches built only from e-nodes older than skip_before") {
  SUBCASE("new e-nodes are found, old ones skipped") {
    Graph egraph;
    const Id gab = add(egraph, "(g a b)");
    egraph.rebuild();
    egraph.set_epoch(1);
    const Id gac = add(egraph, "(g a c)");
    egraph.rebuild();
    CHECK(egraph.node_stamp(gab) == 0);
    CHECK(egraph.node_stamp(gac) == 1);
    const Matches all = match(egraph, "(g ?0 ?1)", 2, kAll, 0);
    CHECK(all.size() == 2);
    CHECK(all.skipped == 0);
    const Matches fresh = match(egraph, "(g ?0 ?1)", 2, kAll, 1);
    CHECK(rows(fresh) ==
          std::vector<std::vector<Id>>{{gac, id_of(egraph, "a"), id_of(egraph, "c")}});
    CHECK(fresh.skipped == 1);
    const Matches none = match(egraph, "(g ?0 ?1)", 2, kAll, 2);
    CHECK(none.size() == 0);
    CHECK(none.skipped == 2);
  }
  SUBCASE("one new e-node anywhere in the match makes it new") {
    Graph egraph;
    const Id g = add(egraph, "(g (f a) b)");
    const Id fa = id_of(egraph, "(f a)");
    egraph.rebuild();
    egraph.set_epoch(1);
    const Id fc = add(egraph, "(f c)");
    egraph.merge(fa, fc);  // (f a) has a parent, (f c) none: (f a)'s class survives, no repair
    egraph.rebuild();
    CHECK(egraph.node_stamp(g) == 0);
    const Matches fresh = match(egraph, "(g (f ?0) ?1)", 2, kAll, 1);
    CHECK(rows(fresh) == std::vector<std::vector<Id>>{{g, id_of(egraph, "c"), id_of(egraph, "b")}});
    CHECK(fresh.skipped == 1);
  }
  SUBCASE("e-nodes re-canonicalized by a rebuild are new") {
    Graph egraph;
    const Id gab = add(egraph, "(g a b)");
    add(egraph, "(f a)");
    add(egraph, "(p a)");
    egraph.rebuild();
    egraph.set_epoch(1);
    egraph.merge(id_of(egraph, "a"), id_of(egraph, "b"));  // b's class is merged away
    egraph.rebuild();
    CHECK(egraph.node_stamp(gab) == 1);
    CHECK(match(egraph, "(g ?0 ?1)", 2, kAll, 1).size() == 1);
    const Matches f = match(egraph, "(f ?0)", 1, kAll, 1);
    CHECK(f.size() == 0);
    CHECK(f.skipped == 1);
  }
  SUBCASE("patterns rooted at a variable are never skipped") {
    Graph egraph;
    add(egraph, "(f a)");
    egraph.rebuild();
    const Matches matches = match(egraph, "?0", 1, kAll, 5);
    CHECK(matches.size() == 2);
    CHECK(matches.skipped == 0);
  }
  SUBCASE("with check_data, a variable whose class data changed makes the match new") {
    EGraph<ConstFold> egraph;
    const Id fx = add(egraph, "(f x)");
    add(egraph, "2");
    egraph.rebuild();
    egraph.set_epoch(1);
    egraph.merge(id_of(egraph, "x"), id_of(egraph, "2"));  // x's class survives, gains 2
    egraph.rebuild();
    CHECK(egraph.node_stamp(fx) == 0);
    CHECK(egraph.data_stamp(id_of(egraph, "x")) == 1);
    const Matches by_nodes = match(egraph, "(f ?0)", 1, kAll, 1, false);
    CHECK(by_nodes.size() == 0);
    CHECK(by_nodes.skipped == 1);
    CHECK(match(egraph, "(f ?0)", 1, kAll, 1, true).size() == 1);
    CHECK(match(egraph, "(f ?0)", 1, kAll, 2, true).skipped == 1);
  }
}

TEST_CASE("a semi-naive run ends in the same e-graph as re-applying every match every iteration") {
  SUBCASE("commutativity, associativity, an involution and distribution") {
    RuleSet<NoAnalysis> rules;
    rules.add("comm", "(g ?0 ?1)", "(g ?1 ?0)")
        .add("assoc", "(g ?0 (g ?1 ?2))", "(g (g ?0 ?1) ?2)")
        .add("involution", "(f (f ?0))", "?0")
        .add("distribute", "(f (g ?0 ?1))", "(g (f ?0) (f ?1))");
    for (std::string_view start : {"(f (g a (g b c)))", "(g (f (f a)) (f (g b (f c))))"}) {
      CAPTURE(start);
      Graph semi, full;
      add(semi, start);
      add(full, start);
      SimpleScheduler scheduler;
      RunnerOptions<NoAnalysis> options;
      options.limits = {100, 100'000, 60.0};
      const RunReport report = Runner<NoAnalysis>(options).run(semi, rules.span(), scheduler);
      CHECK(report.stop == StopReason::kSaturated);
      std::size_t skipped = 0;
      for (const IterationStats& it : report.iterations)
        for (const RuleIterationStats& r : it.rules) skipped += r.skipped;
      CHECK(skipped > 0);  // semi-naive matching did skip
      CHECK(saturate_without_skipping(full, rules, 100) < 100);
      CHECK(semi.num_nodes() == full.num_nodes());
      CHECK(semi.num_classes() == full.num_classes());
      CHECK(invariant_violation(semi) == "");
    }
  }
  SUBCASE("a condition on class data that changes during the run") {
    using A = ConstFoldWithLiterals;
    RuleSet<A> rules;
    Condition<A> nonzero = [](const EGraph<A>& g, std::span<const Id> subst) {
      const auto& v = g.data(subst[1]).value;
      return v.has_value() && *v != 0;
    };
    // cancel is rejected in the first iteration (y is unknown) and applies in the second, from
    // old e-nodes whose variable's class data changed.
    rules.add("cancel", "(/ (* ?0 ?1) ?1)", "?0", {nonzero})
        .add("y-is-3", "y", "3")
        .add("comm-add", "(+ ?0 ?1)", "(+ ?1 ?0)")
        .add("comm-mul", "(* ?0 ?1)", "(* ?1 ?0)");
    const std::string_view start = "(/ (* (+ x 1) (+ y 2)) (+ y 2))";
    EGraph<A> semi, full;
    add(semi, start);
    add(full, start);
    SimpleScheduler scheduler;
    const RunReport report = Runner<A>().run(semi, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kSaturated);
    REQUIRE(report.iterations.size() >= 2);
    CHECK(report.iterations[0].rules[0].apply.rejected == 1);
    CHECK(report.iterations[1].rules[0].apply.applied == 1);
    CHECK(semi.find(id_of(semi, start)) == semi.find(id_of(semi, "(+ x 1)")));
    saturate_without_skipping(full, rules, 100);
    CHECK(semi.num_nodes() == full.num_nodes());
    CHECK(semi.num_classes() == full.num_classes());
  }
}
