// The mctsat command line: parses the subcommand and reports user errors as
// `file:line:col: error: ...` with a non-zero exit status. Exit statuses (docs/limits.md): 0
// success; 1 an error in the input, a failed check or a limit reached (also out of memory); 70
// an internal error (a bug: an exception that no input check turned into a located error); CLI11's
// 100-127 for a malformed command line; 130 / 143 when SIGINT / SIGTERM stopped the command.
// `--version` prints the version, the git commit of the build and where the rule library is;
// `mctsat` alone prints the help. An unknown subcommand is named as such, and a mistyped
// subcommand or flag gets a "did you mean".
#include <iostream>
#include <new>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/help_formatter.hpp"
#include "cli/rule_library_location.hpp"
#include "cli/typo_suggestions.hpp"
#include "cli/version.hpp"
#include "support/error.hpp"
#include "support/interrupt.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "mctsat: tensor-graph superoptimization by equality saturation and Monte Carlo tree search"};
  app.name("mctsat");  // the usage line says `mctsat`, whatever path ran it
  app.require_subcommand(1);
  app.formatter(std::make_shared<mctsat::cli::HelpFormatter>());  // subcommands inherit it
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
  mctsat::cli::add_options_command(app);
  mctsat::cli::add_examples_command(app);
  mctsat::install_interrupt_handlers();
  if (argc == 1) {
    std::cout << app.help();
    return 0;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const auto typo =
        e.get_exit_code() == 0
            ? std::nullopt
            : mctsat::cli::find_typo(app, std::vector<std::string>(argv + 1, argv + argc));
    if (typo && typo->subcommand) {  // said better than CLI11's "A subcommand is required"
      std::cerr << "mctsat: " << mctsat::cli::typo_message(*typo)
                << "\nRun with --help or --help-all for more information.\n";
      return e.get_exit_code();
    }
    const int status = app.exit(e);
    if (typo && !typo->suggestion.empty())
      std::cerr << "mctsat: " << mctsat::cli::typo_message(*typo) << '\n';
    return status;
  } catch (const mctsat::Error& e) {
    std::cerr << "mctsat: " << e.what() << '\n';
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "mctsat: error: out of memory (the input needs more memory than this process "
                 "may use)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "mctsat: internal error: " << e.what()
              << " (please report this with the "
                 "command and its input)\n";
    return 70;
  }
  return 0;
}
