// The extraction study of issue 7: the four extractors (greedy, paper, dag, ilp; dag also without
// its chain moves, "dag-plain", and with the study's restarts, "dag-r64") on e-graphs from
// saturating the demo and the nine zoo models of the TENSAT/PACT'24 benchmarks with the TASO rules
// exactly as `mctsat optimize MODEL --strategy eqsat` does (search::run_eqsat with its default
// options, TENSAT's configuration: node limit 50,000, 15 iterations, multi-pattern rules in the
// first iteration only, cycle filtering; costs from the roofline model of a V100, in ms) and on
// random e-graphs shaped like saturated tensor graphs
// (random200, random1k, random10k: see random_problem; costs 1..100). Per e-graph and extractor:
// the exact DAG cost of the extraction, its gap to the best known cost (ILP with a 120 s limit),
// and the time of one extraction (ILP with extraction-gym's 10 s limit, warm-started from the
// default dag; the best-known ILP run is warm-started from dag-r64). CBC runs in a child process
// (extract/ilp_extractor.cpp), whose CPU time Google Benchmark's cpu_time leaves out: the counter
// child_cpu_ms adds it (per iteration).
//
// BM_RewardRanking measures what the paper cares about: how well an extractor's cost ranks
// e-graph states the way the optimum (ILP) does, as a reward would have to. The states are the
// e-graphs of the demo and each zoo model after 1..3 iterations of random halves of the TASO
// rules; the counters are Spearman rank correlations of the extractor's own estimate (tree cost,
// OCF value, ...) and of its extraction's exact cost with the ILP's cost (30 s limit; `proven`
// counts the states where it is the proven optimum).
//
// Counters: cost (exact DAG cost, ms under the roofline model), gap_pct (to the best known),
// status (0 optimal, 1 heuristic, 2 time limit), nodes and classes of the problem, child_cpu_ms;
// the label names the best-known cost and, for zoo models, how saturation ended.
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "bench/workloads/random_graphs.hpp"
#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "egraph/runner.hpp"
#include "extract/extractor.hpp"
#include "extract/tensor_problem.hpp"
#include "frontend/zoo.hpp"
#include "search/eqsat.hpp"
#include "search/rule_step.hpp"
#include "support/statistics.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"

