// The `dag` extractor's restarts (ExtractorOptions::dag_restarts): on random e-graphs where its
// local optimum (without chain moves) misses the ILP optimum, the restarts reach it; they never
// make `dag` worse, stop early on a single basin, and stay deterministic for a seed. Also the
// restarts' fixpoint order (ordered_fixpoint).
#include <chrono>
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "extract/extractor.hpp"
#include "extract/fixpoint.hpp"
#include "problems.hpp"
#include "support/error.hpp"

using namespace mctsat::extract;
using namespace extract_test;

namespace {

Result dag(const Problem& problem, std::size_t restarts, std::uint64_t seed = 1,
           std::size_t converged = ExtractorOptions{}.dag_converged) {
  ExtractorOptions options;
  options.dag_chains = false;  // without restarts: the local optimum (restarts run them anyway)
  options.dag_restarts = restarts;
  options.dag_seed = seed;
  options.dag_converged = converged;
  return make_extractor("dag", options)->extract(problem);
}

}  // namespace

TEST_CASE("restarts reach the ILP optimum where dag's local optimum misses it") {
  // Small random e-graphs (40 classes, 8 leaves, children among the 8 classes before) on which
  // the default `dag` (no restarts) stops 1-14% above the optimum, and CBC proves the optimum in
  // well under a second. (Of seeds 1..40, the default misses the optimum on 13; all restarts
  // reach it on all 13, and with the early stop on 10. These are the ones CBC solves fastest.)
  const auto ilp = make_extractor("ilp");
  std::size_t early_optimal = 0;
  for (const std::uint64_t seed : {10, 16, 23, 33, 40}) {
    INFO("seed " << seed);
    const Problem problem = window_problem(40, seed, 8, 8);
    const Result exact = ilp->extract(problem);
    REQUIRE(exact.status == Status::kOptimal);
    const Result local = dag(problem, 0);
    CHECK(local.dag_cost > exact.dag_cost);
    const Result restarted = dag(problem, kStudyDagRestarts, 1, /*converged=*/0);
    CHECK(restarted.dag_cost == exact.dag_cost);
    CHECK(check_choice(problem, restarted.choice).valid);
    // With the early stop (the default): never worse than without restarts, never below the
    // optimum. On seed 16 the restarts stop early, at the local optimum; the chain moves that
    // follow them reach the optimum there too.
    const Result early = dag(problem, kStudyDagRestarts);
    CHECK(early.dag_cost <= local.dag_cost);
    CHECK(early.dag_cost >= exact.dag_cost);
    early_optimal += early.dag_cost == exact.dag_cost ? 1 : 0;
  }
  CHECK(early_optimal == 5);
}

TEST_CASE("restarts stop early when the first ones all end at the first extraction") {
  // The shared-subgraph problem has one local optimum (11, the optimum): every restart ends there.
  const SharedSubgraph p = shared_subgraph();
  const Result result = dag(p.problem, kStudyDagRestarts);
  CHECK(result.dag_cost == 11);
  CHECK(result.detail == "2 restarts (converged), 0 improved (from 11 to 11)");
  CHECK(dag(p.problem, kStudyDagRestarts, 1, /*converged=*/0).detail ==
        "64 restarts, 0 improved (from 11 to 11)");
  // random200: the restarts end at many local optima, so all of them run.
  const Result random200 = dag(window_problem(200, 1), kStudyDagRestarts);
  CHECK(random200.detail.rfind("64 restarts, ", 0) == 0);
}

TEST_CASE("restarts find random200's proven optimum, 27% below dag's local optimum") {
  // The extraction study's random200 (bench/results/extraction.md). CBC proves its optimum, 1255,
  // in about a minute (too slow for a unit test: the value is recorded here); `dag` without
  // restarts stops at 1598 (with or without its chain moves), a local optimum of 39 classes where
  // the optimum shares one subgraph among 29.
  const Problem problem = window_problem(200, 1);
  CHECK(problem.num_classes() == 200);
  CHECK(problem.num_nodes() == 452);
  CHECK(dag(problem, 0).dag_cost == 1598);
  CHECK(make_extractor("dag")->extract(problem).dag_cost == 1598);
  const Result restarted = dag(problem, kStudyDagRestarts);
  CHECK(restarted.dag_cost == 1255);
  CHECK(restarted.status == Status::kHeuristic);
  // The ILP warm-started from it keeps it (a short limit proves nothing, but starts there).
  ExtractorOptions options;
  options.dag_restarts = kStudyDagRestarts;
  options.time_limit_seconds = 0;
  CHECK(make_extractor("ilp", options)->extract(problem).dag_cost == 1255);
}

