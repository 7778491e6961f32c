// The cost-model options shared by every command that prices graphs (--cost, --device,
// --cost-table, --cost-fallback, --onnxruntime): flags that fill a runtime::CostModelSpec, the
// model it describes, and where ONNX Runtime is for optimize's guard.
#pragma once

#include <memory>

#include <CLI/CLI.hpp>

#include "runtime/cost_model_factory.hpp"
#include "tensor/cost_model.hpp"

namespace mctsat::cli {

struct CostOptions {
  runtime::CostModelSpec spec;
  std::string onnxruntime;  // --onnxruntime DIR (else $MCTSAT_ONNXRUNTIME): onnxruntime-node's
                            // folder, for optimize's guard

  void add_to(CLI::App& command);
  // Throws mctsat::Error for an unknown device, a missing or malformed table.
  std::unique_ptr<tensor::CostModel> make() const;
};

}  // namespace mctsat::cli
