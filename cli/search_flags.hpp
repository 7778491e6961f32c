// The search and extraction flags of `mctsat optimize`, made from the option registry
// (search/option_registry.hpp): one flag per registered option with a flag, checked with the
// registry's rules (a bad value is a CLI error naming the flag), its default and the strategies
// that read it shown in the help.
#pragma once

#include <CLI/CLI.hpp>

#include "search/optimize_options.hpp"

namespace mctsat::cli {

// `options` must outlive the parse.
void add_search_flags(CLI::App& command, search::OptimizeOptions& options);

}  // namespace mctsat::cli
