// Tests of the Runner: every stop reason, per-iteration statistics (matches found, skipped and
// applied per rule; e-nodes and classes), run_iteration with a subset of rules, TENSAT's k_multi
// (multi-pattern rules only in the first iterations), the node budget during application, the
// after_iteration hook, and results that do not depend on the number of search threads.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "egraph/runner.hpp"
#include "tests/egraph/invariants.hpp"
#include "tests/egraph/test_language.hpp"

using namespace mctsat::egraph;
using namespace eglang;

namespace {

using Graph = EGraph<NoAnalysis>;
using Options = RunnerOptions<NoAnalysis>;

// A rule that never saturates: every iteration adds (h ...) one level deeper under g.
RuleSet<NoAnalysis> growing() {
  RuleSet<NoAnalysis> rules;
  rules.add("grow", "(g ?0)", "(g (h ?0))");
  return rules;
}

Options unlimited() {
  Options options;
  options.limits = {1'000'000'000, 1'000'000'000, 600.0};
  return options;
}

// (found, skipped, applied) of one rule in one iteration.
std::vector<std::size_t> counts(const RuleIterationStats& r) {
  return {r.found, r.skipped, r.apply.applied};
}

}  // namespace

TEST_CASE("stop_reason_name names every stop reason") {
  CHECK(stop_reason_name(StopReason::kSaturated) == "saturated");
  CHECK(stop_reason_name(StopReason::kIterationLimit) == "iteration limit");
  CHECK(stop_reason_name(StopReason::kNodeLimit) == "node limit");
  CHECK(stop_reason_name(StopReason::kTimeLimit) == "time limit");
  CHECK(stop_reason_name(StopReason::kMemoryLimit) == "memory limit");
  CHECK(stop_reason_name(StopReason::kOther) == "other");
}

TEST_CASE("a run saturates, with per-iteration statistics per rule") {
  Graph egraph;
  const Id root = add(egraph, "(f a)");
  RuleSet<NoAnalysis> rules;
  rules.add("f-g", "(f ?0)", "(g ?0)").add("g-h", "(g ?0)", "(h ?0)");
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>().run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kSaturated);
  CHECK(report.stop_detail == "");
  REQUIRE(report.iterations.size() == 3);
  const auto& it = report.iterations;
  // Iteration 0: f-g rewrites (f a); g-h searched before (g a) existed.
  CHECK(it[0].iteration == 0);
  CHECK(counts(it[0].rules[0]) == std::vector<std::size_t>{1, 0, 1});
  CHECK(counts(it[0].rules[1]) == std::vector<std::size_t>{0, 0, 0});
  CHECK(it[0].rules[0].searched);
  CHECK(it[0].rules[0].apply.matches == 1);
  CHECK(it[0].nodes == 3);
  CHECK(it[0].classes == 2);
  CHECK(it[0].changed);
  // Iteration 1: (f a) is old and skipped; g-h rewrites (g a).
  CHECK(counts(it[1].rules[0]) == std::vector<std::size_t>{0, 1, 0});
  CHECK(counts(it[1].rules[1]) == std::vector<std::size_t>{1, 0, 1});
  CHECK(it[1].nodes == 4);
  CHECK(it[1].classes == 2);
  CHECK(it[1].changed);
  // Iteration 2: nothing new.
  CHECK(counts(it[2].rules[0]) == std::vector<std::size_t>{0, 1, 0});
  CHECK(counts(it[2].rules[1]) == std::vector<std::size_t>{0, 1, 0});
  CHECK(it[2].nodes == 4);
  CHECK(it[2].classes == 2);
  CHECK_FALSE(it[2].changed);
  CHECK(egraph.find(id_of(egraph, "(h a)")) == egraph.find(root));
  CHECK(report.seconds >= 0);
  CHECK(it[2].memory_bytes == egraph.memory_bytes());
  CHECK(invariant_violation(egraph) == "");
}

