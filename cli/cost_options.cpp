// Building the cost model the command line asked for.
#include "cli/cost_options.hpp"

#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/table_cost_model.hpp"

namespace mctsat::cli {

void CostOptions::add_to(CLI::App& command) {
  command.add_option("--cost", model, "Cost model")
      ->check(CLI::IsMember({"roofline", "table"}))
      ->capture_default_str();
  command
      .add_option("--device", device,
                  "Device profile of the roofline model: a builtin name or a .json file")
      ->capture_default_str();
  command.add_option("--cost-table", table, "Cost table (.json) for --cost table");
  command.add_flag("--cost-fallback", fallback,
                   "With --cost table: price missing entries with roofline");
}

std::unique_ptr<tensor::CostModel> CostOptions::make() const {
  auto roofline = std::make_unique<tensor::RooflineCostModel>(tensor::resolve_profile(device));
  if (model == "roofline") return roofline;
  if (table.empty()) throw Error("--cost table needs --cost-table FILE");
  std::shared_ptr<const tensor::CostModel> fallback_model;
  if (fallback) fallback_model = std::move(roofline);
  return std::make_unique<tensor::TableCostModel>(tensor::CostTable::load(table), fallback_model);
}

}  // namespace mctsat::cli
