// Building the cost model the command line asked for.
#include "cli/cost_options.hpp"

#include "runtime/cost_model_factory.hpp"
#include "support/error.hpp"

namespace mctsat::cli {

void CostOptions::add_to(CLI::App& command) {
  command.add_option("--cost", model, "Cost model")
      ->check(CLI::IsMember({"roofline", "table", "measured"}))
      ->capture_default_str();
  command
      .add_option("--device", device,
                  "Device profile of the roofline model: a builtin name or a .json file")
      ->capture_default_str();
  command.add_option("--cost-table", table,
                     "Cost table (.json) for --cost table; the measurement cache for --cost "
                     "measured (default: one per machine under ~/.cache/mctsat)");
  command.add_flag("--cost-fallback", fallback,
                   "With --cost table: price missing entries with roofline; with --cost measured: "
                   "price operators oneDNN cannot run with roofline");
}

std::unique_ptr<tensor::CostModel> CostOptions::make() const {
  if (model == "table" && table.empty()) throw Error("--cost table needs --cost-table FILE");
  return runtime::make_cost_model({model, device, table, fallback});
}

}  // namespace mctsat::cli
