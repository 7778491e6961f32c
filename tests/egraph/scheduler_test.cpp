// Tests of the rule schedulers: the SimpleScheduler lets everything through; the BackoffScheduler
// bans a rule whose matches exceed its threshold for a number of iterations, doubling threshold and
// ban length with each ban, honours per-rule overrides, lifts its bans when the run would
// otherwise stop, and inside a Runner drops a banned rule's matches.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "egraph/runner.hpp"
#include "egraph/scheduler.hpp"
#include "tests/egraph/test_language.hpp"

using namespace mctsat::egraph;
using namespace eglang;

namespace {

using Graph = EGraph<NoAnalysis>;

// (f a) ... (f e): five matches for a rule on (f ?0).
void five_fs(Graph& egraph) {
  for (const char* leaf : {"a", "b", "c", "d", "e"}) add(egraph, "(f " + std::string(leaf) + ")");
}

}  // namespace

TEST_CASE("SimpleScheduler runs every rule with every match") {
  SimpleScheduler scheduler;
  scheduler.start({"r"});
  CHECK(scheduler.can_search(0, 0));
  CHECK(scheduler.search_limit(0, 0) == std::numeric_limits<std::size_t>::max());
  CHECK(scheduler.keep_matches(0, 0, 1'000'000));
  CHECK_FALSE(scheduler.lift_bans(0));
}

TEST_CASE("BackoffScheduler bans a rule over its threshold, doubling threshold and ban length") {
  BackoffScheduler scheduler({2, 3});  // match limit 2, ban length 3
  scheduler.start({"r0", "r1"});
  CHECK(scheduler.can_search(0, 0));
  CHECK(scheduler.search_limit(0, 0) == 3);  // one more than the threshold, to see an overflow
  CHECK(scheduler.keep_matches(0, 0, 2));
  CHECK(scheduler.times_banned(0) == 0);

  // First ban: 3 > 2 matches at iteration 0, banned for 3 iterations.
  CHECK_FALSE(scheduler.keep_matches(0, 0, 3));
  CHECK(scheduler.times_banned(0) == 1);
  CHECK(scheduler.banned_until(0) == 3);
  CHECK_FALSE(scheduler.can_search(1, 0));
  CHECK_FALSE(scheduler.can_search(2, 0));
  CHECK(scheduler.can_search(3, 0));
  CHECK(scheduler.can_search(1, 1));  // the other rule is not affected

  // Second: the threshold is 4 now, the ban 6 iterations long.
  CHECK(scheduler.search_limit(3, 0) == 5);
  CHECK(scheduler.keep_matches(3, 0, 4));
  CHECK_FALSE(scheduler.keep_matches(3, 0, 5));
  CHECK(scheduler.times_banned(0) == 2);
  CHECK(scheduler.banned_until(0) == 9);
  CHECK_FALSE(scheduler.can_search(8, 0));
  CHECK(scheduler.can_search(9, 0));

  // Third: threshold 8, ban 12.
  CHECK(scheduler.search_limit(9, 0) == 9);
  CHECK_FALSE(scheduler.keep_matches(9, 0, 9));
  CHECK(scheduler.banned_until(0) == 21);
  CHECK(scheduler.times_banned(0) == 3);
  CHECK(scheduler.search_limit(21, 0) == 17);

  // start() resets the bookkeeping.
  scheduler.start({"r0", "r1"});
  CHECK(scheduler.times_banned(0) == 0);
  CHECK(scheduler.can_search(1, 0));
  CHECK(scheduler.search_limit(1, 0) == 3);
}

TEST_CASE("BackoffScheduler defaults are egg's: match limit 1000, ban length 5") {
  BackoffScheduler scheduler;
  scheduler.start({"r"});
  CHECK(scheduler.search_limit(0, 0) == 1001);
  CHECK(scheduler.keep_matches(0, 0, 1000));
  CHECK_FALSE(scheduler.keep_matches(0, 0, 1001));
  CHECK(scheduler.banned_until(0) == 5);
  CHECK(scheduler.search_limit(5, 0) == 2001);

  // An unlimited match limit is not overflowed by the "+ 1".
  BackoffScheduler unlimited({std::numeric_limits<std::size_t>::max(), 5});
  unlimited.start({"r"});
  CHECK(unlimited.search_limit(0, 0) == std::numeric_limits<std::size_t>::max());
}

TEST_CASE("BackoffScheduler per-rule overrides by name") {
  BackoffScheduler scheduler({10, 2});
  scheduler.set_rule("strict", {1, 7});
  scheduler.start({"loose", "strict", "other"});
  CHECK(scheduler.search_limit(0, 0) == 11);
  CHECK(scheduler.search_limit(0, 1) == 2);
  CHECK(scheduler.search_limit(0, 2) == 11);
  CHECK(scheduler.keep_matches(0, 0, 2));
  CHECK_FALSE(scheduler.keep_matches(0, 1, 2));
  CHECK(scheduler.banned_until(1) == 7);
  CHECK_FALSE(scheduler.keep_matches(0, 2, 11));
  CHECK(scheduler.banned_until(2) == 2);
}

