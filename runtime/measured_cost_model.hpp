// The measured cost model: each distinct operator instance (keyed as in the table cost model) is
// timed on this machine by an OperatorTimer — by default the oneDNN executor: warm-up runs, then
// the median of repeated runs, as TASO times operators on the GPU, taken on several separately
// prepared executors; study/onnxruntime_operator_timer.hpp times them in ONNX Runtime — and
// cached in a cost table on disk, keyed by the timer's machine and method, so later runs reuse
// the timings.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include "tensor/cost_model.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::runtime {

// How one operator instance is timed: the cost is the fastest of `executors` separately prepared
// executors' medians (slowdowns from a busy machine or an unlucky buffer placement only add
// time), each timed run starts with the core's private caches evicted (inside a model an
// operator rarely finds its operands there, as it does when run over and over alone), and with
// one oneDNN thread the clock is the thread's CPU time (other processes' share of the cores is
// not counted). The cases that made each rule: bench/results/dnnl-execution.md ("How operators
// are timed").
struct MeasureOptions {
  int warmup = 2;     // untimed runs of each executor first
  int repeats = 5;    // timed runs of each executor; their median is that executor's time
  int executors = 3;  // separately prepared executors (fresh buffers); the cost is their minimum
  bool evict = true;  // evict the private caches (L1, L2) before each timed run
};

// The time in ms of one operator instance run alone, measured as `options` says: a one-node graph
// whose operands are inputs with seeded random values, except convolution kernels and
// batch-normalization parameters, which are weights (pre-processed once, as in a model). Throws
// mctsat::Error for an instance the executor cannot run (opaque, noop, a non-float32 operand,
// ...) and for options without a timed run.
double measure_op(const tensor::OpInstance& instance, const MeasureOptions& options = {});

// This machine and method as cached tables name them: CPU model, hardware threads, oneDNN's
// version and ISA, the executor's thread count and how `options` times an instance (timings
// depend on all of them, so a table measured otherwise is not reused).
std::string machine_description(const MeasureOptions& options = {});
// Where measurements are cached by default: $XDG_CACHE_HOME (else ~/.cache, else the current
// directory)/mctsat/measured-<16 hex digits of the machine description's hash>.json.
std::string default_measured_cache_path(const MeasureOptions& options = {});

// What times operator instances for a MeasuredCostModel, which calls it one instance at a time.
class OperatorTimer {
 public:
  virtual ~OperatorTimer() = default;
  // The machine and method, as the cache names them: a table measured otherwise is not reused.
  virtual std::string machine() const = 0;
  // The instance's time in ms; throws mctsat::Error for an instance it cannot run.
  virtual double time_ms(const tensor::OpInstance& instance) const = 0;
};

// The oneDNN executor as a timer (measure_op with `options`).
class DnnlOperatorTimer final : public OperatorTimer {
 public:
  explicit DnnlOperatorTimer(MeasureOptions options = {}) : options_(options) {}
  std::string machine() const override { return machine_description(options_); }
  double time_ms(const tensor::OpInstance& instance) const override {
    return measure_op(instance, options_);
  }

 private:
  MeasureOptions options_;
};

class MeasuredCostModel final : public tensor::CostModel {
 public:
  // Reads `cache_path` if it exists: a table of another machine raises mctsat::Error naming both
  // machines. Instances the timer cannot run are priced by `fallback` when given, else raise
  // mctsat::Error.
  MeasuredCostModel(std::string cache_path, std::shared_ptr<const OperatorTimer> timer,
                    std::shared_ptr<const tensor::CostModel> fallback = nullptr);
  // Timed by the oneDNN executor.
  explicit MeasuredCostModel(std::string cache_path, MeasureOptions options = {},
                             std::shared_ptr<const tensor::CostModel> fallback = nullptr);
  // Saves measurements taken since the last save(); a failure to write is ignored here (call
  // save() to see it).
  ~MeasuredCostModel() override;

  // Views cost 0; a cached instance its cached time; others are measured now (one at a time,
  // thread-safe) and cached.
  double cost(const tensor::OpInstance& instance) const override;
  std::string name() const override;  // "measured(<machine>)"

  // Writes the cache file (creating its directory) when new measurements were taken.
  void save() const;
  const std::string& cache_path() const { return cache_path_; }
  tensor::CostTable table() const;
  std::size_t measured_count() const;  // instances measured by this object (not read from disk)

 private:
  std::string cache_path_;
  std::shared_ptr<const OperatorTimer> timer_;
  std::shared_ptr<const tensor::CostModel> fallback_;
  mutable std::mutex mutex_;
  mutable tensor::CostTable table_;
  mutable std::size_t measured_ = 0;
  mutable bool dirty_ = false;
  // Instances the timer could not time: priced by the fallback without asking it again.
  mutable std::unordered_set<std::string> untimed_;
};

}  // namespace mctsat::runtime
