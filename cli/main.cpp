// The mctsat command line: parses the subcommand and reports user errors as
// `file:line:col: error: ...` with a non-zero exit status; `--version` prints the version, the
// git commit of the build and where the rule library is.
#include <iostream>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/rule_library_location.hpp"
#include "cli/version.hpp"
#include "support/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "mctsat: tensor-graph superoptimization by equality saturation and Monte Carlo tree search"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Print help for every subcommand");
  app.set_version_flag(
      "--version",
      [] {
        return fmt::format("mctsat {} (git commit {})\nrule library: {}", mctsat::cli::version(),
                           mctsat::cli::build_commit(), mctsat::cli::rule_library_dir());
      },
      "Print the version, the git commit of the build and the rule library's location");
  mctsat::cli::add_optimize_command(app);
  mctsat::cli::add_extract_command(app);
  mctsat::cli::add_bench_command(app);
  mctsat::cli::add_show_command(app);
  mctsat::cli::add_convert_command(app);
  mctsat::cli::add_run_command(app);
  mctsat::cli::add_profile_command(app);
  mctsat::cli::add_zoo_command(app);
  mctsat::cli::add_devices_command(app);
  mctsat::cli::add_rules_command(app);
  mctsat::cli::add_verify_command(app);
  mctsat::cli::add_ops_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const mctsat::Error& e) {
    std::cerr << "mctsat: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
