// `mctsat examples [DIR]`: copies the examples shipped with mctsat (a model, rule files, a rule
// file with mistakes, a study, a Python script) and the rule library they use into DIR/examples
// and DIR/rules, so that the README's tour and examples/README.md run unchanged from any directory
// and never write into a checkout. Both come from where mctsat finds them (installed by `cmake
// --install` under share/mctsat/, read from the checkout by the binary in its build tree). Nothing
// is overwritten: DIR/examples and DIR/rules must not exist. Each folder is copied into a
// temporary folder in DIR and renamed into place; a failure removes what it copied. `--path`
// prints where the shipped examples are and copies nothing.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/rule_library_location.hpp"
#include "support/error.hpp"

namespace mctsat::cli {
namespace {

namespace fs = std::filesystem;

// Copies the folders `from` (each to `to`/its file name), none of which may exist there yet.
void copy_folders(const std::vector<fs::path>& from, const fs::path& to) {
  std::error_code ec;
  for (const fs::path& folder : from) {
    if (!fs::is_directory(folder, ec))
      throw Error(
          "the shipped examples and rules are not where mctsat looks for them (is mctsat "
          "installed with `cmake --install`?)",
          SourceLocation::at(folder.string()));
    const fs::path target = to / folder.filename();
    if (fs::exists(target, ec))
      throw Error("already exists; nothing copied (name another directory: `mctsat examples DIR`)",
                  SourceLocation::at(target.string()));
  }
  fs::create_directories(to, ec);
  std::vector<fs::path> done;
  for (const fs::path& folder : from) {
    const fs::path staging = to / fmt::format(".{}.tmp-{}", folder.filename().string(), ::getpid());
    fs::copy(folder, staging, fs::copy_options::recursive, ec);
    if (!ec) fs::rename(staging, to / folder.filename(), ec);
    if (ec) {
      std::error_code ignored;
      fs::remove_all(staging, ignored);
      for (const fs::path& copied : done) fs::remove_all(copied, ignored);
      throw Error("cannot copy the examples there: " + ec.message(),
                  SourceLocation::at(to.string()));
    }
    done.push_back(to / folder.filename());
  }
}

}  // namespace

void add_examples_command(CLI::App& app) {
  struct Options {
    std::string dir = ".";
    bool path = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "examples",
      "Copy the examples (a model, rule files, a study) and the rule library into DIR/examples "
      "and DIR/rules, to follow the tour anywhere");
  command
      ->add_option("dir", options->dir,
                   "Where to copy them (DIR/examples and DIR/rules must "
                   "not exist)")
      ->capture_default_str();
  command->add_flag("--path", options->path, "Print where the shipped examples are; copy nothing");
  command->callback([options] {
    const fs::path examples = examples_dir();
    if (options->path) {
      std::cout << examples.string() << '\n';
      return;
    }
    copy_folders({examples, fs::path(rule_library_dir())}, options->dir);
    std::cout << fmt::format(
        "copied {} and {} into {}/examples and {}/rules (walkthrough: examples/README.md)\n",
        examples.string(), rule_library_dir(), options->dir, options->dir);
  });
}

}  // namespace mctsat::cli
