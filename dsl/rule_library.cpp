// Loading rule files with includes, and selecting rules.
#include "dsl/rule_library.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/checker.hpp"
#include "dsl/parser.hpp"
#include "support/files.hpp"

namespace mctsat::dsl {
namespace {

namespace fs = std::filesystem;

class Loader {
 public:
  Loader(RuleLibrary& library, Diagnostics& diagnostics)
      : library_(library), diagnostics_(diagnostics) {}

  void load_path(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> files;
      for (const auto& entry : fs::directory_iterator(path, ec)) {
        if (entry.path().extension() == ".rules") files.push_back(entry.path().string());
      }
      std::sort(files.begin(), files.end());
      if (files.empty())
        diagnostics_.error(SourceLocation::at(path), "the directory holds no .rules file");
      for (const std::string& file : files) load_file(file, {}, {});
      return;
    }
    load_file(path, {}, {});
  }

  void load_text(const std::string& text, const std::string& path) {
    const std::string key = canonical(path);
    done_.insert(key);
    stack_.push_back(key);
    process(text, path, {}, {});
    stack_.pop_back();
  }

  // Duplicate names across everything loaded.
  void check_names() {
    std::map<std::string, SourceLocation> seen;
    auto claim = [&](const std::string& name, const SourceLocation& where) {
      const auto [it, fresh] = seen.emplace(name, where);
      if (!fresh)
        diagnostics_.error(
            where, fmt::format("'{}' is already defined at {}", name, it->second.to_string()));
    };
    for (const CheckedRule& rule : library_.rules) claim(rule.name, rule.where);
    for (const CheckedAxiom& axiom : library_.axioms) claim(axiom.name, axiom.where);
  }

 private:
  static std::string canonical(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    return ec ? path : p.string();
  }

  void load_file(const std::string& path, const SourceLocation& included_at,
                 const std::string& inherited_ruleset) {
    const std::string key = canonical(path);
    if (std::find(stack_.begin(), stack_.end(), key) != stack_.end()) {
      std::string cycle;
      for (auto it = std::find(stack_.begin(), stack_.end(), key); it != stack_.end(); ++it)
        cycle += fs::path(*it).filename().string() + " -> ";
      diagnostics_.error(included_at, fmt::format("include cycle: {}{}", cycle,
                                                  fs::path(key).filename().string()));
      return;
    }
    if (!done_.insert(key).second) return;  // loaded already (e.g. included twice)
    std::string text;
    try {
      text = read_text_file(path);
    } catch (const Error& e) {
      diagnostics_.error(included_at.file.empty() ? e.where() : included_at,
                         e.message() + " (" + path + ")");
      return;
    }
    stack_.push_back(key);
    process(text, path, included_at, inherited_ruleset);
    stack_.pop_back();
  }

  void process(const std::string& text, const std::string& path, const SourceLocation&,
               const std::string& inherited_ruleset) {
    library_.files.push_back(path);
    const RuleFile file = parse_rule_text(text, path, diagnostics_);
    const std::string ruleset = file.ruleset                 ? *file.ruleset
                                : !inherited_ruleset.empty() ? inherited_ruleset
                                                             : fs::path(path).stem().string();
    // Includes first (their rules come before this file's), then this file's items.
    for (const IncludeDecl& include : file.includes) {
      const fs::path target = fs::path(path).parent_path() / include.path;
      load_file(target.string(), include.where, ruleset);
    }
    for (const RuleDecl& rule : file.rules) check_rule(rule, ruleset, diagnostics_, library_.rules);
    for (const AxiomDecl& axiom : file.axioms) {
      if (auto checked = check_axiom(axiom, ruleset, diagnostics_))
        library_.axioms.push_back(std::move(*checked));
    }
  }

  RuleLibrary& library_;
  Diagnostics& diagnostics_;
  std::vector<std::string> stack_;
  std::set<std::string> done_;
};

bool has_any(const std::vector<std::string>& have, const std::vector<std::string>& wanted) {
  return std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
    return std::find(have.begin(), have.end(), w) != have.end();
  });
}

}  // namespace

