// `mctsat rules check|fmt|import-tensat`: checking rule files (a per-ruleset summary), printing
// their canonical form, and converting TENSAT rule files.
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"
#include "dsl/taso_equation_import.hpp"
#include "dsl/tensat_import.hpp"
#include "support/files.hpp"

namespace mctsat::cli {
namespace {

void add_check(CLI::App& rules) {
  struct Options {
    std::vector<std::string> paths;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command =
      rules.add_subcommand("check", "Parse and check rule files; summarize them per ruleset");
  command->add_option("paths", options->paths, "Rule files or directories")->required();
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([options] {
    dsl::Diagnostics diagnostics;
    const dsl::RuleLibrary library = dsl::load_rule_files(options->paths, diagnostics);
    diagnostics.throw_if_errors();  // every diagnostic, warnings included, in the error
    std::cerr << diagnostics.render();  // warnings only
    struct Counts {
      std::size_t rules = 0, multi = 0, conditional = 0, axioms = 0;
    };
    std::map<std::string, Counts> by_ruleset;
    for (const auto& rule : library.rules) {
      Counts& c = by_ruleset[rule.ruleset];
      ++c.rules;
      c.multi += rule.multi();
      c.conditional += rule.condition.has_value();
    }
    for (const auto& axiom : library.axioms) ++by_ruleset[axiom.ruleset].axioms;
    if (options->json) {
      nlohmann::json out = {{"files", library.files},
                            {"rules", library.rules.size()},
                            {"axioms", library.axioms.size()},
                            {"rulesets", nlohmann::json::object()}};
      for (const auto& [name, c] : by_ruleset)
        out["rulesets"][name] = {{"rules", c.rules},
                                 {"multi_pattern", c.multi},
                                 {"conditional", c.conditional},
                                 {"axioms", c.axioms}};
      std::cout << out.dump(2) << '\n';
      return;
    }
    std::cout << fmt::format("{} files, {} rules, {} axioms\n", library.files.size(),
                             library.rules.size(), library.axioms.size());
    std::cout << fmt::format("{:<16} {:>6} {:>6} {:>12} {:>7}\n", "ruleset", "rules", "multi",
                             "conditional", "axioms");
    for (const auto& [name, c] : by_ruleset)
      std::cout << fmt::format("{:<16} {:>6} {:>6} {:>12} {:>7}\n", name, c.rules, c.multi,
                               c.conditional, c.axioms);
  });
}

void add_fmt(CLI::App& rules) {
  auto path = std::make_shared<std::string>();
  CLI::App* command = rules.add_subcommand("fmt", "Print a rule file in canonical form");
  command->add_option("file", *path, "Rule file")->required();
  command->callback([path] {
    dsl::Diagnostics diagnostics;
    const dsl::RuleFile file = dsl::parse_rule_text(read_text_file(*path), *path, diagnostics);
    diagnostics.throw_if_errors();  // every diagnostic, warnings included, in the error
    std::cerr << diagnostics.render();  // warnings only
    std::cout << dsl::format_rule_file(file);
  });
}

void add_import(CLI::App& rules) {
  struct Options {
    std::string single, multi, output, ruleset = "tensat";
  };
  auto options = std::make_shared<Options>();
  CLI::App* command =
      rules.add_subcommand("import-tensat", "Convert TENSAT rule files (lhs=>rhs per line)");
  command->add_option("file", options->single, "TENSAT single-pattern rules (converted.txt)")
      ->required();
  command->add_option("--multi", options->multi, "TENSAT multi-pattern rules (two lines per rule)");
  command->add_option("-o,--output", options->output, "Rule file to write")->required();
  command->add_option("--ruleset", options->ruleset, "Ruleset of the imported rules")
      ->capture_default_str();
  command->callback([options] {
    dsl::Diagnostics diagnostics;
    std::vector<dsl::RuleDecl> rules = dsl::import_tensat_rules(
        read_text_file(options->single), options->single, false, "tensat", diagnostics);
    if (!options->multi.empty()) {
      auto multi = dsl::import_tensat_rules(read_text_file(options->multi), options->multi, true,
                                            "tensat-multi", diagnostics);
      rules.insert(rules.end(), multi.begin(), multi.end());
    }
    diagnostics.throw_if_errors();  // every diagnostic, warnings included, in the error
    std::cerr << diagnostics.render();  // warnings only
    const std::string text = dsl::tensat_rules_to_dsl(rules, options->ruleset);
    // Check what was produced before writing it.
    dsl::Diagnostics check;
    const dsl::RuleLibrary library = dsl::load_rule_text(text, options->output, check);
    check.throw_if_errors();
    std::cerr << check.render();
    write_file_atomically(options->output, text);
    std::cout << fmt::format("wrote {} rules to {}\n", library.rules.size(), options->output);
  });
}

void add_import_taso_equations(CLI::App& rules) {
  struct Options {
    std::string input, output, ruleset = "taso-equations";
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = rules.add_subcommand(
      "import-taso-equations", "Convert TASO's equation set (lhs==rhs in call syntax per line)");
  command->add_option("file", options->input, "TASO equations (TENSAT's taso_rules.txt)")
      ->required();
  command->add_option("-o,--output", options->output, "Rule file to write")->required();
  command->add_option("--ruleset", options->ruleset, "Ruleset of the imported rules")
      ->capture_default_str();
  command->callback([options] {
    const auto imported = dsl::import_taso_equations(read_text_file(options->input), options->input);
    const std::string text = dsl::taso_equations_to_dsl(imported.rules, options->ruleset);
    const std::size_t kept = imported.rules.size();
    write_file_atomically(options->output, text);
    std::map<std::string, std::size_t> reasons;
    for (const auto& s : imported.skipped) ++reasons[s.reason];
    std::cout << fmt::format("wrote {} rules to {}; skipped {} equations:\n", kept,
                             options->output, imported.skipped.size());
    for (const auto& [reason, count] : reasons)
      std::cout << fmt::format("  {:>4}  {}\n", count, reason);
  });
}

}  // namespace

void add_rules_command(CLI::App& app) {
  CLI::App* rules = app.add_subcommand("rules", "Check, format and import rule files");
  rules->require_subcommand(1);
  add_check(*rules);
  add_fmt(*rules);
  add_import(*rules);
  add_import_taso_equations(*rules);
}

}  // namespace mctsat::cli