TEST_CASE("an iteration that only merges classes is a change") {
  Graph egraph;
  add(egraph, "(k a)");
  RuleSet<NoAnalysis> rules;
  rules.add("drop-k", "(k ?0)", "?0");
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>().run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kSaturated);
  REQUIRE(report.iterations.size() == 2);
  CHECK(report.iterations[0].rules[0].apply.applied == 1);
  CHECK(report.iterations[0].nodes == 2);    // no e-node added or removed...
  CHECK(report.iterations[0].classes == 1);  // ...but two classes became one
  CHECK(report.iterations[0].changed);
  CHECK_FALSE(report.iterations[1].changed);
}

TEST_CASE("the iteration limit") {
  Graph egraph;
  add(egraph, "(g a)");
  const auto rules = growing();
  Options options = unlimited();
  options.limits.iterations = 3;
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kIterationLimit);
  CHECK(report.stop_detail == "iteration limit");
  REQUIRE(report.iterations.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(counts(report.iterations[i].rules[0]) == std::vector<std::size_t>{1, i, 1});
    CHECK(report.iterations[i].nodes == 4 + 2 * i);
    CHECK(report.iterations[i].classes == 3 + i);
  }
  CHECK(lookup(egraph, "(g (h (h (h a))))").has_value());
  CHECK_FALSE(lookup(egraph, "(h (h (h (h a))))").has_value());
}

TEST_CASE("the node limit: checked before each iteration, and a budget while applying") {
  SUBCASE("one match per iteration") {
    Graph egraph;
    add(egraph, "(g a)");
    const auto rules = growing();
    Options options = unlimited();
    options.limits.nodes = 7;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kNodeLimit);
    CHECK(report.stop_detail == "node limit");
    CHECK(report.iterations.size() == 3);  // 2 -> 4 -> 6 -> 8 e-nodes
    CHECK(egraph.num_nodes() == 8);
  }
  SUBCASE("the budget leaves matches unapplied") {
    Graph egraph;
    for (const char* leaf : {"a", "b", "c", "d", "e"}) add(egraph, "(f " + std::string(leaf) + ")");
    RuleSet<NoAnalysis> rules;
    rules.add("f-k", "(f ?0)", "(k ?0)");
    Options options = unlimited();
    options.limits.nodes = 12;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kNodeLimit);
    REQUIRE(report.iterations.size() == 1);
    const ApplyStats& apply = report.iterations[0].rules[0].apply;
    CHECK(apply.matches == 5);
    CHECK(apply.applied == 2);  // 10 -> 11 -> 12 e-nodes, then the budget is spent
    CHECK(apply.unapplied == 3);
    CHECK(egraph.num_nodes() == 12);
    CHECK(lookup(egraph, "(k b)").has_value());
    CHECK_FALSE(lookup(egraph, "(k c)").has_value());
  }
}

TEST_CASE("the time limit") {
  const auto rules = growing();
  SUBCASE("zero seconds: no iteration at all") {
    Graph egraph;
    add(egraph, "(g a)");
    Options options = unlimited();
    options.limits.seconds = 0;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kTimeLimit);
    CHECK(report.stop_detail == "time limit");
    CHECK(report.iterations.empty());
    CHECK(egraph.num_nodes() == 2);
  }
  SUBCASE("a few milliseconds of a rule that never saturates") {
    Graph egraph;
    add(egraph, "(g a)");
    Options options = unlimited();
    options.limits.seconds = 0.02;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kTimeLimit);
    CHECK(report.seconds >= 0.02);
    CHECK(egraph.num_nodes() == 2 + 2 * report.iterations.size());
  }
}

