// The model argument's options shared by every command that loads a model: `--input-shape
// NAME=d1,d2,...` (repeatable) fixes the shape of an ONNX graph input, e.g. a dynamic batch;
// `--input-value NAME=v1,v2,...` (repeatable) makes one a constant, e.g. a sample rate.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "frontend/model_io.hpp"

namespace mctsat::cli {

struct ModelOptions {
  std::vector<std::string> input_shapes;  // as given: NAME=d1,d2,...
  std::vector<std::string> input_values;  // as given: NAME=v1,v2,...
  void add_to(CLI::App& command);
  // Throws mctsat::Error for a malformed --input-shape or --input-value.
  frontend::LoadOptions load_options() const;
  tensor::Graph load(const std::string& model) const {
    return frontend::load_model(model, load_options());
  }
};

}  // namespace mctsat::cli
