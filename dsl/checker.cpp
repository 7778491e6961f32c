// Checking parsed rules and axioms against the operator catalog: operator names and arities,
// tensor versus attribute positions, variable sorts and binding, TENSAT's two-argument split and
// split_N projections, typed conditions, and unused variables (a warning).
#include "dsl/checker.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>

#include "dsl/pattern_text.hpp"
#include "support/suggest.hpp"

namespace mctsat::dsl {
namespace {

Sort sort_of(tensor::ParamKind kind) {
  switch (kind) {
    case tensor::ParamKind::kTensor:
      return Sort::kTensor;
    case tensor::ParamKind::kInt:
      return Sort::kInt;
    case tensor::ParamKind::kInts:
      return Sort::kInts;
    default:
      return Sort::kFloat;
  }
}

const char* article(Sort sort) {
  return sort == Sort::kInt || sort == Sort::kInts ? "an" : "a";
}

// TENSAT's projection names: split_0, split_1, ...
std::optional<std::int64_t> projection_index(const std::string& name) {
  constexpr std::string_view kPrefix = "split_";
  if (name.size() <= kPrefix.size() || name.compare(0, kPrefix.size(), kPrefix) != 0)
    return std::nullopt;
  std::int64_t index = 0;
  const char* begin = name.data() + kPrefix.size();
  const auto [end, ec] = std::from_chars(begin, name.data() + name.size(), index);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return index;
}

class RuleChecker {
 public:
  RuleChecker(Diagnostics& diagnostics, bool report) : diagnostics_(diagnostics), report_(report) {}

  // Binding mode: on a rule's left-hand side (and both sides of an axiom) variables are bound by
  // their first occurrence; on a right-hand side they must already be bound.
  enum class Side { kBinding, kUsing };

  std::vector<Variable> vars;
  bool ok = true;
  std::vector<std::string> declared;  // axioms with forall: the declared variables
  bool check_declared = false;

  Pat term(const Term& t, Sort expected, Side side, const std::string& context) {
    Pat p;
    p.where = t.where;
    p.sort = expected;
    switch (t.kind) {
      case Term::Kind::kVar:
        p.kind = Pat::Kind::kVar;
        p.var = variable(t.name, expected, t.where, side);
        return p;
      case Term::Kind::kInt:
        if (expected == Sort::kFloat) {
          p.kind = Pat::Kind::kFloat;
          p.real = static_cast<double>(t.int_value);
          return p;
        }
        p.kind = Pat::Kind::kInt;
        p.value = t.int_value;
        if (expected != Sort::kInt) mismatch(t.where, context, expected, "an integer");
        return p;
      case Term::Kind::kFloat:
        p.kind = Pat::Kind::kFloat;
        p.real = t.float_value;
        if (expected != Sort::kFloat) mismatch(t.where, context, expected, "a real number");
        return p;
      case Term::Kind::kList:
        p.kind = Pat::Kind::kInts;
        p.ints = t.list;
        if (expected != Sort::kInts) mismatch(t.where, context, expected, "an integer list");
        return p;
      case Term::Kind::kApply:
        return application(t, expected, side, context);
    }
    return p;
  }