TEST_CASE("the memory limit") {
  const auto rules = growing();
  SUBCASE("below the initial e-graph") {
    Graph egraph;
    add(egraph, "(g a)");
    Options options = unlimited();
    options.limits.memory_bytes = 1;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kMemoryLimit);
    CHECK(report.stop_detail == "memory limit");
    CHECK(report.iterations.empty());
  }
  SUBCASE("reached while growing") {
    Graph egraph;
    add(egraph, "(g a)");
    egraph.rebuild();
    Options options = unlimited();
    options.limits.memory_bytes = 8 * egraph.memory_bytes();
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    CHECK(report.stop == StopReason::kMemoryLimit);
    REQUIRE(report.iterations.size() >= 2);
    CHECK(report.iterations.back().memory_bytes >= options.limits.memory_bytes);
    CHECK(report.iterations[report.iterations.size() - 2].memory_bytes <
          options.limits.memory_bytes);
    CHECK(egraph.memory_bytes() >= options.limits.memory_bytes);
  }
}

TEST_CASE("under a memory limit a multi-pattern join holds only the matches the room allows") {
  // 40 (f i) and 40 (p j): the join of (f ?0), (p ?1) is their cross product, 1,600 matches.
  Graph egraph;
  for (int i = 0; i < 40; ++i) {
    add(egraph, "(f " + std::to_string(i) + ")");
    add(egraph, "(p " + std::to_string(100 + i) + ")");
  }
  egraph.rebuild();
  RuleSet<NoAnalysis> rules;
  rules.add(rewrite<NoAnalysis>("pair", {"(f ?0)", "(p ?1)"}, {"(r ?0 ?1)", "(r ?1 ?0)"}));
  const std::vector<bool> enabled{true};

  Options options = unlimited();
  // A join holds two stages at once (the matches so far and the next stage's): both count.
  const std::size_t match_bytes = 2 * (2 + rules.span()[0]->num_vars()) * sizeof(Id);
  Graph limited = egraph;
  options.limits.memory_bytes = limited.memory_bytes() + 100 * match_bytes;
  const IterationStats stats =
      Runner<NoAnalysis>(options).run_iteration(limited, rules.span(), enabled);
  CHECK(stats.rules[0].found == 100);
  CHECK(stats.rules[0].apply.applied + stats.rules[0].apply.unapplied == 100);
  // Application stops once the e-graph reaches the limit.
  CHECK(stats.rules[0].apply.unapplied > 0);

  Graph unbounded = egraph;
  const IterationStats all =
      Runner<NoAnalysis>(unlimited()).run_iteration(unbounded, rules.span(), enabled);
  CHECK(all.rules[0].found == 1600);
  CHECK(all.rules[0].apply.unapplied == 0);
}

TEST_CASE("an after_iteration hook returning false stops the run") {
  Graph egraph;
  add(egraph, "(g a)");
  const auto rules = growing();
  Options options = unlimited();
  std::vector<std::size_t> seen;
  options.after_iteration = [&](const Graph& g, const IterationStats& stats) {
    CHECK(g.clean());
    CHECK(g.num_nodes() == stats.nodes);
    seen.push_back(stats.iteration);
    return stats.iteration < 1;
  };
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kOther);
  CHECK(report.stop_detail == "stopped by a hook");
  CHECK(report.iterations.size() == 2);
  CHECK(seen == std::vector<std::size_t>{0, 1});
  CHECK(egraph.num_nodes() == 6);
}

TEST_CASE("run_iteration fires only the enabled rules") {
  Graph egraph;
  const Id root = add(egraph, "(f a)");
  RuleSet<NoAnalysis> rules;
  rules.add("f-g", "(f ?0)", "(g ?0)").add("f-h", "(f ?0)", "(h ?0)");
  Runner<NoAnalysis> runner;
  const IterationStats first = runner.run_iteration(egraph, rules.span(), {false, true}, 0);
  CHECK_FALSE(first.rules[0].searched);
  CHECK(counts(first.rules[0]) == std::vector<std::size_t>{0, 0, 0});
  CHECK(first.rules[1].searched);
  CHECK(counts(first.rules[1]) == std::vector<std::size_t>{1, 0, 1});
  CHECK(first.nodes == 3);
  CHECK(first.changed);
  CHECK(egraph.clean());
  CHECK(egraph.find(id_of(egraph, "(h a)")) == egraph.find(root));
  CHECK_FALSE(lookup(egraph, "(g a)").has_value());

  const IterationStats second = runner.run_iteration(egraph, rules.span(), {true, false}, 1);
  CHECK(counts(second.rules[0]) == std::vector<std::size_t>{1, 0, 1});
  CHECK_FALSE(second.rules[1].searched);
  CHECK(second.nodes == 4);
  CHECK(egraph.find(id_of(egraph, "(g a)")) == egraph.find(root));

  // run_iteration never skips: the old match is found again and changes nothing.
  const IterationStats third = runner.run_iteration(egraph, rules.span(), {true, true}, 2);
  CHECK(counts(third.rules[0]) == std::vector<std::size_t>{1, 0, 0});
  CHECK(counts(third.rules[1]) == std::vector<std::size_t>{1, 0, 0});
  CHECK_FALSE(third.changed);
}

