// The real speedup of an optimization on this CPU: the original and the optimized graph run with
// the oneDNN executor on the same seeded random inputs, interleaved (runtime/timed_execution.hpp),
// recorded as the "measured" part of an optimization report next to the cost model's estimate.
// `mctsat optimize --measure` and bench studies with "measure": true use it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tensor/graph.hpp"
#include "runtime/timed_execution.hpp"

namespace mctsat::runtime {

struct SpeedupMeasureOptions {
  int runs = 10;           // timed rounds (each runs every instance of both graphs once); >= 1
  // Separately prepared executors of each graph, timed in the same rounds. Their buffers lie at
  // different addresses, and on this VM two instances of one graph differ by several percent,
  // which one instance per graph would report as a speedup; several, prepared in alternating
  // order, average that out, and the spread between the original's instances is reported as the
  // noise floor. At least 1.
  int instances = 2;
  int warmup = 3;          // untimed runs of each graph first
  int threads = 0;         // oneDNN threads; 0: OpenMP's default
  std::uint64_t seed = 1;  // random inputs and values of weights without values
  // Runs opaque operators on the host (ExecutorOptions::opaque_evaluator); unset, they are an
  // error. The report counts them (host_fallback_operators).
  tensor::OpaqueEvaluator opaque_evaluator = nullptr;
};

class SpeedupMeasurement {
 public:
  // Prepares the original graph for the executor, so that what it cannot run (an opaque operator,
  // named with its node) raises mctsat::Error before a search is spent; also for runs < 1,
  // warmup < 0 or instances < 1. `original` must outlive the measurement.
  SpeedupMeasurement(const tensor::Graph& original, SpeedupMeasureOptions options);

  // Times both graphs. Keys: engine ("dnnl"), threads, runs, warmup, instances, seed, original and
  // optimized (TimingStats JSON of all their instances' runs, plus primitives and
  // prepare_seconds), speedup_percent (100 * (median original / median optimized - 1), as the
  // estimated speedup_percent), speedup_percent_q1 and speedup_percent_q3 (quartiles of the
  // per-round paired speedups, each round's instances averaged: the spread), faster (the lower
  // quartile is above zero: measured faster in most rounds), noise_floor_percent
  // (100 * (slowest / fastest median among the original's instances - 1); 0 with one instance),
  // outputs_finite and max_relative_difference of the outputs (null when an output overflowed).
  // Call it once.
  // Throws mctsat::Error naming the node for what the executor cannot run in `optimized`, and when
  // the outputs differ in number or shape.
  nlohmann::json measure(const tensor::Graph& optimized);

 private:
  void prepare(const tensor::Graph& graph, const char* which);  // appends to graphs_

  SpeedupMeasureOptions options_;
  const tensor::Graph& original_;
  std::map<std::string, tensor::Tensor> inputs_;
  // The instances of both graphs, in the order they were prepared.
  std::vector<runtime::TimedGraph> graphs_;
};

}  // namespace mctsat::runtime
