// The search and extraction flags of `mctsat optimize`, made from the option registry
// (search/option_registry.hpp): one flag per registered option with a flag, checked with the
// registry's rules (a bad value is a CLI error naming the flag), its default and the strategies
// that read it shown in the help.
#pragma once

#include <initializer_list>
#include <string_view>

#include <CLI/CLI.hpp>

#include "search/optimize_options.hpp"

namespace mctsat::cli {

// `options` must outlive the parse. With `only`, just the registered options of those names (a
// command that reads a few of them, as `extract` reads the extractor's: the same flags, checks
// and defaults).
void add_search_flags(CLI::App& command, search::OptimizeOptions& options,
                      std::initializer_list<std::string_view> only = {});

}  // namespace mctsat::cli
