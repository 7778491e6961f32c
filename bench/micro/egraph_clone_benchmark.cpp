// Micro-benchmark of e-graph snapshots (what MCTS does thousands of times): copying a clean e-graph
// of about 50k e-nodes. DESIGN requires a clone to be a flat copy of contiguous arrays; the
// counters report the bytes a clone holds (EGraph::memory_bytes() of the copy) and the copy rate.
// Two sources: a random DAG and the saturated AC e-graph of n = 10 (57,012 e-nodes). Two ways:
// copy construction (allocates; the copy is destroyed inside the timed loop) and copy assignment
// into an e-graph of the same size (reuses its buffers).
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "bench/workloads/ac_saturated.hpp"
#include "bench/workloads/random_graphs.hpp"
#include "egraph/egraph.hpp"

namespace {

using mctsat::egraph::EGraph;
using mctsat::egraph::Id;
using mctsat::egraph::NoAnalysis;

constexpr std::uint32_t kLeaves = 1'000;
constexpr std::uint64_t kSeed = 7;

std::unique_ptr<EGraph<NoAnalysis>> random_dag_graph(std::uint32_t size) {
  auto egraph = std::make_unique<EGraph<NoAnalysis>>();
  std::vector<Id> ids;
  workloads::add_terms(*egraph, workloads::random_dag(kLeaves, size, kSeed), ids);
  egraph->rebuild();
  return egraph;
}

void set_counters(benchmark::State& state, const EGraph<NoAnalysis>& source) {
  const EGraph<NoAnalysis> copy = source;
  const auto bytes = static_cast<double>(copy.memory_bytes());
  state.counters["bytes_per_clone"] = bytes;
  state.counters["source_bytes"] = static_cast<double>(source.memory_bytes());
  state.counters["nodes"] = static_cast<double>(source.num_nodes());
  state.counters["classes"] = static_cast<double>(source.num_classes());
  state.counters["ids"] = static_cast<double>(source.num_ids());  // incl. dead e-nodes, old classes
  state.SetBytesProcessed(
      static_cast<std::int64_t>(static_cast<double>(state.iterations()) * bytes));
}

void copy_construct(benchmark::State& state, const EGraph<NoAnalysis>& source) {
  for (auto _ : state) {
    EGraph<NoAnalysis> copy = source;
    benchmark::DoNotOptimize(copy);
    benchmark::ClobberMemory();
  }
  set_counters(state, source);
}

void copy_assign(benchmark::State& state, const EGraph<NoAnalysis>& source) {
  EGraph<NoAnalysis> copy = source;
  for (auto _ : state) {
    copy = source;
    benchmark::DoNotOptimize(copy);
    benchmark::ClobberMemory();
  }
  set_counters(state, source);
}

void BM_CloneRandomDag(benchmark::State& state) {
  copy_construct(state, *random_dag_graph(static_cast<std::uint32_t>(state.range(0))));
}
void BM_CloneAssignRandomDag(benchmark::State& state) {
  copy_assign(state, *random_dag_graph(static_cast<std::uint32_t>(state.range(0))));
}
void BM_CloneAcSaturated(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  copy_construct(state, *ac::saturated_sum(n, n));
}
void BM_CloneAssignAcSaturated(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  copy_assign(state, *ac::saturated_sum(n, n));
}

BENCHMARK(BM_CloneRandomDag)
    ->ArgName("nodes")
    ->Arg(5'000)
    ->Arg(50'000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CloneAssignRandomDag)->ArgName("nodes")->Arg(50'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CloneAcSaturated)->ArgName("n")->Arg(10)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CloneAssignAcSaturated)->ArgName("n")->Arg(10)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
