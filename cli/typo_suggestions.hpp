// "Did you mean" for a malformed command line: after CLI11 rejects the arguments, the first
// subcommand name that does not exist ("mctsat optimze") or long flag that the command does not
// take ("--sed") is matched against the names that would have been valid there
// (support/suggest.hpp). Only commands that take subcommands and no positional argument read a
// bare word as a subcommand name; words after "--" are never looked at.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace mctsat::cli {

// "did you mean 'optimize'?" for the first unknown subcommand or flag of `arguments` (argv
// without the program name), or "" when there is none or nothing close to it.
std::string typo_suggestion(const CLI::App& app, const std::vector<std::string>& arguments);

}  // namespace mctsat::cli
