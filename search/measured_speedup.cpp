// Measuring the real speedup of an optimization with interleaved oneDNN runs.
#include "search/measured_speedup.hpp"

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::search {
namespace {

nlohmann::json graph_json(const tensor::TimedGraph& graph) {
  nlohmann::json out = tensor::TimingStats::of(graph.times_ms()).to_json();
  out["primitives"] = graph.primitives();
  out["host_fallback_operators"] = graph.host_steps();
  out["prepare_seconds"] = graph.prepare_seconds();
  return out;
}

}  // namespace

SpeedupMeasurement::SpeedupMeasurement(const tensor::Graph& original, SpeedupMeasureOptions options)
    : options_(std::move(options)) {
  if (options_.runs < 1)
    throw Error(fmt::format("measuring needs at least 1 timed run, got {}", options_.runs));
  if (options_.warmup < 0)
    throw Error(fmt::format("the warm-up run count must not be negative, got {}", options_.warmup));
  if (options_.threads > 0) tensor::set_executor_threads(options_.threads);
  inputs_ = tensor::random_inputs(original, options_.seed);
  graphs_.reserve(2);
  try {
    graphs_.emplace_back(original, inputs_, options_.seed, options_.opaque_evaluator);
  } catch (const Error& e) {
    throw Error(fmt::format("cannot measure the original graph with oneDNN: {}", e.message()),
                e.where());
  }
}

nlohmann::json SpeedupMeasurement::measure(const tensor::Graph& optimized) {
  MCTSAT_ASSERT(graphs_.size() == 1);
  try {
    graphs_.emplace_back(optimized, inputs_, options_.seed, options_.opaque_evaluator);
  } catch (const Error& e) {
    throw Error(fmt::format("cannot measure the optimized graph with oneDNN: {}", e.message()),
                e.where());
  }
  tensor::time_interleaved(graphs_, options_.runs, options_.warmup);

  const std::vector<double>& before = graphs_[0].times_ms();
  const std::vector<double>& after = graphs_[1].times_ms();
  std::vector<double> paired;
  for (std::size_t i = 0; i < before.size(); ++i)
    paired.push_back(100 * (before[i] / after[i] - 1));
  const double median_before = tensor::TimingStats::of(before).median_ms;
  const double median_after = tensor::TimingStats::of(after).median_ms;
  return {{"engine", "dnnl"},
          {"threads", tensor::executor_threads()},
          {"runs", options_.runs},
          {"warmup", options_.warmup},
          {"seed", options_.seed},
          {"original", graph_json(graphs_[0])},
          {"optimized", graph_json(graphs_[1])},
          {"speedup_percent", 100 * (median_before / median_after - 1)},
          {"speedup_percent_q1", tensor::quantile(paired, 0.25)},
          {"speedup_percent_q3", tensor::quantile(paired, 0.75)},
          {"outputs_finite", tensor::outputs_finite(graphs_[0].outputs()) &&
                                 tensor::outputs_finite(graphs_[1].outputs())},
          {"max_relative_difference",
           tensor::max_relative_difference(graphs_[0].outputs(), graphs_[1].outputs())}};
}

}  // namespace mctsat::search
