// Lowering checked rules to e-graph rewrites over the tensor language: patterns in the encoding of
// tensor/tensor_language.hpp, `where` clauses as conditions over the tensor analysis, and the
// sizes of TENSAT's two-argument splits as binders computed from the matched roots' shapes.
#include "dsl/lowering.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

namespace mctsat::dsl {
namespace {

using egraph::Id;
using egraph::Pattern;
using tensor::TensorAnalysis;
using tensor::TensorData;
using EGraph = egraph::EGraph<TensorAnalysis>;

// An inferred split: the variable its sizes go to, and for output k the right-hand root it
// replaces.
struct InferredSplit {
  egraph::VarId sizes_var = 0;
  const Pat* axis = nullptr;
  std::vector<std::size_t> root_of_output;
};

class Lowerer {
 public:
  explicit Lowerer(const CheckedRule& rule)
      : rule_(rule), next_var_(static_cast<egraph::VarId>(rule.vars.size())) {
    // Assign a variable to every inferred split (identified by its position under a root proj).
    for (std::size_t i = 0; i < rule.rhs.size(); ++i) {
      const Pat& root = rule.rhs[i];
      if (root.kind != Pat::Kind::kProj) continue;
      const Pat& split = root.args[0];
      if (split.kind != Pat::Kind::kOp || split.args.size() != 3 ||
          split.args[1].kind != Pat::Kind::kInferredSizes)
        continue;
      const std::string key = structure(split);
      auto [it, fresh] = splits_.try_emplace(key);
      if (fresh) {
        it->second.sizes_var = next_var_++;
        it->second.axis = &split.args[0];
      }
      auto& outputs = it->second.root_of_output;
      const auto index = static_cast<std::size_t>(root.value);
      if (outputs.size() <= index) outputs.resize(index + 1);
      outputs[index] = i;
    }
  }

  std::unique_ptr<egraph::Rewrite<TensorAnalysis>> lower() {
    std::vector<Pattern> lhs, rhs;
    for (const Pat& p : rule_.lhs) lhs.push_back(pattern(p));
    for (const Pat& p : rule_.rhs) rhs.push_back(pattern(p));
    std::vector<egraph::Condition<TensorAnalysis>> conditions;
    if (rule_.condition) {
      conditions.push_back(
          [cond = *rule_.condition](const EGraph& egraph, std::span<const Id> subst) {
            const auto value = evaluate(cond, egraph, subst);
            return value && *value != 0;
          });
    }
    std::vector<egraph::Binder<TensorAnalysis>> binders;
    for (const auto& [key, split] : splits_) binders.push_back(binder(split));
    // `where` conditions read only shapes and integer literals, which merges never change.
    return std::make_unique<egraph::Rewrite<TensorAnalysis>>(
        rule_.name, std::move(lhs), std::move(rhs), next_var_, std::move(conditions),
        std::move(binders), egraph::ConditionCheck::kSearch);
  }

 private:
  static std::string structure(const Pat& p) {
    std::string out = fmt::format("{}:{}:{}:{}[", static_cast<int>(p.kind), static_cast<int>(p.op),
                                  p.var, p.value);
    for (std::int64_t v : p.ints) out += fmt::format("{},", v);
    out += fmt::format("{}](", p.real);
    for (const Pat& a : p.args) out += structure(a) + " ";
    return out + ")";
  }

  Pattern pattern(const Pat& root) {
    Pattern pattern;
    add(pattern, root);
    return pattern;
  }

  std::uint32_t add(Pattern& pattern, const Pat& p) {
    switch (p.kind) {
      case Pat::Kind::kVar:
        return pattern.var(p.var);
      case Pat::Kind::kInt:
        return tensor::pattern_int(pattern, p.value);
      case Pat::Kind::kFloat:
        return tensor::pattern_float(pattern, p.real);
      case Pat::Kind::kInts:
        return tensor::pattern_ints(pattern, p.ints);
      case Pat::Kind::kInferredSizes:
        MCTSAT_ASSERT(false && "inferred sizes are lowered with their split");
        return 0;
      case Pat::Kind::kProj: {
        const std::uint32_t child = add(pattern, p.args[0]);
        return pattern.node(tensor::kProjOp, p.value, {child});
      }
      case Pat::Kind::kOp: {
        std::vector<std::uint32_t> children;
        for (std::size_t i = 0; i < p.args.size(); ++i) {
          if (p.args[i].kind == Pat::Kind::kInferredSizes) {
            children.push_back(pattern.var(splits_.at(structure(p)).sizes_var));
          } else {
            children.push_back(add(pattern, p.args[i]));
          }
        }
        return pattern.node(tensor::op_code(p.op), 0, std::move(children));
      }
    }
    return 0;
  }

