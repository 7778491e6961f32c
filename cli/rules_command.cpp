// `mctsat rules check|fmt|import-tensat|import-taso-equations|synthesize|derivable`: checking rule
// files (a per-ruleset summary), printing their canonical form, converting TENSAT's and TASO's rule
// files, synthesizing verified rules from the operator catalog, and asking which rules others
// derive.
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
#include "support/allocator_reuse.hpp"
#include "support/files.hpp"
#include "synth/synthesizer.hpp"
#include "verify/equation.hpp"
#include "verify/rule_derivation.hpp"

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
    diagnostics.throw_if_errors();      // every diagnostic, warnings included, in the error
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
    diagnostics.throw_if_errors();      // every diagnostic, warnings included, in the error
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
    check_output_paths({{"-o", options->output}}, {options->single, options->multi});
    dsl::Diagnostics diagnostics;
    std::vector<dsl::RuleDecl> rules = dsl::import_tensat_rules(
        read_text_file(options->single), options->single, false, "tensat", diagnostics);
    if (!options->multi.empty()) {
      auto multi = dsl::import_tensat_rules(read_text_file(options->multi), options->multi, true,
                                            "tensat-multi", diagnostics);
      rules.insert(rules.end(), multi.begin(), multi.end());
    }
    diagnostics.throw_if_errors();      // every diagnostic, warnings included, in the error
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
    check_output_paths({{"-o", options->output}}, {options->input});
    const auto imported =
        dsl::import_taso_equations(read_text_file(options->input), options->input);
    const std::string text = dsl::taso_equations_to_dsl(imported.rules, options->ruleset);
    const std::size_t kept = imported.rules.size();
    write_file_atomically(options->output, text);
    std::map<std::string, std::size_t> reasons;
    for (const auto& s : imported.skipped) ++reasons[s.reason];
    std::cout << fmt::format("wrote {} rules to {}; skipped {} equations:\n", kept, options->output,
                             imported.skipped.size());
    for (const auto& [reason, count] : reasons)
      std::cout << fmt::format("  {:>4}  {}\n", count, reason);
  });
}

