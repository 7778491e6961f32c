// Regression tests for engine bugs found by the unit tests: semi-naive matching across merges of
// old e-nodes, change detection, match limit 0, operator-index bounds, multi-pattern truncation.
#include <doctest/doctest.h>

#include "egraph/machine.hpp"
#include "egraph/runner.hpp"
#include "tests/egraph/test_language.hpp"

using namespace mctsat::egraph;
using namespace eglang;

TEST_CASE("semi-naive matching finds a new match made of two old e-nodes joined by a merge") {
  EGraph<NoAnalysis> egraph;
  const Id c = add(egraph, "c");
  const Id fc = add(egraph, "(f c)");
  const Id gy = add(egraph, "(g y)");
  egraph.rebuild();
  const Program program = compile(pattern("(f (g ?0))"));
  CHECK(search(egraph, program, 1).size() == 0);  // no match before the merge
  egraph.set_epoch(1);
  egraph.merge(c, gy);  // c has a parent, (g y) none: c's class survives, nothing is repaired
  egraph.rebuild();
  CHECK(egraph.node_stamp(fc) == 0);
  CHECK(egraph.node_stamp(gy) == 1);              // (g y) joined c's class: restamped
  CHECK(search(egraph, program, 1).size() == 1);  // the match exists now ...
  const Matches m = search(egraph, program, 1, SIZE_MAX, /*skip_before=*/1);
  CHECK(m.size() == 1);  // ... and semi-naive matching keeps it
  CHECK(m.skipped == 0);
}

TEST_CASE("a semi-naive Runner run reaches what re-applying every match reaches") {
  RuleSet<NoAnalysis> rules;
  rules.add("fg", "(f (g ?0))", "(h ?0)")
      .add("k-a", "(k ?0 ?1)", "?0")
      .add("k-b", "(k ?0 ?1)", "?1");
  const std::string_view start = "(k c (g y))";
  EGraph<NoAnalysis> semi, full;
  add(semi, "(f c)");
  add(semi, start);
  add(full, "(f c)");
  add(full, start);
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>().run(semi, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kSaturated);
  Runner<NoAnalysis> runner;
  const std::vector<bool> all(3, true);
  for (std::size_t i = 0; i < 10 && runner.run_iteration(full, rules.span(), all, i).changed; ++i) {
  }
  CHECK(full.num_nodes() == 6);  // c y (f c) (g y) (k c c) (h y)
  CHECK(semi.num_nodes() == full.num_nodes());
  CHECK(lookup(semi, "(h y)").has_value());
}

TEST_CASE("an iteration whose adds and congruence kills cancel out still counts as a change") {
  EGraph<NoAnalysis> egraph;
  const Id a = add(egraph, "a");
  add(egraph, "b");
  egraph.merge(add(egraph, "(f a)"), add(egraph, "(f b)"));
  egraph.merge(add(egraph, "(g a)"), add(egraph, "(g b)"));
  egraph.merge(a, add(egraph, "(k b)"));
  add(egraph, "z");
  egraph.rebuild();
  CHECK(egraph.num_nodes() == 8);
  CHECK(egraph.num_classes() == 5);
  RuleSet<NoAnalysis> rules;
  rules.add("k", "(k ?0)", "?0").add("z", "z", "(p (q))").add("p", "(p ?0)", "(r ?0)");
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>().run(egraph, rules.span(), scheduler);
  // Iteration 0 merged {a, (k b)} with b (killing one f and one g e-node) and added (q) and (p
  // (q)): 8 e-nodes and 5 classes again, yet the iteration changed the e-graph ...
  CHECK(report.iterations[0].rules[0].apply.applied == 1);
  CHECK(report.iterations[0].rules[1].apply.applied == 1);
  CHECK(report.iterations[0].changed);
  CHECK(report.iterations.size() >= 2);
  // ... and rule p gets its turn.
  CHECK(lookup(egraph, "(r (q))").has_value());
}

TEST_CASE("a match limit of 0 returns no match") {
  EGraph<NoAnalysis> egraph;
  add(egraph, "(f a)");
  egraph.rebuild();
  CHECK(search(egraph, compile(pattern("(f ?0)")), 1, 0).size() == 0);
}

TEST_CASE("classes_with_op of an unknown operator is empty") {
  EGraph<NoAnalysis> egraph;
  add(egraph, "(f a)");
  egraph.rebuild();
  CHECK(egraph.classes_with_op(0xffffffffu).empty());
}

TEST_CASE("a multi-pattern search joins all matches before applying the limit") {
  EGraph<NoAnalysis> egraph;
  for (const char* t : {"(f a)", "(f b)", "(f c)", "(f d)", "(f e)", "(p e)"}) add(egraph, t);
  egraph.rebuild();
  const auto rule = rewrite<NoAnalysis>("fp", {"(f ?0)", "(p ?0)"}, {"(r ?0)", "(q ?0)"});
  CHECK(rule->search(egraph).size() == 1);  // (f e) with (p e)
  CHECK(rule->search(egraph, 3).size() == 1);

  // Under the BackoffScheduler (search limit = threshold + 1 = 3) the rule applies.
  RuleSet<NoAnalysis> rules;
  rules.add(rewrite<NoAnalysis>("fp", {"(f ?0)", "(p ?0)"}, {"(r ?0)", "(q ?0)"}));
  BackoffScheduler scheduler({2, 1});
  const RunReport report = Runner<NoAnalysis>().run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kSaturated);
  CHECK(lookup(egraph, "(r e)").has_value());
}
