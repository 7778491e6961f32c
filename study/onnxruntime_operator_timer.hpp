// Operators timed in ONNX Runtime, the runtime that runs an exported model (`--cost onnxruntime`,
// a MeasuredCostModel with this timer). Each instance becomes a one-operator ONNX model
// (tensor/single_op_graph.hpp; a convolution's kernel, batch normalization's parameters and a
// product's rank-2 right operand are initializers, as in a model, so ONNX Runtime prepacks them
// once) that one node process, started at the first instance and kept, runs on one thread at
// optimization level `all` with ONNX Runtime's profiler on (ort-compare.cjs --serve-op-times):
// 2 warm-up runs, then 10, and the time is the sum over the model's kernels of each one's fastest
// run. The profiler times the kernels alone, so what a call from node costs (which an operator
// inside a model does not pay) is not counted. A gelu of the tanh approximation is timed read by a
// relu whose kernel is not counted: ONNX Runtime fuses that form into its FastGelu only where the
// result is no graph output, as it is inside a model (0.039 against 0.124 ms unfused at
// [1, 64, 1024]: bench/results/2026-12-07-first-class-norms).
//
// What it does not see: fusions across operators (priced by --runtime-fusions onnxruntime on top)
// and the layout conversions around a lone convolution (left out; in a model they sit only where
// a chain of convolutions begins and ends). Opaque operators and operands that are not float32
// are not timed (mctsat::Error: the cost model's fallback prices them).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "runtime/measured_cost_model.hpp"
#include "support/line_server.hpp"
#include "support/scratch_directory.hpp"

namespace mctsat::study {

class OnnxRuntimeOperatorTimer final : public runtime::OperatorTimer {
 public:
  // `dir` holds node_modules/onnxruntime-node. Throws mctsat::Error when node cannot load it or
  // when its version cannot profile (before 1.21).
  explicit OnnxRuntimeOperatorTimer(std::string dir);
  ~OnnxRuntimeOperatorTimer() override;

  // CPU model, hardware threads, onnxruntime-node's version and the method.
  std::string machine() const override;
  double time_ms(const tensor::OpInstance& instance) const override;

 private:
  std::string dir_, version_;
  ScratchDirectory scratch_;
  mutable std::unique_ptr<LineServer> server_;
  mutable std::size_t timed_ = 0;
};

// Where `--cost onnxruntime` caches timings by default: user_cache_file("onnxruntime-<16 hex
// digits of the machine description's hash>.json").
std::string default_onnxruntime_cache_path(const OnnxRuntimeOperatorTimer& timer);

}  // namespace mctsat::study
