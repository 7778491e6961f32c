// `mctsat zoo`: lists the built-in models.
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "frontend/zoo.hpp"

namespace mctsat::cli {

void add_zoo_command(CLI::App& app) {
  auto as_json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("zoo", "List the built-in models");
  command->add_flag("--json", *as_json, "Print JSON");
  command->callback([as_json] {
    nlohmann::json models = nlohmann::json::array();
    for (const auto& entry : frontend::zoo_models()) {
      if (*as_json) {
        models.push_back({{"name", entry.name}, {"description", entry.description}});
      } else {
        std::cout << fmt::format("{:<12} {}\n", entry.name, entry.description);
      }
    }
    if (*as_json) std::cout << models.dump(2) << '\n';
  });
}

}  // namespace mctsat::cli
