// ONNX Runtime as the client that checks an optimization: the original and the optimized graph
// are exported to ONNX (weights without values get the same seeded random values in both, as
// initializers) and run by study/ort-compare.cjs (embedded here) in the CPU library of the
// npm package onnxruntime-node: the same seeded random inputs, every output compared within a
// tolerance, both timed on one thread in interleaved rounds (medians and paired quartiles). Bench
// studies with "measure_onnxruntime" record the result next to the estimate and the oneDNN
// measurement.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "support/error.hpp"
#include "tensor/graph.hpp"

namespace mctsat::study {

struct OnnxRuntimeMeasureOptions {
  unsigned rounds = 20;     // timed rounds; >= 1
  // A round runs each model for at least this long (ms; ort-compare.cjs --round-ms): a model of
  // microseconds is timed over many runs a round, whose mean varies far less than one run's time.
  double round_ms = 20;
  double tolerance = 1e-3;  // outputs agree when max |a - b| <= tolerance * max(1, max |a|)
  std::uint64_t seed = 1;   // random inputs and weights without values
};

// The environment variable that names the folder holding node_modules/onnxruntime-node.
inline constexpr const char* kOnnxRuntimeEnvironment = "MCTSAT_ONNXRUNTIME";

// That folder: `option` (e.g. `bench --onnxruntime DIR`) when not empty, else the environment
// variable's value; empty when neither says.
std::string onnxruntime_dir(const std::string& option);

// Checks that `node` runs and loads onnxruntime-node from `dir`; otherwise throws mctsat::Error
// located at `where` that says who needs it (`who`), what is missing and how to get it.
void require_onnxruntime(
    const std::string& dir, const SourceLocation& where,
    std::string_view who = "the study measures in ONNX Runtime (\"measure_onnxruntime\")");

// A graph input as ort-compare.cjs's --input takes it: NAME=DTYPE:D1,D2,... Throws mctsat::Error
// (naming the node) for an element type ONNX Runtime is not given here.
std::string onnxruntime_input_spec(const tensor::Node& input);

// Writes ort-compare.cjs to `path` (for node to run).
void write_compare_script(const std::string& path);

struct OnnxRuntimeSetup {
  std::string dir;     // holds node_modules/onnxruntime-node
  std::string script;  // ort-compare.cjs as written by write_compare_script
};

// Exports both graphs to `file_prefix`.original.onnx and .optimized.onnx, runs them, removes the
// files. With `original_file` (an ONNX file whose graph inputs are `original`'s inputs), that file
// is run as the original instead of the export of `original`: the model exactly as its user has it.
// Returns ort-compare.cjs's report (passed, outputs, onnxruntime versions, rounds, original_ms and
// optimized_ms quartiles, optimized_over_original, speedup_percent of the medians,
// paired_speedup_percent quartiles, and the same by CPU time: original_cpu_ms, optimized_cpu_ms,
// cpu_speedup_percent, paired_cpu_speedup_percent) with engine "onnxruntime", outputs_agree
// (= passed) and faster (the paired speedups' lower quartile above zero, by CPU time: robust to
// other processes' load, since ONNX Runtime runs on one thread here). Throws mctsat::Error (naming
// the node) for a graph ONNX cannot express or an input type ONNX Runtime is not given here, and
// with node's message when ONNX Runtime cannot load or run a model.
nlohmann::json measure_in_onnxruntime(const tensor::Graph& original, const tensor::Graph& optimized,
                                      const OnnxRuntimeSetup& setup,
                                      const OnnxRuntimeMeasureOptions& options,
                                      const std::string& file_prefix,
                                      const std::string& original_file = "");

}  // namespace mctsat::study
