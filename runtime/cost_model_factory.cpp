// Building the cost model a CostModelSpec describes.
#include "runtime/cost_model_factory.hpp"

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "runtime/measured_cost_model.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::runtime {

using namespace tensor;

std::unique_ptr<CostModel> make_cost_model(const CostModelSpec& spec) {
  if (spec.model != "roofline" && spec.model != "table" && spec.model != "measured")
    throw Error(fmt::format("unknown cost model '{}' (roofline, table, measured)", spec.model));
  auto roofline = std::make_unique<RooflineCostModel>(resolve_profile(spec.device));
  if (spec.model == "roofline") return roofline;
  if (spec.model == "measured") {
    std::shared_ptr<const CostModel> fallback_model;
    if (spec.fallback) fallback_model = std::move(roofline);
    return std::make_unique<MeasuredCostModel>(
        spec.table.empty() ? default_measured_cache_path() : spec.table, MeasureOptions{},
        fallback_model);
  }
  if (spec.table.empty()) throw Error("the table cost model needs a cost table file");
  std::shared_ptr<const CostModel> fallback_model;
  if (spec.fallback) fallback_model = std::move(roofline);
  return std::make_unique<TableCostModel>(CostTable::load(spec.table), fallback_model);
}

}  // namespace mctsat::runtime
