// Micro-benchmark of EGraph::rebuild: its time after k random merges on a clean e-graph of about
// 50k e-nodes. Only rebuild() is timed; each iteration starts from a fresh copy of the same clean
// e-graph and applies the same seeded merges (pairs of ids drawn uniformly). Two sources:
// - a random DAG (1,000 leaves, binary operators over uniformly drawn earlier terms): merges
//   there rarely make e-nodes congruent, so this measures repairing parents and the fixed cost
//   of a rebuild (k = 0: the indexes are rebuilt every time);
// - the saturated AC e-graph of n = 10 (57,012 e-nodes): one merge of two sums cascades through
//   congruence closure, so this measures congruence closure (see `nodes_removed`).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "bench/workloads/ac_saturated.hpp"
#include "bench/workloads/random_graphs.hpp"
#include "egraph/egraph.hpp"

namespace {

using mctsat::egraph::EGraph;
using mctsat::egraph::Id;
using mctsat::egraph::NoAnalysis;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kLeaves = 1'000;
constexpr std::uint64_t kGraphSeed = 7, kMergeSeed = 8;

void run_rebuild(benchmark::State& state, const EGraph<NoAnalysis>& pristine, std::size_t merges) {
  std::vector<std::pair<Id, Id>> pairs;
  workloads::Random random(kMergeSeed);
  const auto num_ids = static_cast<std::uint32_t>(pristine.num_ids());
  for (std::size_t i = 0; i < merges; ++i)
    pairs.emplace_back(random.below(num_ids), random.below(num_ids));

  double merge_seconds = 0;
  std::size_t unions = 0, nodes_after = 0, classes_after = 0;
  for (auto _ : state) {
    EGraph<NoAnalysis> egraph = pristine;
    const auto merge_start = Clock::now();
    unions = 0;
    for (const auto& [a, b] : pairs) unions += egraph.merge(a, b);
    const auto start = Clock::now();
    egraph.rebuild();
    const auto end = Clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    merge_seconds += std::chrono::duration<double>(start - merge_start).count();
    nodes_after = egraph.num_nodes();
    classes_after = egraph.num_classes();
  }
  const auto classes_before = static_cast<double>(pristine.num_classes());
  state.counters["nodes"] = static_cast<double>(pristine.num_nodes());
  state.counters["classes"] = classes_before;
  state.counters["ids"] = static_cast<double>(pristine.num_ids());
  state.counters["unions"] = static_cast<double>(unions);  // merges that united two classes
  // Classes united by congruence closure on top of the explicit merges.
  state.counters["congruent_unions"] =
      classes_before - static_cast<double>(classes_after) - static_cast<double>(unions);
  state.counters["nodes_removed"] =
      static_cast<double>(pristine.num_nodes()) - static_cast<double>(nodes_after);
  state.counters["merge_us"] =
      merge_seconds * 1e6 / static_cast<double>(std::max<std::int64_t>(state.iterations(), 1));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * pristine.num_nodes()));
}

void BM_Rebuild(benchmark::State& state) {
  EGraph<NoAnalysis> pristine;
  std::vector<Id> ids;
  workloads::add_terms(
      pristine,
      workloads::random_dag(kLeaves, static_cast<std::uint32_t>(state.range(0)), kGraphSeed), ids);
  pristine.rebuild();
  run_rebuild(state, pristine, static_cast<std::size_t>(state.range(1)));
}
BENCHMARK(BM_Rebuild)
    ->ArgNames({"nodes", "merges"})
    ->Args({5'000, 100})
    ->ArgsProduct({{50'000}, {0, 10, 100, 1'000, 10'000}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_RebuildAcSaturated(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  static const std::unique_ptr<EGraph<NoAnalysis>> pristine = ac::saturated_sum(10, 10);
  if (n != 10) state.SkipWithError("only n = 10 is prepared");
  run_rebuild(state, *pristine, static_cast<std::size_t>(state.range(1)));
}
BENCHMARK(BM_RebuildAcSaturated)
    ->ArgNames({"n", "merges"})
    ->ArgsProduct({{10}, {0, 1, 10, 100}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
