// Verifying synthesized rules (see candidate_verification.hpp).
#include "synth/candidate_verification.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dsl/rule_library.hpp"
#include "synth/merge_rules.hpp"

namespace mctsat::synth {
namespace {

std::string failure_reason(const verify::EquationReport& r) {
  std::vector<std::string> parts;
  if (r.shape.verdict == verify::Verdict::kFail) parts.push_back("shape check: " + r.shape.detail);
  if (r.numeric.verdict == verify::Verdict::kFail)
    parts.push_back("numeric test: " + r.numeric.detail);
  if (parts.empty() && r.unverified()) parts.push_back(verify::unverified_reason(r));
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

std::vector<Verified> verify_rules(const std::vector<WrittenRule>& rules,
                                   const verify::VerifyOptions& options) {
  std::vector<Verified> out(rules.size());
  if (rules.empty()) return out;
  std::string text = "ruleset synthesis-candidates\n";
  for (const auto& r : rules) text += rule_text(r, true);
  dsl::Diagnostics diagnostics;
  const dsl::RuleLibrary library = dsl::load_rule_text(text, "<candidates>", diagnostics);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    index[rules[i].name] = i;
    out[i].reason = "the rule checker rejected it:\n" + diagnostics.render();
  }
  const auto reports = verify::verify_library(library, library.rules, {}, options);
  for (const auto& report : reports) {
    Verified& v = out.at(index.at(report.name));
    v.pass = !report.failed();
    v.reason = v.pass ? "" : failure_reason(report);
    v.report = report;
  }
  return out;
}

std::vector<Verified> verify_with_merges(const std::vector<WrittenRule>& rules,
                                         const verify::VerifyOptions& options) {
  std::vector<WrittenRule> all = rules;
  std::vector<std::size_t> merge_of;  // index into `rules`
  for (std::size_t k = 0; k < rules.size(); ++k)
    for (auto& merge : merge_candidates({rules[k]})) {
      all.push_back(std::move(merge));
      merge_of.push_back(k);
    }
  auto results = verify_rules(all, options);
  for (std::size_t m = 0; m < merge_of.size(); ++m) {
    Verified& rule = results[merge_of[m]];
    const Verified& merge = results[rules.size() + m];
    if (rule.pass && !merge.pass) {
      rule.pass = false;
      rule.reason = "its merge rule failed verification: " + merge.reason;
    }
  }
  results.resize(rules.size());
  return results;
}

std::vector<std::vector<std::string>> condition_variants(const CandidateRule& candidate,
                                                         const SynthesisVocabulary& vocabulary) {
  const ShapeConditions conditions = shape_conditions(candidate, vocabulary);
  std::vector<std::vector<std::string>> variants(3, conditions.same_shapes);
  variants[1].insert(variants[1].end(), conditions.dims.begin(), conditions.dims.end());
  variants[2] = variants[1];
  variants[2].insert(variants[2].end(), conditions.ranks.begin(), conditions.ranks.end());
  std::vector<std::vector<std::string>> out;
  for (std::size_t v = 0; v < variants.size(); ++v)
    if (!variants[v].empty() && (v == 0 || variants[v] != variants[v - 1]))
      out.push_back(variants[v]);
  return out;
}

std::vector<std::string> minimal_condition(const WrittenRule& rule, std::vector<std::string> atoms,
                                           const verify::VerifyOptions& options) {
  auto without = [&](const std::vector<std::size_t>& drop, std::string name) {
    WrittenRule r = rule;
    r.name = std::move(name);
    std::vector<std::string> kept;
    for (std::size_t a = 0; a < atoms.size(); ++a)
      if (std::find(drop.begin(), drop.end(), a) == drop.end()) kept.push_back(atoms[a]);
    r.condition = fmt::format("{}", fmt::join(kept, " and "));
    return std::make_pair(r, kept);
  };
  while (atoms.size() > 1) {
    std::vector<WrittenRule> tries;
    for (std::size_t a = 0; a < atoms.size(); ++a)
      tries.push_back(without({a}, fmt::format("m{}", a)).first);
    const auto results = verify_with_merges(tries, options);
    std::vector<std::size_t> droppable;
    for (std::size_t a = 0; a < atoms.size(); ++a)
      if (results[a].pass) droppable.push_back(a);
    if (droppable.empty()) break;
    if (droppable.size() > 1) {
      auto [together, kept] = without(droppable, "m");
      if (verify_with_merges({together}, options)[0].pass) return kept;
    }
    atoms = without({droppable.front()}, "m").second;
  }
  return atoms;
}

}  // namespace mctsat::synth