  // sizes[k] = the extent along the split's axis of the left-hand root that output k replaces.
  egraph::Binder<TensorAnalysis> binder(const InferredSplit& split) const {
    const Pat axis = *split.axis;
    auto sizes_term = [split, axis](const EGraph& egraph, std::span<const Id> roots,
                                    std::span<const Id> subst) -> std::optional<Pattern> {
      std::int64_t axis_value = 0;
      if (axis.kind == Pat::Kind::kInt) {
        axis_value = axis.value;
      } else {
        const TensorData& data = egraph.data(subst[axis.var]);
        if (data.kind != tensor::ValueKind::kInt) return std::nullopt;
        axis_value = data.int_value();
      }
      std::vector<std::int64_t> sizes;
      for (std::size_t root : split.root_of_output) {
        const TensorData& data = egraph.data(roots[root]);
        if (!data.is_tensor() || axis_value < 0 || axis_value >= data.rank) return std::nullopt;
        sizes.push_back(data.dims[static_cast<std::size_t>(axis_value)]);
      }
      Pattern term;
      tensor::pattern_ints(term, sizes);
      return term;
    };
    return {split.sizes_var, std::move(sizes_term)};
  }

  // The value of a condition (booleans as 0/1); nullopt when it cannot be evaluated (a dimension
  // out of range, division by zero, overflow, a variable of the wrong kind): the condition then
  // fails.
  static std::optional<std::int64_t> evaluate(const Cond& c, const EGraph& egraph,
                                              std::span<const Id> subst) {
    auto operand = [&](std::size_t i) { return evaluate(c.operands[i], egraph, subst); };
    switch (c.kind) {
      case Cond::Kind::kInt:
        return c.value;
      case Cond::Kind::kVar: {
        const TensorData& data = egraph.data(subst[c.var]);
        if (data.kind != tensor::ValueKind::kInt) return std::nullopt;
        return data.int_value();
      }
      case Cond::Kind::kRank:
      case Cond::Kind::kDim:
      case Cond::Kind::kNumel: {
        const TensorData& data = egraph.data(subst[c.var]);
        if (!data.is_tensor()) return std::nullopt;
        if (c.kind == Cond::Kind::kRank) return data.rank;
        if (c.kind == Cond::Kind::kNumel) {
          std::int64_t n = 1;
          for (std::int64_t d : data.shape())
            if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
          return n;
        }
        const auto index = operand(0);
        if (!index || *index < 0 || *index >= data.rank) return std::nullopt;
        return data.dims[static_cast<std::size_t>(*index)];
      }
      case Cond::Kind::kSameShape: {
        const TensorData &a = egraph.data(subst[c.var]), &b = egraph.data(subst[c.other]);
        if (!a.is_tensor() || !b.is_tensor()) return std::nullopt;
        return std::ranges::equal(a.shape(), b.shape());
      }
      case Cond::Kind::kNeg: {
        const auto v = operand(0);
        if (!v || *v == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
        return -*v;
      }
      case Cond::Kind::kNot: {
        const auto v = operand(0);
        return v ? std::optional<std::int64_t>(*v == 0) : std::nullopt;
      }
      case Cond::Kind::kAnd: {
        const auto a = operand(0);
        if (!a || *a == 0) return a ? std::optional<std::int64_t>(0) : std::nullopt;
        const auto b = operand(1);
        return b ? std::optional<std::int64_t>(*b != 0) : std::nullopt;
      }
      case Cond::Kind::kOr: {
        const auto a = operand(0);
        if (a && *a != 0) return 1;
        const auto b = operand(1);
        return b ? std::optional<std::int64_t>(*b != 0) : std::nullopt;
      }
      case Cond::Kind::kArith:
      case Cond::Kind::kCompare: {
        const auto a = operand(0), b = operand(1);
        if (!a || !b) return std::nullopt;
        const std::string& op = c.op;
        std::int64_t result = 0;
        if (op == "+" || op == "-" || op == "*") {  // nullopt on overflow
          const bool overflow = op == "+"   ? __builtin_add_overflow(*a, *b, &result)
                                : op == "-" ? __builtin_sub_overflow(*a, *b, &result)
                                            : __builtin_mul_overflow(*a, *b, &result);
          if (overflow) return std::nullopt;
          return result;
        }
        if (op == "/" || op == "%") {
          // x / 0 is undefined, and INT64_MIN / -1 overflows (and traps on x86).
          if (*b == 0 || (*a == std::numeric_limits<std::int64_t>::min() && *b == -1))
            return std::nullopt;
          return op == "/" ? *a / *b : *a % *b;
        }
        if (op == "==") return *a == *b;
        if (op == "!=") return *a != *b;
        if (op == "<") return *a < *b;
        if (op == "<=") return *a <= *b;
        if (op == ">") return *a > *b;
        return *a >= *b;
      }
    }
    return std::nullopt;
  }

  const CheckedRule& rule_;
  egraph::VarId next_var_;
  std::map<std::string, InferredSplit> splits_;
};

}  // namespace

std::unique_ptr<egraph::Rewrite<TensorAnalysis>> lower_rule(const CheckedRule& rule) {
  return Lowerer(rule).lower();
}

RuleSet::RuleSet(std::vector<CheckedRule> rules) : rules_(std::move(rules)) {
  for (const CheckedRule& rule : rules_) rewrites_.push_back(lower_rule(rule));
}

void RuleSet::add(CheckedRule rule) {
  rewrites_.push_back(lower_rule(rule));
  rules_.push_back(std::move(rule));
}

std::vector<const egraph::Rewrite<TensorAnalysis>*> RuleSet::rewrites() const {
  std::vector<const egraph::Rewrite<TensorAnalysis>*> out;
  for (const auto& r : rewrites_) out.push_back(r.get());
  return out;
}

}  // namespace mctsat::dsl