TEST_CASE("restarts never make dag worse and never beat the brute-force optimum") {
  Random random(2024);
  std::size_t feasible = 0, optimal_before = 0, optimal_after = 0;
  for (int round = 0; round < 150; ++round) {
    const Problem problem = random_problem(random, 3 + random.below(5), round % 3 == 0);
    const double optimum = brute_force_optimum(problem);
    if (std::isinf(optimum)) continue;
    ++feasible;
    INFO("round " << round);
    const Result before = dag(problem, 0), after = dag(problem, 16);
    CHECK(after.dag_cost <= before.dag_cost);
    CHECK(after.dag_cost >= optimum);
    for (Index node : after.choice)
      if (node != kNone) CHECK_FALSE(problem.forbidden(node));
    optimal_before += before.dag_cost == optimum ? 1 : 0;
    optimal_after += after.dag_cost == optimum ? 1 : 0;
  }
  MESSAGE("dag optimal on " << optimal_before << " (no restarts) and " << optimal_after
                            << " (16 restarts) of " << feasible << " problems");
  CHECK(optimal_after >= optimal_before);
  CHECK(optimal_after == feasible);
}

TEST_CASE("restarts are deterministic for a seed") {
  const Problem problem = window_problem(120, 3);
  const Result first = dag(problem, 8, 7), second = dag(problem, 8, 7);
  CHECK(first.choice == second.choice);
  CHECK(first.dag_cost == second.dag_cost);
  CHECK(first.detail == second.detail);
  // Without restarts the seed plays no part.
  CHECK(dag(problem, 0, 1).choice == dag(problem, 0, 2).choice);
}

TEST_CASE("Knuth's order gives the tree costs of the FIFO fixpoint, each node evaluated once") {
  Random random(99);
  for (int round = 0; round < 60; ++round) {
    const Problem problem = random_problem(random, 4 + random.below(8), round % 2 == 0);
    INFO("round " << round);
    std::vector<double> fifo, ordered;
    Choice fifo_choice, ordered_choice;
    fresh_fixpoint_state(problem, fifo, fifo_choice);
    fresh_fixpoint_state(problem, ordered, ordered_choice);
    auto tree = [&problem](const std::vector<double>& value) {
      return [&problem, &value](Index node) {
        double sum = problem.node_cost(node);
        for (Index child : problem.children(node)) sum += value[child];
        return sum;
      };
    };
    bottom_up_fixpoint(problem, fifo, fifo_choice, tree(fifo), [](Index, double) {});
    const FixpointStats stats =
        ordered_fixpoint(problem, ordered, ordered_choice, tree(ordered), [](Index, double) {});
    CHECK(ordered == fifo);
    CHECK(stats.evaluations <= problem.num_nodes());
    // Its choice is acyclic wherever it chose: every chosen class is a valid extraction root.
    for (Index eclass = 0; eclass < problem.num_classes(); ++eclass) {
      if (ordered_choice[eclass] == kNone) continue;
      const std::vector<Index> root{eclass};
      CHECK(check_choice(problem, ordered_choice, root).valid);
    }
  }
}

TEST_CASE("restarts stop at the deadline, whatever their number") {
  // A search's reward counts them against its time budget: 100,000 restarts under `--seconds 5`
  // ran for 12.5 s. Past the deadline none starts; the first extraction still stands.
  const Problem problem = window_problem(40, 10, 8, 8);
  ExtractorOptions options;
  options.dag_restarts = 100000;
  options.dag_converged = 0;
  options.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const Result late = make_extractor("dag", options)->extract(problem);
  CHECK(late.detail.find("0 restarts (time limit)") == 0);
  CHECK(check_choice(problem, late.choice).valid);
  CHECK(late.dag_cost <= dag(problem, 0).dag_cost);
}

TEST_CASE("costs outside the accepted range are refused when the problem is built") {
  // A denormal cost made the ILP's scale infinite (CBC aborted); 1e308 made sums infinite.
  for (const double cost : {5e-324, 1e-11, 1e308, -1.0}) {
    CAPTURE(cost);
    ProblemBuilder builder;
    const Index c = builder.add_class();
    CHECK_THROWS_AS(builder.add_node(c, cost), mctsat::Error);
  }
  ProblemBuilder builder;
  const Index c = builder.add_class();
  builder.add_node(c, 0.0);
  builder.add_node(c, 1e9);
  builder.add_node(c, std::numeric_limits<double>::infinity());  // forbidden
  builder.add_root(c);
  const Problem problem = std::move(builder).finish();
  CHECK(make_extractor("ilp")->extract(problem).dag_cost == 0.0);
}
