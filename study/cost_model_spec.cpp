// The cost-model kinds' names, records and checks.
#include "study/cost_model_spec.hpp"

#include <filesystem>

#include "runtime/measured_cost_model.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/runtime_fusions.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::study {

using namespace tensor;

std::string default_cost_model_name(const CostModelSpec& spec) {
  std::string name;
  switch (spec.kind) {
    case CostModelKind::kRoofline:
      name = "roofline-" + std::filesystem::path(spec.device).stem().string();
      break;
    case CostModelKind::kTable:
      name = "table-" + std::filesystem::path(spec.table).stem().string();
      break;
    case CostModelKind::kMeasured:
      name = "measured";
      break;
    case CostModelKind::kOnnxRuntime:
      name = "onnxruntime";
      break;
  }
  if (spec.runtime_fusions != RuntimeFusions::kNone)
    name += "-" + std::string(name_of(kRuntimeFusionNames, spec.runtime_fusions));
  return name;
}

nlohmann::json cost_model_spec_json(const CostModelSpec& spec) {
  nlohmann::json out = {{"model", name_of(kCostModelNames, spec.kind)}};
  switch (spec.kind) {
    case CostModelKind::kRoofline:
      out["device"] = spec.device;
      break;
    case CostModelKind::kTable:
      out["table"] = spec.table;
      out["fallback"] = spec.fallback;
      break;
    case CostModelKind::kMeasured:
    case CostModelKind::kOnnxRuntime:
      break;
  }
  if (spec.runtime_fusions != RuntimeFusions::kNone)
    out["runtime_fusions"] = name_of(kRuntimeFusionNames, spec.runtime_fusions);
  return out;
}

void check_cost_model_spec(const CostModelSpec& spec) {
  (void)resolve_profile(spec.device);
  switch (spec.kind) {
    case CostModelKind::kRoofline:
    case CostModelKind::kOnnxRuntime:
      break;
    case CostModelKind::kTable:
      if (spec.table.empty()) throw Error("the table cost model needs a cost table file");
      (void)CostTable::load(spec.table);
      break;
    case CostModelKind::kMeasured:
      (void)runtime::MeasuredCostModel(
          spec.table.empty() ? runtime::default_measured_cache_path() : spec.table);
      break;
  }
}

}  // namespace mctsat::study
