// Anchor E1 as a correctness test: saturating a right-nested sum of n leaves under commutativity
// and associativity must reach exactly 2^n - 1 classes and 3^n - 2^(n+1) + 1 + n e-nodes.
#include <doctest/doctest.h>

#include "bench/workloads/ac_language.hpp"
#include "egraph/runner.hpp"

using namespace mctsat::egraph;

namespace {
std::size_t pow_int(std::size_t base, int exp) {
  std::size_t r = 1;
  while (exp-- > 0) r *= base;
  return r;
}
}  // namespace

TEST_CASE("AC saturation reaches the known e-graph sizes") {
  const auto owned = ac::rules();
  std::vector<const Rewrite<NoAnalysis>*> rules;
  for (const auto& r : owned) rules.push_back(r.get());
  for (int n : {2, 3, 4, 5, 6, 7, 8}) {
    CAPTURE(n);
    EGraph<NoAnalysis> egraph;
    ac::right_nested_sum(egraph, n);
    RunnerOptions<NoAnalysis> options;
    options.limits = {100, 10'000'000, 60.0};
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules, scheduler);
    CHECK(report.stop == StopReason::kSaturated);
    CHECK(egraph.num_classes() == pow_int(2, n) - 1);
    CHECK(egraph.num_nodes() == pow_int(3, n) - pow_int(2, n + 1) + 1 + n);
    CHECK(egraph.classes().size() == egraph.num_classes());
  }
}

TEST_CASE("the thread count does not change the result") {
  const auto owned = ac::rules();
  std::vector<const Rewrite<NoAnalysis>*> rules;
  for (const auto& r : owned) rules.push_back(r.get());
  std::vector<std::size_t> sizes;
  for (std::size_t threads : {1, 2, 4}) {
    EGraph<NoAnalysis> egraph;
    ac::right_nested_sum(egraph, 7);
    RunnerOptions<NoAnalysis> options;
    options.threads = threads;
    options.limits.iterations = 3;
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, rules, scheduler);
    CHECK(report.stop == StopReason::kIterationLimit);
    sizes.push_back(egraph.num_nodes() * 100000 + egraph.num_classes());
    std::vector<std::size_t> per_rule;
    for (const auto& it : report.iterations)
      for (const auto& r : it.rules) per_rule.push_back(r.found * 1000 + r.apply.applied);
    if (threads == 1) {
      CHECK(per_rule.size() == 6);
    }
  }
  CHECK(sizes[0] == sizes[1]);
  CHECK(sizes[0] == sizes[2]);
}
