// End-to-end timing of graphs with the oneDNN executor, shared by `mctsat run --compare`,
// `mctsat optimize --measure` and the study library: each graph is prepared once and fed the same
// inputs, run once for its outputs, warmed up, and then timed in interleaved rounds (every graph
// once per round, alternating which goes first) so that drifts in machine load hit all of them
// alike. Also the statistics of such timings and the largest difference between two graphs'
// outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/statistics.hpp"

#include "runtime/dnnl_executor.hpp"
#include "tensor/graph.hpp"
#include "tensor/tensor_value.hpp"

namespace mctsat::runtime {

// Median, quartiles (linear interpolation between order statistics), minimum and maximum of
// timings in ms; all 0 for no timings.
struct TimingStats {
  std::size_t runs = 0;
  double median_ms = 0, q1_ms = 0, q3_ms = 0, min_ms = 0, max_ms = 0;

  static TimingStats of(std::vector<double> ms);
  // {"runs", "median_ms", "q1_ms", "q3_ms", "min_ms", "max_ms"}
  nlohmann::json to_json() const;
};

// The clock executions are timed with: with oneDNN on the calling thread alone (one executor
// thread), that thread's CPU time, which leaves out the time the scheduler gives other processes
// (on a shared machine the bulk of the noise); with more threads, wall time.
class ExecutionClock {
 public:
  static ExecutionClock for_executor_threads();  // by executor_threads() now
  double now_ms() const;
  const char* name() const;  // "thread CPU time" or "wall time"

 private:
  explicit ExecutionClock(bool thread_cpu) : thread_cpu_(thread_cpu) {}
  bool thread_cpu_;
};

// One graph prepared for timing: its executor (weights without values get random_weight values
// under `weight_seed`) holds `inputs`, and has run once to produce outputs().
class TimedGraph {
 public:
  // Throws mctsat::Error naming the node for what the executor cannot run (an opaque operator
  // without `opaque_evaluator`, a non-float32 tensor, ...) and for missing inputs. With
  // `opaque_evaluator`, opaque operators run on the host (ExecutorOptions::opaque_evaluator).
  TimedGraph(const tensor::Graph& graph, const std::map<std::string, tensor::Tensor>& inputs,
             std::uint64_t weight_seed, tensor::OpaqueEvaluator opaque_evaluator = nullptr);

  const std::vector<tensor::Tensor>& outputs() const { return outputs_; }
  const std::vector<double>& times_ms() const { return times_ms_; }  // timed runs, in order
  std::size_t primitives() const { return executor_.primitive_count(); }
  std::size_t host_steps() const { return executor_.host_step_count(); }
  double prepare_seconds() const { return prepare_seconds_; }

  void run_untimed();  // one execution, e.g. a warm-up
  void run_timed();    // one execution, appended to times_ms() (ExecutionClock's time)

 private:
  double prepare_seconds_ = 0;  // before executor_: the executor's initializer sets it
  DnnlExecutor executor_;
  std::vector<tensor::Tensor> outputs_;
  std::vector<double> times_ms_;
  ExecutionClock clock_ = ExecutionClock::for_executor_threads();
};

// `warmup` untimed runs of each graph, then `runs` rounds of one timed run of each graph; round r
// starts with graph r mod graphs.size().
void time_interleaved(std::span<TimedGraph> graphs, int runs, int warmup);

// max |a - b| / max |a| over all outputs (max |a - b| when a is all zeros); NaN when a value of
// either is not finite (overflowing outputs cannot be compared; see outputs_finite). Throws
// mctsat::Error when the two lists differ in length or an output in shape.
double max_relative_difference(const std::vector<tensor::Tensor>& a, const std::vector<tensor::Tensor>& b);
// Whether every value of the outputs is finite.
bool outputs_finite(const std::vector<tensor::Tensor>& outputs);

}  // namespace mctsat::runtime
