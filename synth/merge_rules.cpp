// Two-output merge rules from concat equalities (see merge_rules.hpp).
#include "synth/merge_rules.hpp"

#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"

namespace mctsat::synth {
namespace {

std::optional<dsl::Term> parse(const std::string& text) {
  dsl::Diagnostics diagnostics;
  auto term = dsl::parse_term_text(text, "<synthesized>", 1, diagnostics);
  if (diagnostics.has_errors()) return std::nullopt;
  return term;
}

void variables(const dsl::Term& t, std::set<std::string>& out) {
  if (t.kind == dsl::Term::Kind::kVar) out.insert(t.name);
  for (const auto& a : t.args) variables(a, out);
}

bool is_concat(const dsl::Term& t) {
  return t.kind == dsl::Term::Kind::kApply && t.name == "concat";
}

// Whether two operator terms apply the same operator with the same attributes.
bool same_operator(const dsl::Term& a, const dsl::Term& b) {
  if (a.name != b.name || a.args.size() != b.args.size()) return false;
  for (std::size_t i = 0; i < a.args.size(); ++i) {
    const bool attribute_a =
        a.args[i].kind != dsl::Term::Kind::kApply && a.args[i].kind != dsl::Term::Kind::kVar;
    if (attribute_a && dsl::format_term(a.args[i]) != dsl::format_term(b.args[i])) return false;
  }
  return true;
}

// "A, B => split..." when `pair` is (concat axis n A B) over operator terms sharing a variable
// or applying the same operator, and `whole` is not a concat.
std::optional<WrittenRule> merge_of(const dsl::Term& pair, const dsl::Term& whole,
                                    const std::string& name) {
  if (!is_concat(pair) || is_concat(whole) || pair.args.size() != 4) return std::nullopt;
  if (pair.args[0].kind != dsl::Term::Kind::kInt) return std::nullopt;
  const dsl::Term& a = pair.args[2];
  const dsl::Term& b = pair.args[3];
  if (a.kind != dsl::Term::Kind::kApply || b.kind != dsl::Term::Kind::kApply) return std::nullopt;
  if (dsl::format_term(a) == dsl::format_term(b)) return std::nullopt;  // one graph, not a pair
  std::set<std::string> in_a, in_b, in_whole;
  variables(a, in_a);
  variables(b, in_b);
  variables(whole, in_whole);
  bool shared = false;
  for (const auto& v : in_a) shared |= in_b.count(v) > 0;
  std::set<std::string> in_pair = in_a;
  in_pair.insert(in_b.begin(), in_b.end());
  if (!(shared || same_operator(a, b)) || in_pair != in_whole) return std::nullopt;
  WrittenRule rule;
  rule.name = name;
  rule.lhs = fmt::format("{}, {}", dsl::format_term(a), dsl::format_term(b));
  const std::string split =
      fmt::format("(split {} {})", pair.args[0].int_value, dsl::format_term(whole));
  rule.rhs = fmt::format("(split_0 {}), (split_1 {})", split, split);
  return rule;
}

}  // namespace

std::vector<WrittenRule> merge_candidates(const std::vector<WrittenRule>& rules) {
  std::vector<WrittenRule> out;
  std::set<std::string> seen;
  for (const auto& rule : rules) {
    const auto lhs = parse(rule.lhs);
    const auto rhs = parse(rule.rhs);
    if (!lhs || !rhs) continue;
    auto merge = merge_of(*lhs, *rhs, rule.name + "-merge");
    if (!merge) merge = merge_of(*rhs, *lhs, rule.name + "-merge");
    if (!merge) continue;
    merge->condition = rule.condition;
    if (seen.insert(merge->lhs + " => " + merge->rhs).second) out.push_back(std::move(*merge));
  }
  return out;
}

}  // namespace mctsat::synth
