// The ILP extractor against brute-force enumeration on random tiny problems (fixed seed), and its
// fallback to the warm start with a lower bound; the heuristics never beat the optimum and dag
// never loses to greedy.
#include <cmath>

#include <doctest/doctest.h>

#include "extract/extractor.hpp"
#include "extract/frontier_search.hpp"
#include "problems.hpp"

using namespace mctsat::extract;
using namespace extract_test;

TEST_CASE("ilp proves the brute-force optimum on random tiny problems") {
  Random random(2024);
  std::size_t feasible = 0, cut = 0, dag_optimal = 0;
  const auto ilp = make_extractor("ilp"), dag = make_extractor("dag"),
             greedy = make_extractor("greedy"), paper = make_extractor("paper");
  for (int round = 0; round < 150; ++round) {
    const Problem problem = random_problem(random, 3 + random.below(5), round % 3 == 0);
    const double optimum = brute_force_optimum(problem);
    INFO("round " << round);
    const Result exact = ilp->extract(problem);
    if (std::isinf(optimum)) {
      CHECK(exact.status == Status::kInfeasible);
      continue;
    }
    ++feasible;
    cut += exact.cuts > 0 ? 1 : 0;
    CHECK(exact.status == Status::kOptimal);
    CHECK(exact.dag_cost == optimum);
    CHECK(exact.gap == doctest::Approx(0));
    const Result d = dag->extract(problem), g = greedy->extract(problem),
                 p = paper->extract(problem);
    CHECK(d.dag_cost >= optimum);
    CHECK(g.dag_cost >= optimum);
    CHECK(p.dag_cost >= optimum);
    CHECK(d.dag_cost <= g.dag_cost);
    dag_optimal += d.dag_cost == optimum ? 1 : 0;
  }
  // The sample exercises what it should: mostly feasible problems, some needing cycle cuts.
  CHECK(feasible > 80);
  CHECK(cut > 3);
  MESSAGE("dag optimal on " << dag_optimal << " of " << feasible << " problems");
}

TEST_CASE("a time limit too short to solve returns the warm start with a gap") {
  const SharedSubgraph p = shared_subgraph();
  ExtractorOptions options;
  options.time_limit_seconds = 0;
  const Result result = make_extractor("ilp", options)->extract(p.problem);
  CHECK(result.status == Status::kTimeLimit);
  CHECK(result.warm_start_kept);
  CHECK(result.dag_cost == make_extractor("dag")->extract(p.problem).dag_cost);
  CHECK(result.lower_bound <= result.dag_cost);
  CHECK(result.gap >= 0);
}

TEST_CASE("stopped by its time limit, the ILP reports the frontier search's path bound if higher") {
  // On random200, CBC's LP bound is about a third of the optimum (1255); with no time at all it
  // has none, and the path bound is what remains.
  const Problem problem = window_problem(200, 1);
  ExtractorOptions options;
  options.time_limit_seconds = 0;
  const Result result = make_extractor("ilp", options)->extract(problem);
  CHECK(result.status == Status::kTimeLimit);
  const double path = FrontierSearch(problem).root_bound();
  CHECK(path > 400);
  CHECK(path < 1255);
  CHECK(result.lower_bound == path);
  CHECK(result.gap == doctest::Approx((result.dag_cost - path) / result.dag_cost));
}
