// The mctsat command line: one subcommand per capability (see cli/commands.hpp).
#include <iostream>

#include <CLI/CLI.hpp>

#include "support/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mctsat: tensor-graph superoptimization by equality saturation and Monte Carlo tree search"};
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const mctsat::Error& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  return 0;
}