TEST_CASE("BackoffScheduler lifts its bans only when some rule is banned") {
  BackoffScheduler scheduler({1, 4});
  scheduler.start({"r0", "r1"});
  CHECK_FALSE(scheduler.lift_bans(0));  // nothing banned: the run may stop
  CHECK_FALSE(scheduler.keep_matches(0, 0, 2));
  CHECK_FALSE(scheduler.can_search(1, 0));
  CHECK(scheduler.lift_bans(1));
  CHECK(scheduler.can_search(1, 0));
  CHECK(scheduler.times_banned(0) == 1);  // the threshold stays doubled
  CHECK(scheduler.search_limit(1, 0) == 3);
  CHECK_FALSE(scheduler.lift_bans(1));
  // A ban that has expired by that iteration does not count.
  CHECK_FALSE(scheduler.keep_matches(2, 1, 2));
  CHECK(scheduler.banned_until(1) == 6);
  CHECK_FALSE(scheduler.lift_bans(6));
}

TEST_CASE("inside a run, a banned rule's matches are dropped and it sits out its ban") {
  Graph egraph;
  add(egraph, "(g a)");
  five_fs(egraph);
  CHECK(egraph.num_nodes() == 11);
  RuleSet<NoAnalysis> rules;
  rules.add("grow", "(g ?0)", "(g (h ?0))").add("f-k", "(f ?0)", "(k ?0)");
  BackoffScheduler scheduler({3, 2});
  scheduler.set_rule("grow", {1000, 5});
  RunnerOptions<NoAnalysis> options;
  options.limits.iterations = 4;
  const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kIterationLimit);
  REQUIRE(report.iterations.size() == 4);
  const auto& it = report.iterations;
  // Iteration 0: the search stops at 4 > 3 matches; the rule is banned until iteration 2.
  CHECK(it[0].rules[1].searched);
  CHECK(it[0].rules[1].found == 4);
  CHECK(it[0].rules[1].dropped);
  CHECK(it[0].rules[1].apply.matches == 0);
  CHECK(it[0].rules[1].apply.applied == 0);
  CHECK_FALSE(it[0].rules[0].dropped);
  CHECK(it[0].rules[0].apply.applied == 1);
  // Iteration 1: banned.
  CHECK_FALSE(it[1].rules[1].searched);
  CHECK(it[1].rules[1].found == 0);
  // Iteration 2: threshold 6 >= 5 matches: all applied (the drop also reset semi-naive skipping).
  CHECK(it[2].rules[1].searched);
  CHECK(it[2].rules[1].found == 5);
  CHECK_FALSE(it[2].rules[1].dropped);
  CHECK(it[2].rules[1].apply.applied == 5);
  // Iteration 3: all five are old now.
  CHECK(it[3].rules[1].found == 0);
  CHECK(it[3].rules[1].skipped == 5);
  CHECK_FALSE(it[3].rules[1].dropped);

  CHECK(scheduler.times_banned(0) == 0);
  CHECK(scheduler.times_banned(1) == 1);
  CHECK(it[0].nodes == 13);
  CHECK(it[1].nodes == 15);
  CHECK(it[2].nodes == 22);
  CHECK(it[3].nodes == 24);
  CHECK(it[3].classes == 15);
  CHECK(egraph.find(id_of(egraph, "(k e)")) == egraph.find(id_of(egraph, "(f e)")));
}

TEST_CASE("a run that would saturate with a rule banned lifts the ban and goes on") {
  Graph egraph;
  five_fs(egraph);
  RuleSet<NoAnalysis> rules;
  rules.add("f-k", "(f ?0)", "(k ?0)");
  BackoffScheduler scheduler({3, 2});
  const RunReport report = Runner<NoAnalysis>().run(egraph, rules.span(), scheduler);
  CHECK(report.stop == StopReason::kSaturated);
  REQUIRE(report.iterations.size() == 3);
  CHECK(report.iterations[0].rules[0].dropped);
  CHECK_FALSE(report.iterations[0].changed);  // nothing applied, but the ban is lifted
  CHECK(report.iterations[1].rules[0].searched);
  CHECK(report.iterations[1].rules[0].apply.applied == 5);
  CHECK_FALSE(report.iterations[2].changed);
  CHECK(egraph.num_nodes() == 15);
  CHECK(egraph.num_classes() == 10);

  // With the SimpleScheduler the same run applies everything at once.
  Graph simple;
  five_fs(simple);
  SimpleScheduler all;
  const RunReport direct = Runner<NoAnalysis>().run(simple, rules.span(), all);
  CHECK(direct.iterations.size() == 2);
  CHECK(simple.num_nodes() == 15);
}
