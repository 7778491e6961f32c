// The subcommands of the mctsat executable. Each add_* registers one subcommand with its options
// and its action; actions throw mctsat::Error on bad input, which main() prints and turns into a
// non-zero exit.
#pragma once

#include <CLI/CLI.hpp>

namespace mctsat::cli {

void add_show_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_profile_command(CLI::App& app);
void add_zoo_command(CLI::App& app);
void add_devices_command(CLI::App& app);
void add_rules_command(CLI::App& app);
void add_optimize_command(CLI::App& app);
void add_extract_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_ops_command(CLI::App& app);
void add_options_command(CLI::App& app);
void add_examples_command(CLI::App& app);

}  // namespace mctsat::cli
