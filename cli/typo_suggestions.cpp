// Suggestions for mistyped subcommands and flags (see typo_suggestions.hpp).
#include "cli/typo_suggestions.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "support/suggest.hpp"

namespace mctsat::cli {
namespace {

std::vector<std::string> long_flags(const CLI::App& command) {
  std::vector<std::string> flags;
  for (const CLI::Option* option : command.get_options())
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  return flags;
}

bool takes_positionals(const CLI::App& command) {
  for (const CLI::Option* option : command.get_options())
    if (option->get_positional()) return true;
  return false;
}

const CLI::App* find_subcommand(const CLI::App& command, const std::string& name) {
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == name) return sub;
    for (const std::string& alias : sub->get_aliases())
      if (alias == name) return sub;
  }
  return nullptr;
}

std::vector<std::string> subcommand_names(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

}  // namespace

std::string typo_suggestion(const CLI::App& app, const std::vector<std::string>& arguments) {
  const CLI::App* command = &app;
  for (const std::string& argument : arguments) {
    if (argument == "--") break;
    if (argument.rfind("--", 0) == 0) {
      const std::string flag = argument.substr(0, argument.find('='));
      const std::vector<std::string> flags = long_flags(*command);
      if (std::find(flags.begin(), flags.end(), flag) != flags.end()) continue;
      if (const auto name = closest_name(flag, flags))
        return fmt::format("did you mean '{}'?", *name);
      return "";
    }
    if (argument.empty() || argument.front() == '-') continue;
    const std::vector<std::string> subcommands = subcommand_names(*command);
    if (subcommands.empty() || takes_positionals(*command)) continue;
    if (const CLI::App* sub = find_subcommand(*command, argument)) {
      command = sub;
      continue;
    }
    if (const auto name = closest_name(argument, subcommands))
      return fmt::format("did you mean '{}'?", *name);
    return "";
  }
  return "";
}

}  // namespace mctsat::cli
