// Loading rule files: files and directories (every *.rules file in it, sorted), includes
// relative to the including file (each file loaded once; cycles are errors), rulesets, duplicate
// names, and selection of rules by ruleset and tag for ablations. Everything is checked; errors
// from all files are reported together.
#pragma once

#include <string>
#include <vector>

#include "dsl/checked_rule.hpp"
#include "dsl/diagnostics.hpp"

namespace mctsat::dsl {

struct RuleLibrary {
  std::vector<CheckedRule> rules;    // in load order
  std::vector<CheckedAxiom> axioms;  // in load order
  std::vector<std::string> files;    // every file read, in load order
};

// Loads and checks; diagnostics collect every problem (call throw_if_errors() to stop on them).
RuleLibrary load_rule_files(const std::vector<std::string>& paths, Diagnostics& diagnostics);
// The same for text in memory (includes are resolved relative to `path`'s directory on disk).
RuleLibrary load_rule_text(const std::string& text, const std::string& path,
                           Diagnostics& diagnostics);

// Loads, throws an Error listing every diagnostic if any error occurred.
RuleLibrary load_rules_or_throw(const std::vector<std::string>& paths);

// The rule libraries of a library root (the repository's rules/, installed beside mctsat): the
// names of its folders that hold .rules files, sorted ("exporters", "extended", "taso").
std::vector<std::string> rule_library_names(const std::string& library_root);

// Rule sources as users give them (`--rules taso,extended`, paths, or both) as paths to load:
// an existing file or directory is itself; else a plain name (no '/' or '.') of a library under
// `library_root` is that library's folder; else a plain name is an Error that lists the
// libraries, and any other path is kept (loading it reports it missing, located).
std::vector<std::string> resolve_rule_sources(const std::vector<std::string>& sources,
                                              const std::string& library_root);

struct RuleSelection {
  std::vector<std::string> rulesets;      // keep rules of these rulesets (empty: all)
  std::vector<std::string> tags;          // keep rules with at least one of these tags (empty: all)
  std::vector<std::string> exclude_tags;  // drop rules with any of these tags
  std::vector<std::string> names;         // keep only these rules (empty: all)
};
// The selected rules, in library order. Unknown ruleset, tag or rule names are errors.
std::vector<CheckedRule> select_rules(const RuleLibrary& library, const RuleSelection& selection);

}  // namespace mctsat::dsl
