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

std::optional<CommandLineTypo> find_typo(const CLI::App& app,
                                         const std::vector<std::string>& arguments) {
  const CLI::App* command = &app;
  std::string path = app.get_name();
  for (const std::string& argument : arguments) {
    if (argument == "--") break;
    if (argument.rfind("--", 0) == 0) {
      const std::string flag = argument.substr(0, argument.find('='));
      const std::vector<std::string> flags = long_flags(*command);
      if (std::find(flags.begin(), flags.end(), flag) != flags.end()) continue;
      return CommandLineTypo{flag, path, false, closest_name(flag, flags).value_or("")};
    }
    if (argument.empty() || argument.front() == '-') continue;
    const std::vector<std::string> subcommands = subcommand_names(*command);
    if (subcommands.empty() || takes_positionals(*command)) continue;
    if (const CLI::App* sub = find_subcommand(*command, argument)) {
      command = sub;
      path += " " + sub->get_name();
      continue;
    }
    return CommandLineTypo{argument, path, true,
                           closest_name(argument, subcommands).value_or("")};
  }
  return std::nullopt;
}

std::string typo_message(const CommandLineTypo& typo) {
  const std::string hint =
      typo.suggestion.empty() ? "" : fmt::format("did you mean '{}'?", typo.suggestion);
  if (!typo.subcommand) return hint;
  return fmt::format("error: unknown command '{}' of {}{}", typo.word, typo.command,
                     hint.empty() ? "" : " (" + hint + ")");
}

}  // namespace mctsat::cli
