// The cost-model options shared by every command that prices graphs (--cost, --device,
// --cost-table, --cost-fallback, --onnxruntime, --runtime-fusions): flags that fill a
// study::CostModelSpec, and the model it describes.
#pragma once

#include <memory>

#include <CLI/CLI.hpp>

#include "study/cost_model_factory.hpp"
#include "tensor/cost_model.hpp"

namespace mctsat::cli {

struct CostOptions {
  study::CostModelSpec spec;

  void add_to(CLI::App& command);
  // Throws mctsat::Error for an unknown device, a missing or malformed table.
  std::unique_ptr<tensor::CostModel> make() const;
};

}  // namespace mctsat::cli