TEST_CASE("multi_iterations keeps multi-pattern rules to the first k iterations") {
  for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
    CAPTURE(k);
    Graph egraph;
    add(egraph, "(g a)");
    add(egraph, "(f b)");
    add(egraph, "(p b)");
    RuleSet<NoAnalysis> rules;
    rules.add("grow", "(g ?0)", "(g (h ?0))")
        .add(rewrite<NoAnalysis>("fp", {"(f ?0)", "(p ?0)"}, {"(r ?0)", "(q ?0)"}));
    Options options = unlimited();
    options.limits.iterations = 4;
    options.multi_iterations = k;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    REQUIRE(report.iterations.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      CAPTURE(i);
      CHECK(report.iterations[i].rules[0].searched);
      CHECK(report.iterations[i].rules[1].searched == (i < k));
      // Multi-pattern rules are not semi-naive: the one match is found every time.
      CHECK(report.iterations[i].rules[1].found == (i < k ? 1u : 0u));
      CHECK(report.iterations[i].rules[1].apply.applied == (i == 0 && k > 0 ? 1u : 0u));
    }
    CHECK(lookup(egraph, "(r b)").has_value() == (k > 0));
  }
}

TEST_CASE("results do not depend on the number of search threads") {
  RuleSet<NoAnalysis> rules;
  rules.add("comm", "(g ?0 ?1)", "(g ?1 ?0)")
      .add("assoc", "(g ?0 (g ?1 ?2))", "(g (g ?0 ?1) ?2)")
      .add("involution", "(f (f ?0))", "?0")
      .add("distribute", "(f (g ?0 ?1))", "(g (f ?0) (f ?1))")
      .add("factor", "(g (f ?0) (f ?1))", "(f (g ?0 ?1))")
      .add(rewrite<NoAnalysis>("pair", {"(f ?0)", "(f ?1)"}, {"(k ?0 ?1)", "(k ?1 ?0)"}));
  struct Outcome {
    std::vector<std::vector<std::size_t>> per_iteration;
    std::size_t nodes = 0, classes = 0;
    StopReason stop = StopReason::kOther;
  };
  auto run = [&](std::size_t threads) {
    Graph egraph;
    add(egraph, "(f (g a (g (f b) (g c (g d (f e))))))");
    Options options;
    options.limits = {10, 5000, 600.0};
    options.threads = threads;
    options.multi_iterations = 2;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
    Outcome out;
    for (const IterationStats& it : report.iterations) {
      std::vector<std::size_t> row{it.nodes, it.classes};
      for (const RuleIterationStats& r : it.rules) {
        row.insert(row.end(), {r.found, r.skipped, r.apply.applied, r.apply.unapplied});
      }
      out.per_iteration.push_back(row);
    }
    out.nodes = egraph.num_nodes();
    out.classes = egraph.num_classes();
    out.stop = report.stop;
    return out;
  };
  const Outcome one = run(1), two = run(2);
  CHECK(one.per_iteration.size() >= 3);
  CHECK(one.nodes > 100);  // a non-trivial run
  CHECK(one.per_iteration == two.per_iteration);
  CHECK(one.nodes == two.nodes);
  CHECK(one.classes == two.classes);
  CHECK(one.stop == two.stop);
}