namespace {

using mctsat::extract::ExtractorOptions;
using mctsat::extract::Index;
using mctsat::extract::make_extractor;
using mctsat::extract::Problem;
using mctsat::extract::Result;
using mctsat::tensor::TensorAnalysis;
using mctsat::tensor::TensorEGraph;

constexpr double kBestKnownSeconds = 120;  // ILP time limit for the best-known cost
constexpr double kIlpSeconds = 10;         // ILP time limit when timed (extraction-gym's)
// `dag` with the study's restarts (ExtractorOptions::dag_restarts).
const std::string kStudyDag = "dag-r" + std::to_string(mctsat::extract::kStudyDagRestarts);

// The rules of `mctsat optimize` by default: the library rules/taso, all of it, in load order.
const mctsat::dsl::RuleSet& taso_rules() {
  static const mctsat::dsl::RuleSet rules(mctsat::dsl::select_rules(
      mctsat::dsl::load_rules_or_throw({MCTSAT_SOURCE_DIR "/rules/taso"}), {}));
  return rules;
}

// Saturates with TENSAT's configuration (search's runner options: node limit, cycle filtering)
// and the given rules (indices into taso_rules()), for the reward-ranking states.
TensorEGraph saturate(const mctsat::tensor::Graph& graph, const std::vector<std::size_t>& rules,
                      std::size_t iterations) {
  TensorEGraph teg = mctsat::tensor::to_egraph(graph);
  mctsat::search::StepOptions step;
  step.node_limit = 50'000;
  auto options = mctsat::search::runner_options(teg, step);
  options.limits.iterations = iterations;
  options.limits.seconds = 60;
  options.multi_iterations = 1;
  std::vector<const mctsat::egraph::Rewrite<TensorAnalysis>*> rewrites;
  for (std::size_t r : rules) rewrites.push_back(&taso_rules().rewrite(r));
  mctsat::egraph::SimpleScheduler scheduler;
  mctsat::egraph::Runner<TensorAnalysis>(options).run(teg.egraph, rewrites, scheduler);
  return teg;
}

const mctsat::tensor::RooflineCostModel& cost_model() {
  static const mctsat::tensor::RooflineCostModel model(mctsat::tensor::builtin_profile("v100"));
  return model;
}

// The e-graph `mctsat optimize MODEL --strategy eqsat` hands its final extractor
// (search::optimize's code path: the model's e-graph grown by search::run_eqsat with the default
// EqsatOptions, priced by problem_from_tensor under the default cost model); `saturation` says how
// saturation ended.
Problem zoo_problem(const std::string& model, std::string& saturation) {
  TensorEGraph teg = mctsat::tensor::to_egraph(*mctsat::frontend::build_zoo_model(model));
  const mctsat::search::EqsatOptions eqsat;
  const mctsat::egraph::RunReport report =
      mctsat::search::run_eqsat(teg, taso_rules(), eqsat, mctsat::search::SearchLimits{});
  saturation =
      fmt::format("eqsat {} iterations, stop: {}, {} e-nodes", report.iterations.size(),
                  report.stop_detail.empty() ? mctsat::egraph::stop_reason_name(report.stop)
                                             : report.stop_detail,
                  teg.egraph.num_nodes());
  return mctsat::extract::problem_from_tensor(teg, cost_model());
}

// The e-graphs of the study: the demo, the nine zoo models, three random ones.
const std::vector<std::string> kZooEGraphs = {"demo",       "bert",   "inceptionv3", "mobilenetv2",
                                              "nasneta",    "nasrnn", "resnet50",    "resnext50",
                                              "squeezenet", "vgg19"};
const std::vector<std::string> kRandomEGraphs = {"random200", "random1k", "random10k"};

// A random e-graph shaped like a saturated tensor graph: 32 leaf classes (one node each), then
// classes of 1..4 alternative nodes with 1..3 children among the 32 classes before them (so that
// alternatives share subgraphs), cost 1..100; the last class is the root.
Problem random_problem(Index classes, std::uint64_t seed) {
  constexpr Index kLeaves = 32, kWindow = 32;
  workloads::Random random(seed);
  mctsat::extract::ProblemBuilder builder;
  for (Index c = 0; c < classes; ++c) builder.add_class();
  std::vector<Index> children;
  for (Index c = 0; c < classes; ++c) {
    const std::uint32_t nodes = c < kLeaves ? 1 : 1 + random.below(4);
    for (std::uint32_t n = 0; n < nodes; ++n) {
      children.clear();
      const std::uint32_t arity = c < kLeaves ? 0 : 1 + random.below(3);
      for (std::uint32_t i = 0; i < arity; ++i)
        children.push_back(c - 1 - random.below(std::min(c, kWindow)));
      builder.add_node(c, 1 + random.below(100), children);
    }
  }
  builder.add_root(classes - 1);
  return std::move(builder).finish();
}

struct Workload {
  std::string name;
  Problem problem;
  double best_known = 0, best_bound = 0;
  std::string best_status;
  std::string saturation;  // zoo models: how saturation ended
};

// Workloads, built (with their best-known cost) on first use.
Workload& workload(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Workload>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[name];
  if (!slot) {
    slot = std::make_unique<Workload>();
    slot->name = name;
    if (std::find(kZooEGraphs.begin(), kZooEGraphs.end(), name) != kZooEGraphs.end()) {
      slot->problem = zoo_problem(name, slot->saturation);
    } else if (name == "random200") {
      slot->problem = random_problem(200, 1);
    } else if (name == "random1k") {
      slot->problem = random_problem(1'000, 1);
    } else if (name == "random10k") {
      slot->problem = random_problem(10'000, 2);
    }
    ExtractorOptions options;
    options.time_limit_seconds = kBestKnownSeconds;
    // Warm-started from the study's strongest heuristic (dag with restarts).
    options.dag_restarts = mctsat::extract::kStudyDagRestarts;
    const Result best = make_extractor("ilp", options)->extract(slot->problem);
    slot->best_known = best.dag_cost;
    slot->best_bound = best.lower_bound;
    slot->best_status = std::string(mctsat::extract::status_name(best.status));
  }
  return *slot;
}

void set_counters(benchmark::State& state, const Workload& w, const Result& result) {
  state.counters["cost"] = result.dag_cost;
  state.counters["gap_pct"] = 100.0 * (result.dag_cost - w.best_known) / w.best_known;
  state.counters["status"] = static_cast<double>(result.status);
  state.counters["nodes"] = static_cast<double>(w.problem.num_nodes());
  state.counters["classes"] = static_cast<double>(w.problem.num_classes());
  state.counters["lower_bound"] = result.lower_bound;
  state.SetLabel(fmt::format("best {:.6g} ({}, bound {:.6g}){}{}", w.best_known, w.best_status,
                             w.best_bound, w.saturation.empty() ? "" : "; ", w.saturation));
}

// An extractor of the study by name: the four of make_extractor, "dag-plain", `dag` without its
// chain moves (ExtractorOptions::dag_chains false; the default before 2026-11-30), and
// "dag-r<N>", `dag` with N restarts (ExtractorOptions::dag_restarts).
std::unique_ptr<mctsat::extract::Extractor> study_extractor(const std::string& name,
                                                            ExtractorOptions options) {
  if (name == "dag-plain") {
    options.dag_chains = false;
    return make_extractor("dag", options);
  }
  if (name.rfind("dag-r", 0) == 0) {
    options.dag_restarts = std::stoul(name.substr(5));
    return make_extractor("dag", options);
  }
  return make_extractor(name, options);
}

// CPU time (user + system) of the waited-for child processes so far (the ILP's CBC solves), in ms.
double children_cpu_ms() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto ms = [](const timeval& t) { return 1e3 * static_cast<double>(t.tv_sec) + 1e-3 * t.tv_usec; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

void BM_Extract(benchmark::State& state, const std::string& egraph, const std::string& name) {
  const Workload& w = workload(egraph);
  ExtractorOptions options;
  options.time_limit_seconds = kIlpSeconds;
  const auto extractor = study_extractor(name, options);
  Result result;
  const double child_start = children_cpu_ms();
  for (auto _ : state) {
    result = extractor->extract(w.problem);
    // (Not DoNotOptimize(result.dag_cost): Google Benchmark 1.7's "+r" constraint garbles a
    // double under GCC 12.)
    benchmark::DoNotOptimize(result);
  }
  set_counters(state, w, result);
  state.counters["child_cpu_ms"] =
      (children_cpu_ms() - child_start) / static_cast<double>(state.iterations());
}

// E-graph states of one model: random halves of the rules, 1..3 iterations; with their optimum.
struct States {
  std::vector<Problem> problems;
  std::vector<double> optimum;  // the ILP's cost (30 s limit)
  std::size_t proven = 0;       // states whose ILP cost is a proven optimum
};
const States& states(const std::string& model) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<States>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[model];
  if (slot) return *slot;
  slot = std::make_unique<States>();
  const mctsat::tensor::Graph graph = *mctsat::frontend::build_zoo_model(model);
  workloads::Random random(42);
  ExtractorOptions options;
  options.time_limit_seconds = 30;
  for (int s = 0; s < 24; ++s) {
    std::vector<std::size_t> rules;
    for (std::size_t r = 0; r < taso_rules().size(); ++r)
      if (random.below(2) == 0) rules.push_back(r);
    const TensorEGraph teg = saturate(graph, rules, 1 + s % 3);
    slot->problems.push_back(mctsat::extract::problem_from_tensor(teg, cost_model()));
    const Result ilp = make_extractor("ilp", options)->extract(slot->problems.back());
    slot->optimum.push_back(ilp.dag_cost);
    slot->proven += ilp.status == mctsat::extract::Status::kOptimal ? 1 : 0;
  }
  return *slot;
}

void BM_RewardRanking(benchmark::State& state, const std::string& model, const std::string& name) {
  const States& s = states(model);
  const auto extractor = study_extractor(name, ExtractorOptions());
  std::vector<double> estimate, cost;
  const double child_start = children_cpu_ms();
  for (auto _ : state) {
    estimate.clear();
    cost.clear();
    for (const Problem& problem : s.problems) {
      const Result result = extractor->extract(problem);
      estimate.push_back(std::isnan(result.estimate) ? result.dag_cost : result.estimate);
      cost.push_back(result.dag_cost);
    }
  }
  state.counters["child_cpu_ms"] =
      (children_cpu_ms() - child_start) / static_cast<double>(state.iterations());
  state.counters["states"] = static_cast<double>(s.problems.size());
  state.counters["proven"] = static_cast<double>(s.proven);
  state.counters["rho_estimate"] = mctsat::rank_correlation(estimate, s.optimum);
  state.counters["rho_cost"] = mctsat::rank_correlation(cost, s.optimum);
  double gap = 0;
  for (std::size_t i = 0; i < cost.size(); ++i) gap += (cost[i] - s.optimum[i]) / s.optimum[i];
  state.counters["mean_gap_pct"] = 100.0 * gap / static_cast<double>(cost.size());
  std::vector<double> optima = s.optimum;
  std::sort(optima.begin(), optima.end());
  state.counters["distinct_optima"] =
      static_cast<double>(std::unique(optima.begin(), optima.end()) - optima.begin());
}

const bool registered = [] {
  std::vector<std::string> egraphs = kZooEGraphs;
  egraphs.insert(egraphs.end(), kRandomEGraphs.begin(), kRandomEGraphs.end());
  for (const std::string& egraph : egraphs) {
    for (const std::string& name :
         std::vector<std::string>{"greedy", "paper", "dag-plain", "dag", kStudyDag, "ilp"}) {
      auto* b = benchmark::RegisterBenchmark(
          ("BM_Extract/" + egraph + "/" + name).c_str(),
          [egraph, name](benchmark::State& state) { BM_Extract(state, egraph, name); });
      b->Unit(benchmark::kMillisecond);
      if (name == "ilp") b->Iterations(1);
    }
  }
  for (const std::string& model : kZooEGraphs) {
    for (const char* name : {"greedy", "paper", "dag-plain", "dag", "ilp"}) {
      benchmark::RegisterBenchmark(("BM_RewardRanking/" + model + "/" + name).c_str(),
                                   [model, name = std::string(name)](benchmark::State& state) {
                                     BM_RewardRanking(state, model, name);
                                   })
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