  Cond condition(const Expr& e, bool want_bool) {
    Cond c;
    c.where = e.where;
    bool is_bool = false;
    switch (e.kind) {
      case Expr::Kind::kInt:
        c.kind = Cond::Kind::kInt;
        c.value = e.value;
        break;
      case Expr::Kind::kVar: {
        c.kind = Cond::Kind::kVar;
        const auto found = find_var(e.name);
        if (!found) {
          error(e.where,
                fmt::format("?{} in the condition is not bound by the left-hand side", e.name));
        } else if (vars[*found].sort != Sort::kInt) {
          error(e.where, fmt::format("?{} is {} {}: conditions use integers{}", e.name,
                                     article(vars[*found].sort), sort_name(vars[*found].sort),
                                     vars[*found].sort == Sort::kTensor
                                         ? " (try rank(?x), dim(?x, i), numel(?x))"
                                         : ""));
        } else {
          c.var = *found;
        }
        break;
      }
      case Expr::Kind::kCall:
        c = call(e);
        is_bool = c.kind == Cond::Kind::kSameShape;
        break;
      case Expr::Kind::kNeg:
        c.kind = Cond::Kind::kNeg;
        c.operands.push_back(condition(e.operands.at(0), false));
        break;
      case Expr::Kind::kNot:
        c.kind = Cond::Kind::kNot;
        c.operands.push_back(condition(e.operands.at(0), true));
        is_bool = true;
        break;
      case Expr::Kind::kBinary: {
        c.op = e.name;
        const bool logical = e.name == "and" || e.name == "or";
        const bool compare =
            !logical && (e.name == "==" || e.name == "!=" || e.name[0] == '<' || e.name[0] == '>');
        c.kind = logical ? (e.name == "and" ? Cond::Kind::kAnd : Cond::Kind::kOr)
                         : (compare ? Cond::Kind::kCompare : Cond::Kind::kArith);
        for (const Expr& operand : e.operands) c.operands.push_back(condition(operand, logical));
        is_bool = logical || compare;
        break;
      }
    }
    if (want_bool && !is_bool)
      error(e.where, "expected a condition (a comparison, or conditions joined by and/or/not)");
    if (!want_bool && is_bool) error(e.where, "expected an integer expression, got a condition");
    return c;
  }

  std::optional<VarIndex> find_var(const std::string& name) const {
    for (VarIndex i = 0; i < vars.size(); ++i) {
      if (vars[i].name == name) return i;
    }
    return std::nullopt;
  }

  void error(const SourceLocation& where, std::string message) {
    ok = false;
    if (report_) diagnostics_.error(where, std::move(message));
  }

  // Right-hand sides only: the two-argument splits whose sizes must be inferred are allowed only
  // as right-hand roots of the form (split_k (split axis x)), covering outputs 0..n-1 once each.
  void check_inferred_splits(const std::vector<Pat>& rhs) {
    std::map<std::string, std::vector<std::int64_t>> outputs;
    for (const Pat& root : rhs) {
      if (root.kind == Pat::Kind::kProj && root.args[0].kind == Pat::Kind::kOp &&
          inferred(root.args[0])) {
        outputs[pattern_text(root.args[0])].push_back(root.value);
        for (const Pat& arg : root.args[0].args) reject_nested_inferred(arg);
      } else {
        reject_nested_inferred(root);
      }
    }
    for (auto& [split, indices] : outputs) {
      std::sort(indices.begin(), indices.end());
      for (std::size_t i = 0; i < indices.size(); ++i) {
        if (indices[i] != static_cast<std::int64_t>(i)) {
          error(rhs.front().where,
                "the right-hand roots must take outputs 0, 1, ... of a two-argument split exactly "
                "once each, so "
                "that its sizes follow from the left-hand sides");
          return;
        }
      }
    }
  }

 private:
  static bool inferred(const Pat& p) {
    return p.op == tensor::Op::kSplit && p.args.size() == 3 &&
           p.args[1].kind == Pat::Kind::kInferredSizes;
  }

  void reject_nested_inferred(const Pat& p) {
    if (p.kind == Pat::Kind::kOp && inferred(p)) {
      error(p.where,
            "cannot infer the sizes of this split: give them, (split axis [s1, s2] x), or use it "
            "only as "
            "(split_0 ...), (split_1 ...) right-hand roots");
    }
    for (const Pat& a : p.args) reject_nested_inferred(a);
  }

  void mismatch(const SourceLocation& where, const std::string& context, Sort expected,
                const std::string& got) {
    error(where, fmt::format("{} must be {} {}, got {}", context, article(expected),
                             sort_name(expected), got));
  }

  VarIndex variable(const std::string& name, Sort sort, const SourceLocation& where, Side side) {
    if (const auto found = find_var(name)) {
      const Variable& v = vars[*found];
      if (v.sort != sort)
        error(where, fmt::format("?{} is used as {} {} here but as {} {} at {}:{}", name,
                                 article(sort), sort_name(sort), article(v.sort), sort_name(v.sort),
                                 v.where.line, v.where.column));
      return *found;
    }
    if (side == Side::kUsing)
      error(where,
            fmt::format("?{} on the right-hand side is not bound by the left-hand side", name));
    if (check_declared && std::find(declared.begin(), declared.end(), name) == declared.end())
      error(where, fmt::format("?{} is not declared in the axiom's forall", name));
    vars.push_back({name, sort, where});
    return static_cast<VarIndex>(vars.size() - 1);
  }

