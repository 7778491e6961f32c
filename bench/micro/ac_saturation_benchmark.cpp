// Anchor E1 (bench/results/egraph-micro.md, section 5): AC saturation of a right-nested sum of n
// distinct leaves with comm-add and assoc-add, every iteration searching all rules, applying all
// matches and rebuilding, until an iteration changes nothing; no node limit; one thread. The time
// runs from building the e-graph to saturation. Counters: iterations, the search / apply / rebuild
// split, final classes and e-nodes (checked against 2^n - 1 and 3^n - 2^(n+1) + 1 + n), peak
// EGraph::memory_bytes() over iterations and the process's peak RSS.
//
// BM_AcSaturation uses Runner::run, the engine's default, which matches semi-naively (a match made
// only of e-nodes older than the rule's last complete search is counted as `skipped` instead of
// being applied again: applying it would change nothing). BM_AcSaturationNaive runs the same
// iterations with Runner::run_iteration, which searches and applies every match every time, as
// egg does; both must reach the same e-graph.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "bench/workloads/ac_language.hpp"
#include "egraph/runner.hpp"

namespace {

using namespace mctsat::egraph;
using Clock = std::chrono::steady_clock;

std::size_t pow_int(std::size_t base, int exp) {
  std::size_t r = 1;
  while (exp-- > 0) r *= base;
  return r;
}

// Resident set size now (from /proc/self/statm), in bytes; 0 if unavailable.
double current_rss_bytes() {
  std::FILE* file = std::fopen("/proc/self/statm", "r");
  if (!file) return 0;
  unsigned long size = 0, resident = 0;
  const int read = std::fscanf(file, "%lu %lu", &size, &resident);
  std::fclose(file);
  return read == 2 ? static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) : 0;
}

// The process's peak resident set size so far (getrusage), in bytes.
double max_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;
}

struct Totals {
  std::size_t iterations = 0, found = 0, skipped = 0, applied = 0;
  double search = 0, apply = 0, rebuild = 0;
  double peak_egraph_bytes = 0, peak_sampled_rss = 0;
  void add(const IterationStats& it) {
    ++iterations;
    search += it.search_seconds;
    apply += it.apply_seconds;
    rebuild += it.rebuild_seconds;
    for (const RuleIterationStats& r : it.rules) {
      found += r.found;
      skipped += r.skipped;
      applied += r.apply.applied;
    }
  }
  void sample(const EGraph<NoAnalysis>& egraph) {
    peak_egraph_bytes = std::max(peak_egraph_bytes, static_cast<double>(egraph.memory_bytes()));
    peak_sampled_rss = std::max(peak_sampled_rss, current_rss_bytes());
  }
};

// Saturates the sum of n = state.range(0) leaves once per benchmark iteration; `naive` chooses
// run_iteration over run. A run that does not saturate or misses the known sizes is an error.
void run_e1(benchmark::State& state, bool naive) {
  const int n = static_cast<int>(state.range(0));
  const auto owned = ac::rules();
  std::vector<const Rewrite<NoAnalysis>*> rules;
  for (const auto& r : owned) rules.push_back(r.get());
  const std::size_t want_classes = pow_int(2, n) - 1;
  const std::size_t want_nodes = pow_int(3, n) - pow_int(2, n + 1) + 1 + n;

  Totals totals;
  std::size_t classes = 0, nodes = 0, ids = 0;
  double wall = 0;
  for (auto _ : state) {
    totals = Totals{};
    const auto start = Clock::now();
    EGraph<NoAnalysis> egraph;
    ac::right_nested_sum(egraph, n);
    RunnerOptions<NoAnalysis> options;
    options.limits = {1'000, std::numeric_limits<std::size_t>::max(), 3'600.0};
    options.after_iteration = [&](const EGraph<NoAnalysis>& g, const IterationStats&) {
      totals.sample(g);
      return true;
    };
    const Runner<NoAnalysis> runner(options);
    bool saturated = false;
    if (naive) {
      const std::vector<bool> all(rules.size(), true);
      for (std::size_t i = 0; i < options.limits.iterations && !saturated; ++i) {
        const IterationStats it = runner.run_iteration(egraph, rules, all, i);
        totals.add(it);
        totals.sample(egraph);
        saturated = !it.changed;
      }
    } else {
      SimpleScheduler scheduler;
      const RunReport report = runner.run(egraph, rules, scheduler);
      for (const IterationStats& it : report.iterations) totals.add(it);
      saturated = report.stop == StopReason::kSaturated;
    }
    const auto end = Clock::now();
    wall = std::chrono::duration<double>(end - start).count();
    state.SetIterationTime(wall);
    classes = egraph.num_classes();
    nodes = egraph.num_nodes();
    ids = egraph.num_ids();
    if (!saturated) {
      state.SkipWithError("did not saturate within 1,000 iterations");
      break;
    }
    if (classes != want_classes || nodes != want_nodes) {
      const std::string message = "wrong final size: " + std::to_string(classes) + " classes, " +
                                  std::to_string(nodes) + " e-nodes; expected " +
                                  std::to_string(want_classes) + " / " + std::to_string(want_nodes);
      state.SkipWithError(message.c_str());
      break;
    }
  }
  const double phases = totals.search + totals.apply + totals.rebuild;
  auto& c = state.counters;
  c["iterations"] = static_cast<double>(totals.iterations);
  c["classes"] = static_cast<double>(classes);
  c["nodes"] = static_cast<double>(nodes);
  c["ids"] = static_cast<double>(ids);  // e-nodes ever added (dead ones keep their id)
  c["search_s"] = totals.search;
  c["apply_s"] = totals.apply;
  c["rebuild_s"] = totals.rebuild;
  c["search_pct"] = phases > 0 ? 100 * totals.search / phases : 0;
  c["apply_pct"] = phases > 0 ? 100 * totals.apply / phases : 0;
  c["rebuild_pct"] = phases > 0 ? 100 * totals.rebuild / phases : 0;
  c["other_s"] = wall - phases;  // building the start term, hooks, bookkeeping
  c["matches"] = static_cast<double>(totals.found);
  c["skipped"] = static_cast<double>(totals.skipped);
  c["applied"] = static_cast<double>(totals.applied);
  c["peak_egraph_MB"] = totals.peak_egraph_bytes / 1e6;
  c["peak_rss_sampled_MB"] = totals.peak_sampled_rss / 1e6;  // at iteration ends
  c["max_rss_MB"] = max_rss_bytes() / 1e6;                   // whole process so far
}

void BM_AcSaturation(benchmark::State& state) {
  run_e1(state, false);
}
void BM_AcSaturationNaive(benchmark::State& state) {
  run_e1(state, true);
}

// Small cases (smoke tests, quick checks), then the anchor sizes with a few repetitions each.
BENCHMARK(BM_AcSaturation)
    ->ArgName("n")
    ->Arg(7)
    ->Arg(8)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AcSaturation)
    ->ArgName("n")
    ->Arg(10)
    ->Repetitions(5)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AcSaturation)
    ->ArgName("n")
    ->Arg(11)
    ->Repetitions(3)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AcSaturation)
    ->ArgName("n")
    ->Arg(12)
    ->Repetitions(1)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AcSaturationNaive)
    ->ArgName("n")
    ->Arg(10)
    ->Repetitions(5)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AcSaturationNaive)
    ->ArgName("n")
    ->Arg(11)
    ->Repetitions(3)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AcSaturationNaive)
    ->ArgName("n")
    ->Arg(12)
    ->Repetitions(1)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
