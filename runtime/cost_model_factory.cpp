// Building the cost model a CostModelSpec describes.
#include "runtime/cost_model_factory.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "runtime/measured_cost_model.hpp"
#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/runtime_fusions.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::runtime {

using namespace tensor;

namespace {

std::unique_ptr<CostModel> make_operator_cost_model(const CostModelSpec& spec) {
  auto roofline = std::make_unique<RooflineCostModel>(resolve_profile(spec.device));
  std::shared_ptr<const CostModel> fallback_model;
  switch (spec.kind) {
    case CostModelKind::kRoofline:
      return roofline;
    case CostModelKind::kMeasured:
      if (spec.fallback) fallback_model = std::move(roofline);
      return std::make_unique<MeasuredCostModel>(
          spec.table.empty() ? default_measured_cache_path() : spec.table, MeasureOptions{},
          fallback_model);
    case CostModelKind::kTable:
      if (spec.table.empty()) throw Error("the table cost model needs a cost table file");
      if (spec.fallback) fallback_model = std::move(roofline);
      return std::make_unique<TableCostModel>(CostTable::load(spec.table), fallback_model);
  }
  MCTSAT_ASSERT(false && "unknown cost model kind");
  return nullptr;
}

}  // namespace

std::unique_ptr<CostModel> make_cost_model(const CostModelSpec& spec) {
  std::unique_ptr<CostModel> model = make_operator_cost_model(spec);
  if (spec.runtime_fusions == RuntimeFusions::kNone) return model;
  return std::make_unique<FusingCostModel>(std::move(model), spec.runtime_fusions);
}

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
      break;
  }
  if (spec.runtime_fusions != RuntimeFusions::kNone)
    out["runtime_fusions"] = name_of(kRuntimeFusionNames, spec.runtime_fusions);
  return out;
}

}  // namespace mctsat::runtime