  Pat application(const Term& t, Sort expected, Side side, const std::string& context) {
    Pat p;
    p.where = t.where;
    p.sort = expected;
    if (const auto index = projection_index(t.name)) {
      p.kind = Pat::Kind::kProj;
      p.value = *index;
      if (expected != Sort::kTensor)
        mismatch(t.where, context, expected, fmt::format("a {} term", t.name));
      if (t.args.size() != 1) {
        error(t.where, fmt::format("{} takes 1 argument (a split), got {}", t.name, t.args.size()));
        return p;
      }
      p.args.push_back(
          term(t.args[0], Sort::kTuple, side, fmt::format("the argument of {}", t.name)));
      return p;
    }
    const auto op = tensor::find_op(t.name);
    if (!op) {
      std::vector<std::string> names;  // what the rules may use, for "did you mean"
      for (const auto& sig : tensor::all_signatures())
        if (sig.op != tensor::Op::kInput && sig.op != tensor::Op::kWeight &&
            sig.op != tensor::Op::kOpaque)
          names.emplace_back(sig.name);
      error(t.where, fmt::format("unknown operator '{}'{}", t.name, did_you_mean(t.name, names)));
      return p;
    }
    if (*op == tensor::Op::kInput || *op == tensor::Op::kWeight || *op == tensor::Op::kOpaque) {
      error(t.where, fmt::format("'{}' cannot appear in rules", t.name));
      return p;
    }
    p.kind = Pat::Kind::kOp;
    p.op = *op;
    const Sort result = *op == tensor::Op::kSplit ? Sort::kTuple : Sort::kTensor;
    if (expected != result) mismatch(t.where, context, expected, fmt::format("a {} term", t.name));

    const tensor::OpSignature& sig = tensor::signature(*op);
    std::vector<const Term*> args;
    for (const Term& a : t.args) args.push_back(&a);
    // TENSAT's (split axis x): the sizes are a fresh variable on a binding side, inferred on a
    // right-hand side.
    const bool short_split = *op == tensor::Op::kSplit && args.size() == 2;
    if (short_split) args.insert(args.begin() + 1, nullptr);

    const std::size_t want = sig.params.size();
    if (sig.variadic() ? args.size() < want : args.size() != want) {
      std::string params;
      for (const auto& param : sig.params)
        params += fmt::format("{}{}{}", params.empty() ? "" : " ", param.name,
                              param.variadic ? "..." : "");
      error(t.where, fmt::format("{} takes {}{} argument{} ({}), got {}", t.name,
                                 sig.variadic() ? "at least " : "", want, want == 1 ? "" : "s",
                                 params, t.args.size()));
      return p;
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
      const tensor::Param& param = sig.params[std::min(i, want - 1)];
      if (args[i] == nullptr) {
        Pat sizes;
        sizes.where = t.where;
        sizes.sort = Sort::kInts;
        if (side == Side::kUsing) {
          sizes.kind = Pat::Kind::kInferredSizes;
        } else {
          sizes.kind = Pat::Kind::kVar;
          vars.push_back({fmt::format("_sizes{}", vars.size()), Sort::kInts, t.where});
          sizes.var = static_cast<VarIndex>(vars.size() - 1);
        }
        p.args.push_back(std::move(sizes));
        continue;
      }
      p.args.push_back(term(*args[i], sort_of(param.kind), side,
                            fmt::format("argument {} of {} ({})", i + 1 - (short_split && i > 1),
                                        t.name, param.name)));
      // A literal attribute outside the catalog's range (a stride of 0) could never be well-formed.
      const Pat& literal = p.args.back();
      if (param.kind == tensor::ParamKind::kInt && literal.kind == Pat::Kind::kInt &&
          (literal.value < param.min || literal.value > param.max))
        error(literal.where, fmt::format("argument {} of {} ({}) must be from {} to {}, got {}",
                                         i + 1 - (short_split && i > 1), t.name, param.name,
                                         param.min, param.max, literal.value));
    }
    return p;
  }

