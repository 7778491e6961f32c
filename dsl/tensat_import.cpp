// Reading TENSAT's rule formats.
#include "dsl/tensat_import.hpp"

#include <set>
#include <sstream>

#include <fmt/format.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"

namespace mctsat::dsl {
namespace {

void collect_ops(const Term& t, std::set<std::string>& ops) {
  if (t.kind != Term::Kind::kApply) return;
  if (t.name.rfind("split_", 0) != 0) ops.insert(t.name);
  for (const Term& a : t.args) collect_ops(a, ops);
}

struct Line {
  std::uint32_t number;
  std::string text;
};

}  // namespace

std::vector<RuleDecl> import_tensat_rules(const std::string& text, const std::string& path,
                                          bool multi, const std::string& prefix,
                                          Diagnostics& diagnostics) {
  diagnostics.add_source(path, text);
  std::vector<Line> lines;
  std::istringstream in(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back({number, line});
  }
  if (multi && lines.size() % 2 != 0)
    diagnostics.error(SourceLocation::at(path),
                      fmt::format("a multi-pattern file holds two lines per rule, but it "
                                  "has {} non-empty lines",
                                  lines.size()));
  std::vector<RuleDecl> rules;
  const std::size_t per_rule = multi ? 2 : 1;
  for (std::size_t first = 0; first + per_rule <= lines.size(); first += per_rule) {
    RuleDecl rule;
    rule.name = fmt::format("{}-{}", prefix, rules.size() + 1);
    rule.where = SourceLocation::at(path, lines[first].number, 1);
    bool ok = true;
    for (std::size_t k = 0; k < per_rule; ++k) {
      const Line& l = lines[first + k];
      const auto arrow = l.text.find("=>");
      if (arrow == std::string::npos) {
        diagnostics.error(SourceLocation::at(path, l.number, 1), "expected 'lhs=>rhs'");
        ok = false;
        continue;
      }
      auto lhs =
          parse_term_text(std::string_view(l.text).substr(0, arrow), path, l.number, diagnostics);
      auto rhs =
          parse_term_text(std::string_view(l.text).substr(arrow + 2), path, l.number, diagnostics);
      if (!lhs || !rhs) {
        ok = false;
        continue;
      }
      rule.lhs.push_back(std::move(*lhs));
      rule.rhs.push_back(std::move(*rhs));
    }
    if (!ok) continue;
    std::set<std::string> ops;
    for (const Term& t : rule.lhs) collect_ops(t, ops);
    for (const Term& t : rule.rhs) collect_ops(t, ops);
    rule.tags.push_back("tensat");
    if (multi) rule.tags.push_back("multi");
    rule.tags.insert(rule.tags.end(), ops.begin(), ops.end());
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::string tensat_rules_to_dsl(const std::vector<RuleDecl>& rules, const std::string& ruleset) {
  std::string out = fmt::format(
      "# Imported from TENSAT's rule format by `mctsat rules import-tensat`.\n\nruleset {}\n",
      ruleset);
  for (const RuleDecl& rule : rules) out += "\n" + format_rule(rule);
  return out;
}

}  // namespace mctsat::dsl
