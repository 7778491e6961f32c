// Synthesized rules as DSL text (see rule_writing.hpp).
#include "synth/rule_writing.hpp"

#include <fmt/format.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "support/error.hpp"

namespace mctsat::synth {

std::string rule_text(const WrittenRule& rule, bool one_way) {
  return fmt::format("rule {}: {} {} {}{}\n", rule.name, rule.lhs,
                     rule.bidirectional && !one_way ? "<=>" : "=>", rule.rhs,
                     rule.condition.empty() ? "" : " where " + rule.condition);
}

std::string synthesized_rule_file(const std::vector<WrittenRule>& rules, const std::string& ruleset,
                                  const std::vector<std::string>& header) {
  std::string text = fmt::format("ruleset {}\n", ruleset);
  for (const auto& rule : rules) text += rule_text(rule, false);
  dsl::Diagnostics diagnostics;
  dsl::RuleFile file = dsl::parse_rule_text(text, "<synthesized>", diagnostics);
  if (diagnostics.has_errors() || file.rules.size() != rules.size())
    throw Error("synthesized rules do not parse:\n" + diagnostics.render());
  for (std::size_t i = 0; i < rules.size(); ++i) file.rules[i].tags = rules[i].tags;
  for (auto& item : file.items) {
    if (item.kind == dsl::Item::Kind::kRuleset) {
      for (const auto& line : header) item.comments.push_back(line.empty() ? "#" : "# " + line);
    } else if (item.kind == dsl::Item::Kind::kRule) {
      for (const auto& line : rules[item.index].comments) item.comments.push_back("# " + line);
    }
  }
  return dsl::format_rule_file(file);
}

}  // namespace mctsat::synth
