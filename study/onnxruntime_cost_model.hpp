// Costs measured in ONNX Runtime itself, the runtime that will run an exported model: each distinct
// operator instance (keyed as in the table cost model) becomes a one-operator ONNX model
// (tensor/single_op_graph.hpp: operands as inputs, except convolution kernels, batch-normalization
// parameters and a product's rank-2 right operand, which are initializers as in a model, so ONNX
// Runtime prepacks them) timed by onnxruntime-node on one thread: 3 warm-up runs, then the median
// of 15 runs by CPU time, minus the median of a model that does no work (the binding's own cost per
// call, which an operator inside a model does not pay, a line in the bytes it copies in and out,
// fitted to two Identity models). Timings are cached in a cost table on
// disk keyed by machine and ONNX Runtime version, so later runs reuse them.
//
// What it cannot see: ONNX Runtime's fusions across operators (a convolution's bias and
// activation, a product and its bias) are priced as separate operators. Measuring an instance
// starts a node process (about 0.2-0.5 s): `prefetch` measures a graph's instances in one.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "study/onnxruntime_measurement.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::study {

// This machine and ONNX Runtime as cached tables name them: CPU model, hardware threads,
// onnxruntime-node's version in `ort_dir`, one thread, the method.
std::string onnxruntime_machine_description(const std::string& ort_dir);
// $XDG_CACHE_HOME (else ~/.cache, else .)/mctsat/onnxruntime-<16 hex digits of the description's
// hash>.json.
std::string default_onnxruntime_cache_path(const std::string& ort_dir);

class OnnxRuntimeCostModel final : public tensor::CostModel {
 public:
  // `setup.dir` holds node_modules/onnxruntime-node (checked by the caller with
  // require_onnxruntime); `setup.script` may be empty (the script is written to a scratch
  // directory when needed). Reads `cache_path` if it exists: a table of another machine raises
  // mctsat::Error naming both. Instances ONNX Runtime cannot run here (opaque operators, other
  // element types) are priced by `fallback` when given, else raise mctsat::Error.
  OnnxRuntimeCostModel(OnnxRuntimeSetup setup, std::string cache_path,
                       std::shared_ptr<const tensor::CostModel> fallback = nullptr);
  // Saves new measurements; a failure to write is ignored here (call save() to see it).
  ~OnnxRuntimeCostModel() override;

  // Views cost 0; a cached instance its cached time; others are measured now (one node process
  // per call, thread-safe) and cached.
  double cost(const tensor::OpInstance& instance) const override;
  std::string name() const override;

  // Measures every priced instance of a validated graph that is not cached yet, in one node
  // process.
  void prefetch(const tensor::Graph& graph) const;
  void save() const;
  std::size_t measured_count() const;

 private:
  struct Pending {
    std::string key;
    tensor::Graph graph;
  };
  // Measures the pending instances in one node process and caches them; the caller holds mutex_.
  void measure(std::vector<Pending>& pending) const;

  OnnxRuntimeSetup setup_;
  std::string cache_path_;
  std::shared_ptr<const tensor::CostModel> fallback_;
  mutable std::mutex mutex_;
  mutable tensor::CostTable table_;
  mutable std::size_t measured_ = 0;
  mutable bool dirty_ = false;
};

}  // namespace mctsat::study
