// The never-slower guard: before `optimize` writes an ONNX model for a CPU, the original and the
// optimized model run in ONNX Runtime (onnxruntime_measurement.hpp: the same seeded inputs, every
// output compared, interleaved rounds on one thread at ONNX Runtime's default optimization level
// `all`, which is what a deploying user gets), and the optimized model is kept only when its
// outputs agree and it is faster beyond the noise: the lower quartile of the per-round paired
// speedups, by CPU time, is above zero. Otherwise the original is kept. Either way the verdict
// carries both figures and the reason.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "study/onnxruntime_measurement.hpp"
#include "tensor/graph.hpp"

namespace mctsat::study {

struct GuardVerdict {
  bool keep_optimized = false;
  std::string reason;     // one line for a person: why this graph is kept
  nlohmann::json report;  // "decision", "reason", "baseline" and the measurement (or "error")
};

// `original_file`: the ONNX file the model was loaded from, run as the baseline exactly as the
// user has it; empty (a zoo model, another format, or inputs made constants at import) runs
// mctsat's export of `original` instead, and the report's "baseline" says which. A failure to run
// either model in ONNX Runtime keeps the original and is reported, not thrown: an optimized graph
// that cannot be shown faster is never written in its place.
GuardVerdict guard_never_slower(const tensor::Graph& original, const tensor::Graph& optimized,
                                const std::string& original_file, const OnnxRuntimeSetup& setup,
                                const OnnxRuntimeMeasureOptions& options,
                                const std::string& scratch_prefix);

}  // namespace mctsat::study
