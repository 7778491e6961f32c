// Building the cost model the command line asked for.
#include "cli/cost_options.hpp"

#include <string>

#include "support/enum_names.hpp"
#include "support/error.hpp"

namespace mctsat::cli {

void CostOptions::add_to(CLI::App& command) {
  command
      .add_option_function<std::string>(
          "--cost",
          [this](const std::string& name) {
            spec.kind = parse_name(study::kCostModelNames, name, "cost model");
          },
          "Cost model")
      ->check(CLI::IsMember(names_of(study::kCostModelNames)))
      ->default_str(std::string(name_of(study::kCostModelNames, spec.kind)));
  command
      .add_option("--device", spec.device,
                  "Device profile of the roofline model: a builtin name or a .json file")
      ->capture_default_str();
  command.add_option("--cost-table", spec.table,
                     "Cost table (.json) for --cost table; the measurement cache for --cost "
                     "measured or onnxruntime (default: one per machine under ~/.cache/mctsat)");
  command.add_flag("--cost-fallback", spec.fallback,
                   "With --cost table: price missing entries with roofline; with --cost measured "
                   "or onnxruntime: price operators it cannot time with roofline");
  command.add_option("--onnxruntime", spec.onnxruntime_dir,
                     "The folder holding node_modules/onnxruntime-node, for --cost onnxruntime "
                     "and optimize's guard (default: $MCTSAT_ONNXRUNTIME)");
  command
      .add_option_function<std::string>(
          "--runtime-fusions",
          [this](const std::string& name) {
            spec.runtime_fusions = parse_name(tensor::kRuntimeFusionNames, name, "runtime");
          },
          "Price whole graphs as this runtime runs them: onnxruntime = ONNX Runtime on a CPU, "
          "whose kernels take a convolution's bias, residual sum and activation (and a Gemm's "
          "bias and activation) and which copies at splits; none = operator by operator")
      ->check(CLI::IsMember(names_of(tensor::kRuntimeFusionNames)))
      ->default_str(std::string(name_of(tensor::kRuntimeFusionNames, spec.runtime_fusions)));
}

std::unique_ptr<tensor::CostModel> CostOptions::make() const {
  if (spec.kind == study::CostModelKind::kTable && spec.table.empty())
    throw Error("--cost table needs --cost-table FILE");
  return study::make_cost_model(spec);
}

}  // namespace mctsat::cli
