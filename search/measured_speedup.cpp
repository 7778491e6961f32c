// Measuring the real speedup of an optimization with interleaved oneDNN runs.
#include "search/measured_speedup.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::search {
namespace {

// The instances' timings pooled, with the first instance's counts.
nlohmann::json graph_json(std::span<const tensor::TimedGraph> instances) {
  std::vector<double> times;
  for (const tensor::TimedGraph& instance : instances)
    times.insert(times.end(), instance.times_ms().begin(), instance.times_ms().end());
  nlohmann::json out = tensor::TimingStats::of(std::move(times)).to_json();
  out["primitives"] = instances.front().primitives();
  out["host_fallback_operators"] = instances.front().host_steps();
  out["prepare_seconds"] = instances.front().prepare_seconds();
  return out;
}

// Each round's time averaged over the instances.
std::vector<double> round_means(std::span<const tensor::TimedGraph> instances) {
  std::vector<double> means(instances.front().times_ms().size(), 0.0);
  for (const tensor::TimedGraph& instance : instances)
    for (std::size_t r = 0; r < means.size(); ++r)
      means[r] += instance.times_ms()[r] / static_cast<double>(instances.size());
  return means;
}

double noise_floor_percent(std::span<const tensor::TimedGraph> instances) {
  std::vector<double> medians;
  for (const tensor::TimedGraph& instance : instances)
    medians.push_back(tensor::TimingStats::of(instance.times_ms()).median_ms);
  const auto [fastest, slowest] = std::minmax_element(medians.begin(), medians.end());
  return 100 * (*slowest / *fastest - 1);
}

}  // namespace

SpeedupMeasurement::SpeedupMeasurement(const tensor::Graph& original, SpeedupMeasureOptions options)
    : options_(std::move(options)) {
  if (options_.runs < 1)
    throw Error(fmt::format("measuring needs at least 1 timed run, got {}", options_.runs));
  if (options_.warmup < 0)
    throw Error(fmt::format("the warm-up run count must not be negative, got {}", options_.warmup));
  if (options_.threads > 0) tensor::set_executor_threads(options_.threads);
  if (options_.instances < 1)
    throw Error(fmt::format("measuring needs at least 1 instance of each graph, got {}",
                            options_.instances));
  inputs_ = tensor::random_inputs(original, options_.seed);
  graphs_.reserve(2 * static_cast<std::size_t>(options_.instances));
  try {
    for (int i = 0; i < options_.instances; ++i)
      graphs_.emplace_back(original, inputs_, options_.seed, options_.opaque_evaluator);
  } catch (const Error& e) {
    throw Error(fmt::format("cannot measure the original graph with oneDNN: {}", e.message()),
                e.where());
  }
}

nlohmann::json SpeedupMeasurement::measure(const tensor::Graph& optimized) {
  const auto instances = static_cast<std::size_t>(options_.instances);
  MCTSAT_ASSERT(graphs_.size() == instances);
  try {
    for (std::size_t i = 0; i < instances; ++i)
      graphs_.emplace_back(optimized, inputs_, options_.seed, options_.opaque_evaluator);
  } catch (const Error& e) {
    throw Error(fmt::format("cannot measure the optimized graph with oneDNN: {}", e.message()),
                e.where());
  }
  tensor::time_interleaved(graphs_, options_.runs, options_.warmup);

  const std::span<const tensor::TimedGraph> original_instances(graphs_.data(), instances);
  const std::span<const tensor::TimedGraph> optimized_instances(graphs_.data() + instances,
                                                                instances);
  const std::vector<double> before = round_means(original_instances),
                            after = round_means(optimized_instances);
  std::vector<double> paired;
  for (std::size_t i = 0; i < before.size(); ++i)
    paired.push_back(100 * (before[i] / after[i] - 1));
  nlohmann::json original_json = graph_json(original_instances),
                 optimized_json = graph_json(optimized_instances);
  const double median_before = original_json["median_ms"].get<double>();
  const double median_after = optimized_json["median_ms"].get<double>();
  const auto& outputs_before = graphs_.front().outputs();
  const auto& outputs_after = graphs_.back().outputs();
  return {{"engine", "dnnl"},
          {"threads", tensor::executor_threads()},
          {"runs", options_.runs},
          {"warmup", options_.warmup},
          {"instances", options_.instances},
          {"seed", options_.seed},
          {"original", std::move(original_json)},
          {"optimized", std::move(optimized_json)},
          {"speedup_percent", 100 * (median_before / median_after - 1)},
          {"speedup_percent_q1", tensor::quantile(paired, 0.25)},
          {"speedup_percent_q3", tensor::quantile(paired, 0.75)},
          {"noise_floor_percent", noise_floor_percent(original_instances)},
          {"outputs_finite",
           tensor::outputs_finite(outputs_before) && tensor::outputs_finite(outputs_after)},
          {"max_relative_difference",
           tensor::max_relative_difference(outputs_before, outputs_after)}};
}

}  // namespace mctsat::search
