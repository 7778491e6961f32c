// The measured cost model: each distinct operator instance (keyed as in the table cost model) is
// timed on this machine with the oneDNN executor — warm-up runs, then the median of repeated runs,
// as TASO times operators on the GPU — and cached in a cost table on disk, keyed by machine, so
// later runs reuse the timings.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

#include "tensor/cost_model.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::tensor {

struct MeasureOptions {
  int warmup = 3;    // untimed runs first
  int repeats = 15;  // timed runs; the median is the cost
};

// The median time in ms of one operator instance run alone: a one-node graph whose operands are
// inputs with seeded random values, except convolution kernels and batch-normalization parameters,
// which are weights (pre-processed once, as in a model). Throws mctsat::Error for an instance the
// executor cannot run (opaque, noop, a non-float32 operand, ...).
double measure_op(const OpInstance& instance, const MeasureOptions& options = {});

// This machine as cached tables name it: CPU model, hardware threads, oneDNN's version and ISA,
// and the executor's thread count (timings depend on all of them).
std::string machine_description();
// Where measurements are cached by default: $XDG_CACHE_HOME (else ~/.cache, else the current
// directory)/mctsat/measured-<16 hex digits of the machine description's hash>.json.
std::string default_measured_cache_path();

class MeasuredCostModel final : public CostModel {
 public:
  // Reads `cache_path` if it exists: a table of another machine raises mctsat::Error naming both
  // machines. Instances the executor cannot run are priced by `fallback` when given, else raise
  // mctsat::Error.
  explicit MeasuredCostModel(std::string cache_path, MeasureOptions options = {},
                             std::shared_ptr<const CostModel> fallback = nullptr);
  // Saves measurements taken since the last save(); a failure to write is ignored here (call
  // save() to see it).
  ~MeasuredCostModel() override;

  // Views cost 0; a cached instance its cached time; others are measured now (one at a time,
  // thread-safe) and cached.
  double cost(const OpInstance& instance) const override;
  std::string name() const override;  // "measured(<machine>)"

  // Writes the cache file (creating its directory) when new measurements were taken.
  void save() const;
  const std::string& cache_path() const { return cache_path_; }
  CostTable table() const;
  std::size_t measured_count() const;  // instances measured by this object (not read from disk)

 private:
  std::string cache_path_;
  MeasureOptions options_;
  std::shared_ptr<const CostModel> fallback_;
  mutable std::mutex mutex_;
  mutable CostTable table_;
  mutable std::size_t measured_ = 0;
  mutable bool dirty_ = false;
};

}  // namespace mctsat::tensor
