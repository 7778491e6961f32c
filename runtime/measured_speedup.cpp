// Measuring the real speedup of an optimization with interleaved oneDNN runs.
#include "runtime/measured_speedup.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/memory_budget.hpp"

namespace mctsat::runtime {

using namespace tensor;
namespace {

using Instances = std::vector<const runtime::TimedGraph*>;

// The instances' timings pooled, with the first instance's counts.
nlohmann::json graph_json(const Instances& instances) {
  std::vector<double> times;
  for (const runtime::TimedGraph* instance : instances)
    times.insert(times.end(), instance->times_ms().begin(), instance->times_ms().end());
  nlohmann::json out = runtime::TimingStats::of(std::move(times)).to_json();
  out["primitives"] = instances.front()->primitives();
  out["host_fallback_operators"] = instances.front()->host_steps();
  out["prepare_seconds"] = instances.front()->prepare_seconds();
  return out;
}

// Each round's time averaged over the instances.
std::vector<double> round_means(const Instances& instances) {
  std::vector<double> means(instances.front()->times_ms().size(), 0.0);
  for (const runtime::TimedGraph* instance : instances)
    for (std::size_t r = 0; r < means.size(); ++r)
      means[r] += instance->times_ms()[r] / static_cast<double>(instances.size());
  return means;
}

double noise_floor_percent(const Instances& instances) {
  std::vector<double> medians;
  for (const runtime::TimedGraph* instance : instances)
    medians.push_back(runtime::TimingStats::of(instance->times_ms()).median_ms);
  const auto [fastest, slowest] = std::minmax_element(medians.begin(), medians.end());
  return 100 * (*slowest / *fastest - 1);
}

}  // namespace

SpeedupMeasurement::SpeedupMeasurement(const tensor::Graph& original, SpeedupMeasureOptions options)
    : options_(std::move(options)), original_(original) {
  if (options_.runs < 1)
    throw Error(fmt::format("measuring needs at least 1 timed run, got {}", options_.runs));
  if (options_.warmup < 0)
    throw Error(fmt::format("the warm-up run count must not be negative, got {}", options_.warmup));
  if (options_.instances < 1)
    throw Error(fmt::format("measuring needs at least 1 instance of each graph, got {}",
                            options_.instances));
  // measure() prepares every instance of both graphs before timing them: their tensors (at least
  // 4 bytes an element) must fit together, checked before any is allocated.
  tensor::check_graph_fits_in_memory(
      original, std::uint64_t{8} * static_cast<std::uint64_t>(options_.instances),
      fmt::format("{} instances of each graph (measure instances)", options_.instances));
  if (options_.threads > 0) runtime::set_executor_threads(options_.threads);
  inputs_ = tensor::random_inputs(original, options_.seed);
  // What oneDNN cannot run fails now, before a search; the executor itself is not kept (measure()
  // prepares every instance after the search, and none is held meanwhile).
  prepare(original, "original");
  graphs_.clear();
}

void SpeedupMeasurement::prepare(const tensor::Graph& graph, const char* which) {
  try {
    graphs_.emplace_back(graph, inputs_, options_.seed, options_.opaque_evaluator);
  } catch (const Error& e) {
    throw Error(fmt::format("cannot measure the {} graph with oneDNN: {}", which, e.message()),
                e.where());
  }
}

nlohmann::json SpeedupMeasurement::measure(const tensor::Graph& optimized) {
  MCTSAT_ASSERT(graphs_.empty());
  // On this VM identical executors differ by several percent, more often in favour of the one
  // prepared later (NASRNN against itself, `mctsat run nasrnn --engine dnnl --compare nasrnn`, nine
  // runs under load: -5.8% to +10.1%, median +3.4%), so all instances are prepared now, in pairs
  // whose order alternates (original first in even pairs): neither graph is always the later one.
  const auto instances = static_cast<std::size_t>(options_.instances);
  graphs_.reserve(2 * instances);
  std::vector<bool> is_original;
  for (std::size_t pair = 0; pair < instances; ++pair) {
    for (const bool original_slot : {pair % 2 == 0, pair % 2 != 0}) {
      if (original_slot)
        prepare(original_, "original");
      else
        prepare(optimized, "optimized");
      is_original.push_back(original_slot);
    }
  }
  runtime::time_interleaved(graphs_, options_.runs, options_.warmup);

  Instances original_instances, optimized_instances;
  for (std::size_t i = 0; i < graphs_.size(); ++i)
    (is_original[i] ? original_instances : optimized_instances).push_back(&graphs_[i]);
  const std::vector<double> before = round_means(original_instances),
                            after = round_means(optimized_instances);
  std::vector<double> paired;
  for (std::size_t i = 0; i < before.size(); ++i)
    paired.push_back(100 * (before[i] / after[i] - 1));
  nlohmann::json original_json = graph_json(original_instances),
                 optimized_json = graph_json(optimized_instances);
  const double median_before = original_json["median_ms"].get<double>();
  const double median_after = optimized_json["median_ms"].get<double>();
  const auto& outputs_before = original_instances.front()->outputs();
  const auto& outputs_after = optimized_instances.front()->outputs();
  return {
      {"engine", "dnnl"},
      {"threads", runtime::executor_threads()},
      {"clock", runtime::ExecutionClock::for_executor_threads().name()},
      {"runs", options_.runs},
      {"warmup", options_.warmup},
      {"instances", options_.instances},
      {"seed", options_.seed},
      {"original", std::move(original_json)},
      {"optimized", std::move(optimized_json)},
      {"speedup_percent", 100 * (median_before / median_after - 1)},
      {"speedup_percent_q1", quantile(paired, 0.25)},
      {"speedup_percent_q3", quantile(paired, 0.75)},
      {"faster", quantile(paired, 0.25) > 0},
      {"noise_floor_percent", noise_floor_percent(original_instances)},
      {"outputs_finite",
       runtime::outputs_finite(outputs_before) && runtime::outputs_finite(outputs_after)},
      {"max_relative_difference", runtime::max_relative_difference(outputs_before, outputs_after)}};
}

}  // namespace mctsat::runtime
