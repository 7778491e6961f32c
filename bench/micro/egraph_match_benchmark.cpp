// Micro-benchmark of e-matching: matches per second of compiled patterns on saturated AC e-graphs
// (anchor E1's language), search only. Patterns: (+ ?a ?b), (+ ?a (+ ?b ?c)) and the repeated
// variable (+ ?a (+ ?a ?b)). Over distinct leaves no sum repeats a leaf, so the repeated-variable
// pattern has no match and measures how fast Compare prunes; over leaves with repeated symbols
// (a multiset sum) it has matches.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <utility>

#include "bench/workloads/ac_saturated.hpp"
#include "egraph/machine.hpp"
#include "egraph/program.hpp"

namespace {

using namespace mctsat::egraph;

// The saturated e-graph of a sum of n leaves over `symbols` symbols, built once per process.
const EGraph<NoAnalysis>& saturated(int n, int symbols) {
  static std::map<std::pair<int, int>, std::unique_ptr<EGraph<NoAnalysis>>> cache;
  auto& slot = cache[{n, symbols}];
  if (!slot) slot = ac::saturated_sum(n, symbols);
  return *slot;
}

Pattern add_pattern() {  // (+ ?a ?b)
  Pattern p;
  p.node(ac::kAdd, 0, {p.var(0), p.var(1)});
  return p;
}
Pattern nested_pattern() {  // (+ ?a (+ ?b ?c))
  Pattern p;
  const auto a = p.var(0);
  const auto bc = p.node(ac::kAdd, 0, {p.var(1), p.var(2)});
  p.node(ac::kAdd, 0, {a, bc});
  return p;
}
Pattern repeated_pattern() {  // (+ ?a (+ ?a ?b))
  Pattern p;
  const auto a = p.var(0);
  const auto ab = p.node(ac::kAdd, 0, {p.var(0), p.var(1)});
  p.node(ac::kAdd, 0, {a, ab});
  return p;
}

void run_search(benchmark::State& state, const EGraph<NoAnalysis>& egraph, const Pattern& pattern) {
  const Program program = compile(pattern);
  const auto num_vars = static_cast<std::uint32_t>(pattern.vars().size());
  std::size_t matches = 0;
  for (auto _ : state) {
    const Matches found = search(egraph, program, num_vars);
    matches = found.size();
    benchmark::DoNotOptimize(found.substs.data());
  }
  const auto roots = static_cast<double>(egraph.classes_with_op(ac::kAdd).size());
  state.counters["matches"] = static_cast<double>(matches);
  state.counters["root_classes"] = roots;
  state.counters["roots/s"] =
      benchmark::Counter(roots, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["nodes"] = static_cast<double>(egraph.num_nodes());
  state.counters["classes"] = static_cast<double>(egraph.num_classes());
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * matches));
}

void BM_MatchAdd(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  run_search(state, saturated(n, n), add_pattern());
}
void BM_MatchNested(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  run_search(state, saturated(n, n), nested_pattern());
}
void BM_MatchRepeatedVar(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  run_search(state, saturated(n, n), repeated_pattern());
}
// Leaves over n/2 symbols, each used twice (n = 12: 728 classes, about 45k e-nodes, comparable
// to n = 10 over distinct leaves): the repeated-variable pattern matches.
void BM_MatchRepeatedVarMultiset(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  run_search(state, saturated(n, n / 2), repeated_pattern());
}

BENCHMARK(BM_MatchAdd)->ArgName("n")->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatchNested)->ArgName("n")->Arg(7)->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatchRepeatedVar)->ArgName("n")->Arg(10)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatchRepeatedVarMultiset)->ArgName("n")->Arg(12)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