  Cond call(const Expr& e) {
    Cond c;
    c.where = e.where;
    c.kind = e.name == "rank"         ? Cond::Kind::kRank
             : e.name == "dim"        ? Cond::Kind::kDim
             : e.name == "same_shape" ? Cond::Kind::kSameShape
                                      : Cond::Kind::kNumel;
    const std::size_t want = c.kind == Cond::Kind::kDim || c.kind == Cond::Kind::kSameShape ? 2 : 1;
    if (e.operands.size() != want) {
      error(e.where, fmt::format("{} takes {} argument{}, got {}", e.name, want,
                                 want == 1 ? "" : "s", e.operands.size()));
      return c;
    }
    c.var = tensor_variable(e, e.operands[0]);
    if (c.kind == Cond::Kind::kDim) c.operands.push_back(condition(e.operands[1], false));
    if (c.kind == Cond::Kind::kSameShape) c.other = tensor_variable(e, e.operands[1]);
    return c;
  }

  // The tensor variable a call takes as `subject` (errors otherwise).
  VarIndex tensor_variable(const Expr& call, const Expr& subject) {
    const auto found = subject.kind == Expr::Kind::kVar ? find_var(subject.name) : std::nullopt;
    if (subject.kind != Expr::Kind::kVar) {
      error(subject.where, fmt::format("{} takes a tensor variable", call.name));
    } else if (!found) {
      error(subject.where,
            fmt::format("?{} in the condition is not bound by the left-hand side", subject.name));
    } else if (vars[*found].sort != Sort::kTensor) {
      error(subject.where,
            fmt::format("{} takes a tensor, but ?{} is {} {}", call.name, subject.name,
                        article(vars[*found].sort), sort_name(vars[*found].sort)));
    } else {
      return *found;
    }
    return 0;
  }

