// Preparing graphs for timing, interleaved timed runs and their statistics.
#include "runtime/timed_execution.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "support/error.hpp"
#include "support/thread_cpu_time.hpp"

namespace mctsat::runtime {

using namespace tensor;
namespace {

using Clock = std::chrono::steady_clock;

ExecutorOptions executor_options(std::uint64_t weight_seed, OpaqueEvaluator opaque_evaluator) {
  ExecutorOptions options;
  options.random_weight_seed = weight_seed;
  options.opaque_evaluator = std::move(opaque_evaluator);
  return options;
}

}  // namespace

ExecutionClock ExecutionClock::for_executor_threads() {
  return ExecutionClock(executor_threads() == 1);
}

double ExecutionClock::now_ms() const {
  if (thread_cpu_) return 1e3 * thread_cpu_seconds();
  return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

const char* ExecutionClock::name() const {
  return thread_cpu_ ? "thread CPU time" : "wall time";
}

TimingStats TimingStats::of(std::vector<double> ms) {
  TimingStats stats;
  stats.runs = ms.size();
  if (ms.empty()) return stats;
  const auto [min, max] = std::minmax_element(ms.begin(), ms.end());
  stats.min_ms = *min;
  stats.max_ms = *max;
  stats.median_ms = quantile(ms, 0.5);
  stats.q1_ms = quantile(ms, 0.25);
  stats.q3_ms = quantile(std::move(ms), 0.75);
  return stats;
}

nlohmann::json TimingStats::to_json() const {
  return {{"runs", runs},   {"median_ms", median_ms}, {"q1_ms", q1_ms},
          {"q3_ms", q3_ms}, {"min_ms", min_ms},       {"max_ms", max_ms}};
}

TimedGraph::TimedGraph(const Graph& graph, const std::map<std::string, Tensor>& inputs,
                       std::uint64_t weight_seed, OpaqueEvaluator opaque_evaluator)
    : executor_([&] {
        const auto start = Clock::now();
        DnnlExecutor executor(graph, executor_options(weight_seed, std::move(opaque_evaluator)));
        executor.set_inputs(inputs);
        prepare_seconds_ = std::chrono::duration<double>(Clock::now() - start).count();
        return executor;
      }()) {
  executor_.execute();
  outputs_ = executor_.outputs();
}

void TimedGraph::run_untimed() {
  executor_.execute();
}

void TimedGraph::run_timed() {
  const double start = clock_.now_ms();
  executor_.execute();
  times_ms_.push_back(clock_.now_ms() - start);
}

void time_interleaved(std::span<TimedGraph> graphs, int runs, int warmup) {
  for (TimedGraph& graph : graphs)
    for (int i = 0; i < warmup; ++i) graph.run_untimed();
  for (int run = 0; run < runs; ++run)
    for (std::size_t k = 0; k < graphs.size(); ++k)
      graphs[(k + static_cast<std::size_t>(run)) % graphs.size()].run_timed();
}

bool outputs_finite(const std::vector<Tensor>& outputs) {
  for (const Tensor& output : outputs)
    for (double v : output.data)
      if (!std::isfinite(v)) return false;
  return true;
}

double max_relative_difference(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size())
    throw Error(fmt::format("the graphs have {} and {} outputs", a.size(), b.size()));
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].shape != b[i].shape)
      throw Error(fmt::format("output {} has shape {} in one graph and {} in the other", i,
                              shape_string(a[i].shape), shape_string(b[i].shape)));
    for (std::size_t j = 0; j < a[i].data.size(); ++j) {
      diff = std::max(diff, std::abs(a[i].data[j] - b[i].data[j]));
      scale = std::max(scale, std::abs(a[i].data[j]));
    }
  }
  if (!outputs_finite(a) || !outputs_finite(b)) return std::numeric_limits<double>::quiet_NaN();
  return scale > 0 ? diff / scale : diff;
}

}  // namespace mctsat::runtime