void add_synthesize(CLI::App& rules) {
  struct Options {
    std::vector<std::string> ops, shapes = {"x:n,n", "y:n,n", "z:n,n"}, dims = {"n=2,3"}, weights,
                                  existing;
    std::string output, cache, verify_cache;
    synth::SynthesisOptions synthesis;
    bool distinct_args = false, all_terms = false, no_merges = false, no_pairs = false,
         json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = rules.add_subcommand(
      "synthesize", "Enumerate small graphs, propose equalities by fingerprint, verify, minimise");
  command->add_option("--ops", o->ops, "Operators to enumerate (comma-separated)")
      ->required()
      ->delimiter(',');
  command->add_option("--max-ops", o->synthesis.max_ops, "Operators per side at most")
      ->capture_default_str()
      ->check(CLI::Range(1, 6));
  command->add_option("--shapes", o->shapes, "Tensor variables with symbolic shapes (NAME:DIM,...)")
      ->capture_default_str();
  command->add_option("--dims", o->dims, "Values of the shape symbols, one per instance (S=V,...)")
      ->capture_default_str();
  command
      ->add_option("--weights", o->weights,
                   "Variables that are parameters: kernels, never convolved as data (TASO's roles)")
      ->delimiter(',');
  command->add_flag("--distinct-args", o->distinct_args,
                    "An operator's tensor arguments are distinct terms (no ewadd of x with x)");
  command->add_option("--rules", o->existing,
                      "Existing rule files or directories: their consequences are not proposed");
  command->add_option("-o,--output", o->output, "Rule file to write")->required();
  command->add_option("--ruleset", o->synthesis.ruleset, "Ruleset (and name prefix) of the rules")
      ->capture_default_str();
  command->add_option("--seed", o->synthesis.fingerprint.seed, "Seed of the fingerprint inputs")
      ->capture_default_str();
  command
      ->add_option("--input-sets", o->synthesis.fingerprint.integer_sets,
                   "Integer input sets per shape instance")
      ->capture_default_str();
  command
      ->add_option("--real-sets", o->synthesis.fingerprint.real_sets,
                   "Real-valued input sets per shape instance")
      ->capture_default_str();
  command
      ->add_option("--samples", o->synthesis.verify.numeric.samples,
                   "Concrete assignments the verifier tests per candidate")
      ->capture_default_str();
  command
      ->add_option("--derive-iterations", o->synthesis.derivation.iterations,
                   "Saturation iterations when checking whether a candidate is derivable")
      ->capture_default_str();
  command
      ->add_option("--max-terms", o->synthesis.max_terms,
                   "New terms per size at most (more: an evenly spaced sample)")
      ->capture_default_str();
  command->add_flag("--all-terms", o->all_terms,
                    "Grow terms from every term, not one per fingerprint");
  command->add_flag("--no-merges", o->no_merges,
                    "Write no two-output merge rules (read off concat rules)");
  command
      ->add_option("--final-samples", o->synthesis.final_samples,
                   "Test the written rules again with this many samples, dropping failures (0: no)")
      ->capture_default_str();
  command->add_flag("--minimize-conditions", o->synthesis.minimize_conditions,
                    "Drop the atoms of inferred where conditions that a rule verifies without");
  command->add_flag("--no-pairs", o->no_pairs,
                    "Propose no concat rules from pairs of one-operator graphs");
  command->add_option("--cache", o->cache, "Fingerprint cache file (reused by a larger run)");
  command->add_option("--verify-cache", o->verify_cache,
                      "Directory of verification results (reused by a larger run)");
  command->add_option("-j,--jobs", o->synthesis.fingerprint.jobs, "Threads (0: every core)")
      ->capture_default_str();
  command->add_flag("--json", o->json, "Print JSON");
  command->callback([o] {
    keep_freed_memory_for_reuse();  // a Z3 context per numeric sample
    auto vocabulary = synth::make_vocabulary(o->ops, o->shapes, o->dims, o->weights);
    vocabulary.distinct_arguments = o->distinct_args;
    std::vector<dsl::CheckedRule> existing;
    if (!o->existing.empty()) existing = dsl::load_rules_or_throw(o->existing).rules;
    synth::SynthesisOptions options = o->synthesis;
    options.representatives_only = !o->all_terms;
    options.merges = !o->no_merges;
    options.pairs = !o->no_pairs;
    if (!o->cache.empty()) options.cache_path = o->cache;
    if (!o->verify_cache.empty()) options.verify.cache_dir = o->verify_cache;
    if (!o->json) options.progress = [](const std::string& line) { std::cerr << line << '\n'; };
    const synth::SynthesisReport report = synth::synthesize(vocabulary, existing, options);
    write_file_atomically(o->output, report.text);
    if (o->json) {
      nlohmann::json out = {{"output", o->output},
                            {"rules", report.rules.size()},
                            {"merges", report.merges},
                            {"candidates", report.candidates},
                            {"derivable", report.derivable},
                            {"verified", report.verified},
                            {"cache_hits", report.cache_hits},
                            {"sample_cache_hits", report.sample_cache_hits},
                            {"verify_cache_hits", report.verify_cache_hits},
                            {"pair_candidates", report.pair_candidates},
                            {"dropped_atoms", report.dropped_atoms},
                            {"rejected", nlohmann::json::array()},
                            {"stages", nlohmann::json::array()},
                            {"seconds",
                             {{"total", report.seconds},
                              {"enumerate", report.enumerate_seconds},
                              {"fingerprint", report.fingerprint_seconds},
                              {"verify", report.verify_seconds},
                              {"derive", report.derive_seconds}}}};
      for (const auto& r : report.rejected)
        out["rejected"].push_back({{"rule", r.rule}, {"reason", r.reason}});
      for (const auto& s : report.stages)
        out["stages"].push_back({{"ops", s.ops},
                                 {"terms", s.terms},
                                 {"well_formed", s.well_formed},
                                 {"distinct", s.kept},
                                 {"truncated", s.truncated},
                                 {"fitting", s.fitting}});
      std::cout << out.dump(2) << '\n';
      return;
    }
    for (const auto& r : report.rejected)
      std::cout << fmt::format("rejected {}: {}\n", r.rule, r.reason);
    std::cout << fmt::format(
        "wrote {} rules to {}: {} candidates, {} derivable from earlier rules, {} rejected; "
        "{:.1f} s (fingerprints {:.1f} s, verification {:.1f} s, derivations {:.1f} s)\n",
        report.rules.size(), o->output, report.candidates, report.derivable, report.rejected.size(),
        report.seconds, report.fingerprint_seconds, report.verify_seconds, report.derive_seconds);
  });
}

void add_derivable(CLI::App& rules) {
  struct Options {
    std::vector<std::string> targets, from;
    verify::DerivationLimits limits;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = rules.add_subcommand(
      "derivable", "Which rules of some files follow from other rules by bounded saturation");
  command->add_option("targets", o->targets, "Rule files or directories to derive")->required();
  command->add_option("--from", o->from, "Rule files or directories to derive them with")
      ->required();
  command->add_option("--iterations", o->limits.iterations, "Saturation iterations per rule")
      ->capture_default_str();
  command->add_option("--nodes", o->limits.nodes, "E-graph nodes per rule at most")
      ->capture_default_str();
  command->add_flag("--json", o->json, "Print JSON");
  command->callback([o] {
    const auto targets = dsl::load_rules_or_throw(o->targets);
    const dsl::RuleSet from(dsl::load_rules_or_throw(o->from).rules);
    nlohmann::json out = {{"rules", nlohmann::json::array()}};
    std::size_t derived = 0, unknown = 0;
    for (const auto& rule : targets.rules) {
      const auto verdict = verify::derivable_at_example(verify::equation_of(rule), from, o->limits);
      const char* text = !verdict ? "no example" : *verdict ? "derivable" : "not derived";
      derived += verdict.value_or(false);
      unknown += !verdict;
      out["rules"].push_back({{"name", rule.name}, {"verdict", text}});
      if (!o->json) std::cout << fmt::format("{:<28} {}\n", rule.name, text);
    }
    out["derivable"] = derived;
    out["total"] = targets.rules.size();
    out["no_example"] = unknown;
    if (o->json)
      std::cout << out.dump(2) << '\n';
    else
      std::cout << fmt::format("{} of {} rules derivable ({} without a concrete example)\n",
                               derived, targets.rules.size(), unknown);
  });
}

}  // namespace

void add_rules_command(CLI::App& app) {
  CLI::App* rules = app.add_subcommand("rules", "Check, format, import and synthesize rule files");
  rules->require_subcommand(1);
  add_check(*rules);
  add_fmt(*rules);
  add_import(*rules);
  add_import_taso_equations(*rules);
  add_synthesize(*rules);
  add_derivable(*rules);
}

}  // namespace mctsat::cli
