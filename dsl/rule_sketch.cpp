// A rule's operators at a glance (see rule_sketch.hpp).
#include "dsl/rule_sketch.hpp"

#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tensor/op.hpp"

namespace mctsat::dsl {
namespace {

constexpr int kSketchDepth = 3;

bool is_term(const Pat& p) { return p.kind == Pat::Kind::kOp || p.kind == Pat::Kind::kProj; }

std::string term_sketch(const Pat& p, int depth) {
  if (p.kind == Pat::Kind::kProj) return term_sketch(p.args.at(0), depth);
  const std::string name(tensor::op_name(p.op));
  std::vector<std::string> inner;
  for (const Pat& a : p.args) {
    if (!is_term(a)) continue;
    if (depth == 1) return name + "(..)";
    inner.push_back(term_sketch(a, depth - 1));
  }
  return inner.empty() ? name : fmt::format("{}({})", name, fmt::join(inner, ", "));
}

// A side's roots; a variable root (`=> ?x`) shows as the variable.
std::string side_sketch(const CheckedRule& rule, const std::vector<Pat>& side) {
  std::vector<std::string> terms;
  for (const Pat& p : side) {
    std::string term = is_term(p) ? term_sketch(p, kSketchDepth) : "?" + rule.vars.at(p.var).name;
    // The projections of one multi-output term read alike: shown once.
    if (p.kind == Pat::Kind::kProj && !terms.empty() && terms.back() == term) continue;
    terms.push_back(std::move(term));
  }
  return fmt::format("{}", fmt::join(terms, ", "));
}

}  // namespace

std::string rule_sketch(const CheckedRule& rule) {
  return side_sketch(rule, rule.lhs) + " -> " + side_sketch(rule, rule.rhs);
}

}  // namespace mctsat::dsl