  Diagnostics& diagnostics_;
  bool report_;
};

// Counts variable occurrences in a checked term or condition.
void count(const Pat& p, std::vector<int>& uses) {
  if (p.kind == Pat::Kind::kVar) ++uses[p.var];
  for (const Pat& a : p.args) count(a, uses);
}
void count(const Cond& c, std::vector<int>& uses) {
  if (c.kind == Cond::Kind::kVar || c.kind == Cond::Kind::kRank || c.kind == Cond::Kind::kDim ||
      c.kind == Cond::Kind::kNumel || c.kind == Cond::Kind::kSameShape)
    ++uses[c.var];
  if (c.kind == Cond::Kind::kSameShape) ++uses[c.other];
  for (const Cond& o : c.operands) count(o, uses);
}

std::optional<CheckedRule> check_direction(const RuleDecl& decl, const std::vector<Term>& lhs,
                                           const std::vector<Term>& rhs, bool reversed,
                                           const std::string& ruleset, Diagnostics& diagnostics,
                                           bool report) {
  RuleChecker checker(diagnostics, report);
  CheckedRule rule;
  rule.name = reversed ? decl.name + "-reverse" : decl.name;
  rule.ruleset = ruleset;
  rule.tags = decl.tags;
  rule.verified = decl.verified;
  rule.where = decl.where;
  rule.reversed = reversed;
  // A multi-pattern rule joins the matches of all its left-hand sides (their product where they
  // share no variable), and verification pairs them: TENSAT's rules have two, ours up to three.
  constexpr std::size_t kMaxSides = 16;
  if (lhs.size() > kMaxSides) {
    checker.error(decl.where, fmt::format("the rule has {} left-hand sides; a rule has at most {} "
                                          "(the matches of all of them are joined)",
                                          lhs.size(), kMaxSides));
    return std::nullopt;
  }
  if (lhs.size() != rhs.size()) {
    checker.error(
        decl.where,
        fmt::format("the rule has {} left-hand side{} but {} right-hand side{}", lhs.size(),
                    lhs.size() == 1 ? "" : "s", rhs.size(), rhs.size() == 1 ? "" : "s"));
    return std::nullopt;
  }
  for (std::size_t i = 0; i < lhs.size(); ++i) {
    rule.lhs.push_back(checker.term(
        lhs[i], Sort::kTensor, RuleChecker::Side::kBinding,
        lhs.size() == 1 ? "the left-hand side" : fmt::format("left-hand side {}", i + 1)));
    if (lhs[i].kind == Term::Kind::kVar && lhs.size() == 1)
      checker.error(lhs[i].where,
                    "a left-hand side that is a lone variable would match everything");
  }
  if (!checker.ok) return std::nullopt;  // right-hand errors would only echo left-hand ones
  for (std::size_t i = 0; i < rhs.size(); ++i)
    rule.rhs.push_back(checker.term(
        rhs[i], Sort::kTensor, RuleChecker::Side::kUsing,
        rhs.size() == 1 ? "the right-hand side" : fmt::format("right-hand side {}", i + 1)));
  if (checker.ok) checker.check_inferred_splits(rule.rhs);
  if (decl.condition) rule.condition = checker.condition(*decl.condition, true);
  if (!checker.ok) return std::nullopt;
  rule.vars = checker.vars;
  if (report) {
    std::vector<int> uses(rule.vars.size(), 0);
    for (const Pat& p : rule.lhs) count(p, uses);
    for (const Pat& p : rule.rhs) count(p, uses);
    if (rule.condition) count(*rule.condition, uses);
    for (VarIndex v = 0; v < rule.vars.size(); ++v) {
      if (uses[v] == 1 && rule.vars[v].name[0] != '_')  // ?_name: deliberately unused
        diagnostics.warning(rule.vars[v].where,
                            fmt::format("?{} is bound but never used", rule.vars[v].name));
    }
  }
  return rule;
}

}  // namespace

const char* sort_name(Sort sort) {
  switch (sort) {
    case Sort::kTensor:
      return "tensor";
    case Sort::kTuple:
      return "tuple";
    case Sort::kInt:
      return "integer";
    case Sort::kInts:
      return "integer list";
    default:
      return "number";
  }
}

void check_rule(const RuleDecl& decl, const std::string& ruleset, Diagnostics& diagnostics,
                std::vector<CheckedRule>& out) {
  auto forward = check_direction(decl, decl.lhs, decl.rhs, false, ruleset, diagnostics, true);
  if (!forward) return;
  out.push_back(std::move(*forward));
  if (!decl.bidirectional) return;
  // The reverse direction re-checks with the sides swapped; only binding can newly fail.
  if (auto reverse = check_direction(decl, decl.rhs, decl.lhs, true, ruleset, diagnostics, false)) {
    out.push_back(std::move(*reverse));
  } else {
    diagnostics.error(decl.where,
                      fmt::format("rule {} uses '<=>' but its right-hand side does not bind every "
                                  "variable of its left-hand side (or cannot be matched)",
                                  decl.name));
  }
}

std::optional<CheckedAxiom> check_axiom(const AxiomDecl& decl, const std::string& ruleset,
                                        Diagnostics& diagnostics) {
  RuleChecker checker(diagnostics, true);
  checker.declared = decl.forall;
  checker.check_declared = !decl.forall.empty();
  CheckedAxiom axiom;
  axiom.name = decl.name;
  axiom.ruleset = ruleset;
  axiom.tags = decl.tags;
  axiom.where = decl.where;
  axiom.lhs =
      checker.term(decl.lhs, Sort::kTensor, RuleChecker::Side::kBinding, "the left-hand side");
  axiom.rhs =
      checker.term(decl.rhs, Sort::kTensor, RuleChecker::Side::kBinding, "the right-hand side");
  if (decl.condition) axiom.condition = checker.condition(*decl.condition, true);
  for (const std::string& name : decl.forall) {
    if (!checker.find_var(name))
      diagnostics.warning(decl.where, fmt::format("?{} is declared in forall but not used", name));
  }
  if (!checker.ok) return std::nullopt;
  axiom.vars = checker.vars;
  return axiom;
}

}  // namespace mctsat::dsl
