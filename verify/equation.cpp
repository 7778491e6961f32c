// Rules and axioms as equations, and their canonical text.
#include "verify/equation.hpp"

#include <fmt/format.h>

namespace mctsat::verify {

Equation equation_of(const dsl::CheckedRule& rule) {
  return {rule.name, false, rule.where, rule.vars, rule.lhs, rule.rhs, rule.condition};
}

Equation equation_of(const dsl::CheckedAxiom& axiom) {
  return {axiom.name, true, axiom.where, axiom.vars, {axiom.lhs}, {axiom.rhs}, axiom.condition};
}

bool is_short_split(const dsl::Pat& p, const std::vector<dsl::Variable>& vars) {
  if (p.kind != dsl::Pat::Kind::kOp || p.op != tensor::Op::kSplit || p.args.size() != 3)
    return false;
  const dsl::Pat& sizes = p.args[1];
  return sizes.kind == dsl::Pat::Kind::kInferredSizes ||
         (sizes.kind == dsl::Pat::Kind::kVar && vars[sizes.var].name.starts_with("_sizes"));
}

std::vector<InferredSplitOutput> inferred_split_outputs(const Equation& e) {
  std::vector<InferredSplitOutput> out;
  for (std::size_t r = 0; r < e.rhs.size() && r < e.lhs.size(); ++r) {
    const dsl::Pat& root = e.rhs[r];
    if (root.kind != dsl::Pat::Kind::kProj) continue;
    const dsl::Pat& split = root.args[0];
    if (split.kind != dsl::Pat::Kind::kOp || split.args.size() != 3 ||
        split.args[1].kind != dsl::Pat::Kind::kInferredSizes)
      continue;
    out.push_back({r, static_cast<std::size_t>(root.value), &split, pattern_text(split, e.vars)});
  }
  return out;
}

std::string pattern_text(const dsl::Pat& p, const std::vector<dsl::Variable>& vars) {
  using Kind = dsl::Pat::Kind;
  switch (p.kind) {
    case Kind::kVar:
      return "?" + vars[p.var].name;
    case Kind::kInt:
      return std::to_string(p.value);
    case Kind::kInts:
      return fmt::format("[{}]", fmt::join(p.ints, ", "));
    case Kind::kFloat:
      return fmt::format("{}", p.real);
    case Kind::kInferredSizes:
      return "<sizes>";
    case Kind::kProj:
      return fmt::format("(split_{} {})", p.value, pattern_text(p.args[0], vars));
    case Kind::kOp: {
      std::string out = fmt::format("({}", tensor::op_name(p.op));
      const bool short_split = is_short_split(p, vars);
      for (std::size_t i = 0; i < p.args.size(); ++i) {
        if (short_split && i == 1) continue;
        out += " " + pattern_text(p.args[i], vars);
      }
      return out + ")";
    }
  }
  return {};
}

std::string condition_text(const dsl::Cond& c, const std::vector<dsl::Variable>& vars) {
  using Kind = dsl::Cond::Kind;
  auto operand = [&](std::size_t i) { return condition_text(c.operands[i], vars); };
  switch (c.kind) {
    case Kind::kInt:
      return std::to_string(c.value);
    case Kind::kVar:
      return "?" + vars[c.var].name;
    case Kind::kRank:
      return fmt::format("rank(?{})", vars[c.var].name);
    case Kind::kNumel:
      return fmt::format("numel(?{})", vars[c.var].name);
    case Kind::kDim:
      return fmt::format("dim(?{}, {})", vars[c.var].name, operand(0));
    case Kind::kSameShape:
      return fmt::format("same_shape(?{}, ?{})", vars[c.var].name, vars[c.other].name);
    case Kind::kNeg:
      return "-" + operand(0);
    case Kind::kNot:
      return "not " + operand(0);
    case Kind::kAnd:
      return fmt::format("({} and {})", operand(0), operand(1));
    case Kind::kOr:
      return fmt::format("({} or {})", operand(0), operand(1));
    case Kind::kArith:
    case Kind::kCompare:
      return fmt::format("({} {} {})", operand(0), c.op, operand(1));
  }
  return {};
}

std::string equation_text(const Equation& e) {
  std::vector<std::string> lhs, rhs;
  for (const auto& p : e.lhs) lhs.push_back(pattern_text(p, e.vars));
  for (const auto& p : e.rhs) rhs.push_back(pattern_text(p, e.vars));
  std::string text =
      fmt::format("{} {} {}", fmt::join(lhs, ", "), e.axiom ? "==" : "=>", fmt::join(rhs, ", "));
  if (e.condition) text += " where " + condition_text(*e.condition, e.vars);
  return text;
}

}  // namespace mctsat::verify
