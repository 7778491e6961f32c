// Saturated e-graphs of the AC workload (anchor E1's language), as inputs to the matching and
// snapshot benchmarks: a right-nested sum of n leaves, optionally over fewer symbols than leaves
// (leaf i is the symbol i % symbols, so sums repeat symbols), saturated with comm-add and
// assoc-add (every rule, every match, every iteration; no limits).
#pragma once

#include <limits>
#include <memory>
#include <vector>

#include "bench/workloads/ac_language.hpp"
#include "egraph/runner.hpp"

namespace ac {

// (+ s0 (+ s1 ... s{n-1})) where leaf i is the symbol i % symbols: returns the root class.
inline Id right_nested_sum_over(EGraph<NoAnalysis>& egraph, int n, int symbols) {
  Id acc = egraph.add(kSymbol, (n - 1) % symbols);
  for (int i = n - 2; i >= 0; --i)
    acc = egraph.add(kAdd, 0, {egraph.add(kSymbol, i % symbols), acc});
  return acc;
}

// Saturates `egraph` with the two AC rules on one thread.
inline mctsat::egraph::RunReport saturate(EGraph<NoAnalysis>& egraph) {
  using namespace mctsat::egraph;
  const auto owned = rules();
  std::vector<const Rewrite<NoAnalysis>*> rule_ptrs;
  for (const auto& r : owned) rule_ptrs.push_back(r.get());
  RunnerOptions<NoAnalysis> options;
  options.limits = {1'000, std::numeric_limits<std::size_t>::max(), 3'600.0};
  SimpleScheduler scheduler;
  return Runner<NoAnalysis>(options).run(egraph, rule_ptrs, scheduler);
}

// A saturated e-graph of the sum of n leaves over `symbols` symbols.
inline std::unique_ptr<EGraph<NoAnalysis>> saturated_sum(int n, int symbols) {
  auto egraph = std::make_unique<EGraph<NoAnalysis>>();
  right_nested_sum_over(*egraph, n, symbols);
  saturate(*egraph);
  return egraph;
}

}  // namespace ac
