// Building the cost model the command line asked for.
#include "cli/cost_options.hpp"

#include "support/error.hpp"
#include "tensor/cost_model_factory.hpp"

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
  if (model == "table" && table.empty()) throw Error("--cost table needs --cost-table FILE");
  return tensor::make_cost_model({model, device, table, fallback});
}

}  // namespace mctsat::cli
