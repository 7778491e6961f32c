// The never-slower guard (see never_slower_guard.hpp).
#include "study/never_slower_guard.hpp"

#include <fmt/format.h>

namespace mctsat::study {

GuardVerdict guard_never_slower(const tensor::Graph& original, const tensor::Graph& optimized,
                                const std::string& original_file, const OnnxRuntimeSetup& setup,
                                const OnnxRuntimeMeasureOptions& options,
                                const std::string& scratch_prefix) {
  GuardVerdict verdict;
  verdict.report["baseline"] =
      original_file.empty() ? "mctsat's export of the original graph" : "the input file";
  try {
    verdict.report["measurement"] =
        measure_in_onnxruntime(original, optimized, setup, options, scratch_prefix, original_file);
  } catch (const Error& e) {
    verdict.reason = fmt::format("ONNX Runtime could not compare the two models ({})", e.what());
    verdict.report["error"] = e.what();
  }
  if (verdict.report.contains("measurement")) {
    const nlohmann::json& m = verdict.report["measurement"];
    const nlohmann::json& paired = m["paired_cpu_speedup_percent"];
    const std::string figures = fmt::format(
        "original {:.3f} ms, optimized {:.3f} ms CPU time (medians); paired speedup {:+.2f}% "
        "(quartiles {:+.2f}% to {:+.2f}%)",
        m["original_cpu_ms"]["median"].get<double>(), m["optimized_cpu_ms"]["median"].get<double>(),
        paired["median"].get<double>(), paired["q1"].get<double>(), paired["q3"].get<double>());
    if (!m["outputs_agree"].get<bool>()) {
      verdict.reason = "the outputs differ in ONNX Runtime; " + figures;
    } else if (paired["q3"].get<double>() < 0) {
      verdict.reason = "slower beyond the noise; " + figures;
    } else if (!m["faster"].get<bool>()) {
      verdict.reason = "not faster beyond the noise; " + figures;
    } else {
      verdict.keep_optimized = true;
      verdict.reason = "faster beyond the noise; " + figures;
    }
  }
  verdict.report["decision"] = verdict.keep_optimized ? "optimized" : "original";
  verdict.report["reason"] = verdict.reason;
  return verdict;
}

}  // namespace mctsat::study
