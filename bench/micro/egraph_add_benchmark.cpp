// Micro-benchmark of EGraph::add: throughput for fresh e-nodes (into an empty e-graph) and for
// duplicates (every add a hashcons hit), on random binary trees over 1,000 shared leaves.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench/workloads/random_graphs.hpp"
#include "egraph/egraph.hpp"

namespace {

using mctsat::egraph::EGraph;
using mctsat::egraph::Id;
using mctsat::egraph::NoAnalysis;

constexpr std::uint32_t kLeaves = 1'000;
constexpr std::uint64_t kSeed = 42;

void set_graph_counters(benchmark::State& state, const EGraph<NoAnalysis>& egraph,
                        std::size_t adds) {
  state.counters["adds"] = static_cast<double>(adds);
  state.counters["nodes"] = static_cast<double>(egraph.num_nodes());
  state.counters["classes"] = static_cast<double>(egraph.num_classes());
  state.counters["bytes"] = static_cast<double>(egraph.memory_bytes());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * adds));
}

// Every iteration builds the e-graph of `trees` random trees from scratch (including the empty
// e-graph's construction and the full one's destruction). All adds but the repeated leaves of the
// second and later trees and a few coinciding subterms create e-nodes.
void BM_AddFresh(benchmark::State& state) {
  const auto terms =
      workloads::random_trees(kLeaves, static_cast<std::uint32_t>(state.range(0)), kSeed);
  std::vector<Id> ids;
  std::size_t nodes = 0;
  for (auto _ : state) {
    EGraph<NoAnalysis> egraph;
    workloads::add_terms(egraph, terms, ids);
    benchmark::DoNotOptimize(ids.data());
    nodes = egraph.num_nodes();
  }
  EGraph<NoAnalysis> egraph;
  workloads::add_terms(egraph, terms, ids);
  if (egraph.num_nodes() != nodes) state.SkipWithError("non-deterministic e-graph size");
  set_graph_counters(state, egraph, terms.size());
  state.counters["fresh"] = static_cast<double>(egraph.num_nodes());
}
BENCHMARK(BM_AddFresh)->ArgName("trees")->Arg(1)->Arg(25);

// The same terms added again to the built e-graph: every add is a hashcons hit.
void BM_AddDuplicate(benchmark::State& state) {
  const auto terms =
      workloads::random_trees(kLeaves, static_cast<std::uint32_t>(state.range(0)), kSeed);
  EGraph<NoAnalysis> egraph;
  std::vector<Id> ids, again;
  workloads::add_terms(egraph, terms, ids);
  const std::size_t nodes = egraph.num_nodes();
  for (auto _ : state) {
    workloads::add_terms(egraph, terms, again);
    benchmark::DoNotOptimize(again.data());
  }
  if (egraph.num_nodes() != nodes || again != ids)
    state.SkipWithError("a duplicate add changed the e-graph");
  set_graph_counters(state, egraph, terms.size());
}
BENCHMARK(BM_AddDuplicate)->ArgName("trees")->Arg(1)->Arg(25);

}  // namespace

BENCHMARK_MAIN();
