// "Did you mean" for a malformed command line: after CLI11 rejects the arguments, the first
// subcommand name that does not exist ("mctsat optimze") or long flag that the command does not
// take ("--sed") is matched against the names that would have been valid there
// (support/suggest.hpp); an unknown subcommand is named as such, in place of CLI11's "A
// subcommand is required". Only commands that take subcommands and no positional argument read a
// bare word as a subcommand name; words after "--" are never looked at.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace mctsat::cli {

// The first unknown subcommand or long flag of `arguments` (argv without the program name), with
// the closest valid name there ("" when nothing is close).
struct CommandLineTypo {
  std::string word;     // as given: "optimze", "--sed"
  std::string command;  // the command it was given to: "mctsat", "mctsat rules"
  bool subcommand = false;
  std::string suggestion;  // "optimize", "--seed" or ""
};
std::optional<CommandLineTypo> find_typo(const CLI::App& app,
                                         const std::vector<std::string>& arguments);

// The message for a typo: "unknown command 'optimze' of mctsat (did you mean 'optimize'?)" for a
// subcommand (which CLI11 reports only as "A subcommand is required"), "did you mean '--seed'?"
// for a flag (CLI11 names it), "" for a flag with nothing close.
std::string typo_message(const CommandLineTypo& typo);

}  // namespace mctsat::cli
