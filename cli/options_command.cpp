// `mctsat options`: lists every search and extraction option of the option registry
// (search/option_registry.hpp) with its command-line flag, study parameter, default, accepted
// values, the strategies that read it and its meaning; as text, JSON, or the Markdown table that
// docs/cli.md embeds (a test checks that the document matches this output).
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "search/option_registry.hpp"

namespace mctsat::cli {
namespace {

// The flags as typed: CLI11's "!--no-x" (sets false) is typed "--no-x".
std::vector<std::string> typed_flags(const search::OptionSpec& spec) {
  std::vector<std::string> flags;
  for (std::size_t from = 0; from < spec.flag.size();) {
    const std::size_t comma = std::min(spec.flag.find(',', from), spec.flag.size());
    std::string flag = spec.flag.substr(from, comma - from);
    if (!flag.empty() && flag.front() == '!') flag.erase(0, 1);
    flags.push_back(std::move(flag));
    from = comma + 1;
  }
  return flags;
}

// The default: for a flag, whether its first flag is on; otherwise the value as a study config
// writes it ("unset" when none applies).
std::string default_text(const search::OptionSpec& spec) {
  const nlohmann::json value = spec.get(search::OptimizeOptions{});
  if (spec.type == search::OptionType::kFlag)
    return value.get<bool>() != (spec.flag.front() == '!') ? "on" : "off";
  if (value.is_null()) return "unset";
  return value.is_string() ? value.get<std::string>() : value.dump();
}

void list_options(bool json, bool markdown) {
  const auto& registry = search::option_registry();
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const search::OptionSpec& spec : registry)
      list.push_back({{"name", spec.name},
                      {"flags", typed_flags(spec)},
                      {"default", spec.get(search::OptimizeOptions{})},
                      {"values", search::values_text(spec)},
                      {"strategies", search::used_by_text(spec)},
                      {"in_study", spec.in_study},
                      {"help", spec.help}});
    std::cout << list.dump(2) << '\n';
    return;
  }
  if (markdown) {
    std::cout << "| option | default | values | strategies | study parameter | meaning |\n"
                 "| --- | --- | --- | --- | --- | --- |\n";
    for (const search::OptionSpec& spec : registry)
      std::cout << fmt::format(
          "| `{}` | `{}` | {} | {} | {} | {} |\n", fmt::join(typed_flags(spec), "`, `"),
          default_text(spec), search::values_text(spec), search::used_by_text(spec),
          spec.in_study ? fmt::format("`{}`", spec.name) : std::string("none"), spec.help);
    return;
  }
  for (const search::OptionSpec& spec : registry) {
    std::cout << fmt::format("{:<36} {:<24} default {}\n", fmt::join(typed_flags(spec), ", "),
                             spec.name, default_text(spec));
    std::cout << fmt::format("    {} [{}; strategies: {}]\n", spec.help, search::values_text(spec),
                             search::used_by_text(spec));
  }
}

}  // namespace

void add_options_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false), markdown = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand(
      "options", "List the search and extraction options with defaults, values and strategies");
  auto* json_flag = command->add_flag("--json", *json, "Print JSON");
  command->add_flag("--markdown", *markdown, "Print a Markdown table (docs/cli.md's)")
      ->excludes(json_flag);
  command->callback([json, markdown] { list_options(*json, *markdown); });
}

}  // namespace mctsat::cli