RuleLibrary load_rule_files(const std::vector<std::string>& paths, Diagnostics& diagnostics) {
  RuleLibrary library;
  Loader loader(library, diagnostics);
  for (const std::string& path : paths) loader.load_path(path);
  loader.check_names();
  return library;
}

RuleLibrary load_rule_text(const std::string& text, const std::string& path,
                           Diagnostics& diagnostics) {
  RuleLibrary library;
  Loader loader(library, diagnostics);
  loader.load_text(text, path);
  loader.check_names();
  return library;
}

RuleLibrary load_rules_or_throw(const std::vector<std::string>& paths) {
  Diagnostics diagnostics;
  RuleLibrary library = load_rule_files(paths, diagnostics);
  diagnostics.throw_if_errors();
  return library;
}

std::vector<std::string> rule_library_names(const std::string& library_root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& folder : fs::directory_iterator(library_root, ec)) {
    if (!folder.is_directory(ec)) continue;
    for (const auto& entry : fs::directory_iterator(folder.path(), ec))
      if (entry.path().extension() == ".rules") {
        names.push_back(folder.path().filename().string());
        break;
      }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> resolve_rule_sources(const std::vector<std::string>& sources,
                                              const std::string& library_root) {
  std::vector<std::string> paths;
  for (const std::string& source : sources) {
    std::error_code ec;
    const bool plain_name = !source.empty() && source.find_first_of("/.") == std::string::npos;
    if (fs::exists(source, ec) || !plain_name) {
      paths.push_back(source);
      continue;
    }
    const std::vector<std::string> libraries = rule_library_names(library_root);
    if (std::find(libraries.begin(), libraries.end(), source) == libraries.end())
      throw Error(
          fmt::format("no rule file, directory or rule library named '{}' (the rule "
                      "libraries in {}: {})",
                      source, library_root,
                      libraries.empty() ? "none" : fmt::format("{}", fmt::join(libraries, ", "))));
    paths.push_back((fs::path(library_root) / source).string());
  }
  return paths;
}

std::vector<CheckedRule> select_rules(const RuleLibrary& library, const RuleSelection& selection) {
  auto require_known = [&](const std::vector<std::string>& wanted, const char* what, auto&& known) {
    for (const std::string& w : wanted) {
      if (!std::any_of(library.rules.begin(), library.rules.end(),
                       [&](const CheckedRule& r) { return known(r, w); }))
        throw Error(fmt::format("no loaded rule has {} '{}'", what, w));
    }
  };
  require_known(selection.rulesets, "ruleset",
                [](const CheckedRule& r, const std::string& w) { return r.ruleset == w; });
  require_known(selection.tags, "tag", [](const CheckedRule& r, const std::string& w) {
    return std::find(r.tags.begin(), r.tags.end(), w) != r.tags.end();
  });
  require_known(selection.exclude_tags, "tag", [](const CheckedRule& r, const std::string& w) {
    return std::find(r.tags.begin(), r.tags.end(), w) != r.tags.end();
  });
  require_known(selection.names, "name",
                [](const CheckedRule& r, const std::string& w) { return r.name == w; });

  std::vector<CheckedRule> out;
  for (const CheckedRule& rule : library.rules) {
    if (!selection.rulesets.empty() &&
        std::find(selection.rulesets.begin(), selection.rulesets.end(), rule.ruleset) ==
            selection.rulesets.end())
      continue;
    if (!selection.tags.empty() && !has_any(rule.tags, selection.tags)) continue;
    if (has_any(rule.tags, selection.exclude_tags)) continue;
    if (!selection.names.empty() && std::find(selection.names.begin(), selection.names.end(),
                                              rule.name) == selection.names.end())
      continue;
    out.push_back(rule);
  }
  return out;
}

}  // namespace mctsat::dsl
