// Loading and saving models by name or path: a zoo name, or a file whose extension says its
// format (.json, TASO's .model, .onnx).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

struct LoadOptions {
  // ONNX only: fixed shapes for graph inputs by name (dynamic dimensions need one).
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
  // ONNX only: graph inputs that become constants, by name (e.g. a sample rate an If tests).
  std::map<std::string, std::vector<double>> input_values;
};

// A zoo model name or a path; unknown names and unsupported extensions are clear errors.
tensor::Graph load_model(const std::string& name_or_path, const LoadOptions& options = {});
// Parses a model file's contents; the extension of `path` says the format (.json, .model, .onnx).
tensor::Graph parse_model(std::string_view text, const std::string& path,
                          const LoadOptions& options = {});
// The contents of a model file in the format `path`'s extension names (.json, .onnx, .dot, .svg),
// for callers that write several outputs as a set; throws Error for another extension.
std::string model_text(const tensor::Graph& graph, const std::string& path);
// Writes .json, .onnx, .dot or .svg (atomically: nothing half-written on failure).
void save_model(const tensor::Graph& graph, const std::string& path);

}  // namespace mctsat::frontend
