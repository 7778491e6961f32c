// Building the cost model a CostModelSpec describes.
#include "study/cost_model_factory.hpp"

#include <fmt/format.h>

#include "runtime/measured_cost_model.hpp"
#include "study/onnxruntime_measurement.hpp"
#include "study/onnxruntime_operator_timer.hpp"
#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/runtime_fusions.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::study {

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
      return std::make_unique<runtime::MeasuredCostModel>(
          spec.table.empty() ? runtime::default_measured_cache_path() : spec.table,
          runtime::MeasureOptions{},
          fallback_model);
    case CostModelKind::kOnnxRuntime: {
      if (spec.fallback) fallback_model = std::move(roofline);
      auto timer = std::make_shared<OnnxRuntimeOperatorTimer>(onnxruntime_dir(spec.onnxruntime_dir));
      std::string cache = spec.table.empty() ? default_onnxruntime_cache_path(*timer) : spec.table;
      return std::make_unique<runtime::MeasuredCostModel>(std::move(cache), std::move(timer),
                                                          fallback_model);
    }
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

}  // namespace mctsat::study
