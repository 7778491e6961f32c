// `mctsat zoo`: lists the built-in models with their operator count, parameters and estimated
// cost under the selected cost model (roofline on the V100 by default).
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/cost_options.hpp"
#include "frontend/zoo.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/runtime_fusions.hpp"

namespace mctsat::cli {

void add_zoo_command(CLI::App& app) {
  struct Options {
    bool json = false;
    CostOptions cost;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "zoo", "List the built-in models with operators, parameters and estimated cost");
  command->alias("models");
  command->add_flag("--json", options->json, "Print JSON");
  options->cost.add_to(*command);
  command->callback([options] {
    const auto model = options->cost.make();
    nlohmann::json models = nlohmann::json::array();
    if (!options->json)
      std::cout << fmt::format("{:<12} {:>9} {:>12} {:>10}  {}\n", "model", "operators",
                               "parameters", "cost ms", "description");
    for (const auto& entry : frontend::zoo_models()) {
      const tensor::Graph graph = *frontend::build_zoo_model(entry.name);
      const tensor::GraphStats stats = tensor::graph_stats(graph);
      const double cost = tensor::as_run_cost(graph, *model);
      if (options->json) {
        models.push_back({{"name", entry.name},
                          {"description", entry.description},
                          {"operators", stats.operators},
                          {"parameters", stats.parameters},
                          {"cost_ms", cost},
                          {"cost_model", model->name()}});
      } else {
        std::cout << fmt::format("{:<12} {:>9} {:>12} {:>10.4f}  {}\n", entry.name, stats.operators,
                                 stats.parameters, cost, entry.description);
      }
    }
    if (options->json) {
      std::cout << models.dump(2) << '\n';
    } else {
      std::cout << fmt::format("cost: {}\n", model->name());
    }
  });
}

}  // namespace mctsat::cli
