// Symbolic evaluation of equations over Z3 (see symbolic_equation.hpp).
#include "verify/symbolic_equation.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tensor/shape_functions.hpp"
#include "verify/z3_shape_context.hpp"

namespace mctsat::verify {
namespace {

using dsl::Pat;
using dsl::Sort;

// The list length a split-sizes variable must have: the input count of the concat an axiom's
// short split takes apart, else TENSAT's two halves.
void short_split_lengths(const Pat& p, const std::vector<dsl::Variable>& vars,
                         std::vector<std::size_t>& fixed) {
  if (is_short_split(p, vars) && p.args[1].kind == Pat::Kind::kVar) {
    const Pat& operand = p.args[2];
    fixed[p.args[1].var] = operand.kind == Pat::Kind::kOp && operand.op == tensor::Op::kConcat
                               ? operand.args.size() - 2
                               : 2;
  }
  for (const Pat& a : p.args) short_split_lengths(a, vars, fixed);
}

// The variables of `p`, each once, in order.
std::vector<dsl::VarIndex> pattern_vars(const Pat& p) {
  std::vector<dsl::VarIndex> vars;
  auto visit = [&](const auto& self, const Pat& q) -> void {
    if (q.kind == Pat::Kind::kVar && std::find(vars.begin(), vars.end(), q.var) == vars.end())
      vars.push_back(q.var);
    for (const Pat& arg : q.args) self(self, arg);
  };
  visit(visit, p);
  return vars;
}

}  // namespace

std::vector<SizeAssignment> enumerate_sizes(const Equation& e, std::size_t max_rank,
                                            std::size_t limit, bool& truncated) {
  std::vector<std::size_t> fixed(e.vars.size(), 0);
  for (const Pat& p : e.lhs) short_split_lengths(p, e.vars, fixed);
  for (const Pat& p : e.rhs) short_split_lengths(p, e.vars, fixed);
  std::vector<std::vector<std::size_t>> choices(e.vars.size());
  for (std::size_t v = 0; v < e.vars.size(); ++v) {
    const Sort sort = e.vars[v].sort;
    if (fixed[v] != 0) {
      choices[v] = {fixed[v]};
    } else if (sort == Sort::kTensor || sort == Sort::kInts) {
      for (std::size_t r = 1; r <= max_rank; ++r) choices[v].push_back(r);
    } else {
      choices[v] = {0};
    }
  }
  std::vector<SizeAssignment> out;
  truncated = false;
  SizeAssignment current(e.vars.size(), 0);
  std::vector<std::size_t> digit(e.vars.size(), 0);
  while (true) {
    if (out.size() == limit) {
      truncated = true;
      return out;
    }
    for (std::size_t v = 0; v < e.vars.size(); ++v) current[v] = choices[v][digit[v]];
    out.push_back(current);
    std::size_t v = e.vars.size();
    while (v > 0) {
      --v;
      if (++digit[v] < choices[v].size()) break;
      digit[v] = 0;
      if (v == 0) return out;
    }
    if (e.vars.empty()) return out;
  }
}

SymbolicEquation::SymbolicEquation(z3::context& z3, const Equation& equation,
                                   const SizeAssignment& sizes)
    : where(z3.bool_val(true)), z3_(z3), equation_(equation), sizes_(sizes) {
  const auto& vars = equation.vars;
  values_.resize(vars.size());
  for (std::size_t v = 0; v < vars.size(); ++v) {
    const std::string base = vars[v].name;
    switch (vars[v].sort) {
      case Sort::kTensor:
      case Sort::kInts:
        // Dimensions and split sizes are positive; a list variable's elements (a permutation,
        // a target shape) are only non-negative: a permutation holds 0. Its operators' shape
        // functions constrain it further.
        for (std::size_t i = 0; i < sizes[v]; ++i) {
          values_[v].push_back(z3.int_const(fmt::format("{}.{}", base, i).c_str()));
          const bool positive = vars[v].sort == Sort::kTensor || base.starts_with("_sizes");
          domain.push_back(positive ? values_[v].back() > 0 : values_[v].back() >= 0);
        }
        break;
      case Sort::kInt:
        values_[v].push_back(z3.int_const(base.c_str()));
        break;
      case Sort::kTuple:
      case Sort::kFloat:
        break;
    }
  }
  for (const Pat& root : equation.lhs) {
    lhs_shapes.emplace_back();
    if (!evaluate(root, lhs_shapes.back(), lhs_constraints, lhs_error)) {
      lhs_error_vars = std::move(error_vars_).value();
      break;
    }
  }
  if (equation.condition && lhs_error.empty()) {
    std::vector<z3::expr> defined;
    const z3::expr value = bool_term(*equation.condition, defined);
    where = all(defined) && value;
  }
  if (!lhs_error.empty()) return;
  infer_split_sizes();
  for (const Pat& root : equation.rhs) {
    rhs_shapes.emplace_back();
    if (!evaluate(root, rhs_shapes.back(), rhs_constraints, rhs_error)) break;
  }
}

z3::expr SymbolicEquation::all(const std::vector<z3::expr>& constraints) const {
  z3::expr_vector v(z3_);
  for (const auto& c : constraints) v.push_back(c);
  return z3::mk_and(v);
}

z3::expr SymbolicEquation::shapes_equal() const {
  std::vector<z3::expr> equal;
  for (std::size_t r = 0; r < lhs_shapes.size(); ++r) {
    const auto &a = lhs_shapes[r], &b = rhs_shapes[r];
    if (a.size() != b.size()) return z3_.bool_val(false);
    for (std::size_t o = 0; o < a.size(); ++o) {
      if (a[o].size() != b[o].size()) return z3_.bool_val(false);
      for (std::size_t i = 0; i < a[o].size(); ++i) equal.push_back(a[o][i] == b[o][i]);
    }
  }
  return all(equal);
}

// sizes[k] of a right-hand (split axis x) = the extent along the axis of the left-hand root that
// output k replaces (as the rewrite's binder computes it).
void SymbolicEquation::infer_split_sizes() {
  Z3ShapeContext pick_context(z3_, lhs_constraints);
  for (const auto& use : inferred_split_outputs(equation_)) {
    if (use.root >= lhs_shapes.size() || lhs_shapes[use.root].empty()) continue;
    std::vector<z3::expr> axis;
    std::string ignored;
    if (!attribute(use.split->args[0], axis, ignored) || axis.empty()) continue;
    auto& sizes = inferred_sizes_[use.key];
    while (sizes.size() <= use.output) sizes.push_back(z3_.int_val(0));
    sizes[use.output] = pick_context.pick(lhs_shapes[use.root][0], axis[0]);
  }
}

bool SymbolicEquation::attribute(const Pat& p, std::vector<z3::expr>& value, std::string& error) {
  value.clear();
  switch (p.kind) {
    case Pat::Kind::kInt:
      value.push_back(z3_.int_val(static_cast<int64_t>(p.value)));
      return true;
    case Pat::Kind::kInts:
      for (auto v : p.ints) value.push_back(z3_.int_val(static_cast<int64_t>(v)));
      return true;
    case Pat::Kind::kFloat:
      return true;
    case Pat::Kind::kVar:
      value = values_[p.var];
      return true;
    default:
      error = "an attribute position holds a tensor term";
      return false;
  }
}

bool SymbolicEquation::evaluate(const Pat& p, std::vector<Z3Shape>& outputs,
                                std::vector<z3::expr>& into, std::string& error) {
  const bool evaluated = evaluate_node(p, outputs, into, error);
  // The innermost failing call returns first.
  if (!evaluated && !error_vars_) error_vars_ = pattern_vars(p);
  return evaluated;
}

bool SymbolicEquation::evaluate_node(const Pat& p, std::vector<Z3Shape>& outputs,
                                     std::vector<z3::expr>& into, std::string& error) {
  outputs.clear();
  switch (p.kind) {
    case Pat::Kind::kVar:
      if (equation_.vars[p.var].sort != Sort::kTensor) {
        error = fmt::format("?{} is a {} variable; the verifier handles tensor variables only",
                            equation_.vars[p.var].name, dsl::sort_name(equation_.vars[p.var].sort));
        return false;
      }
      outputs.push_back(values_[p.var]);
      return true;
    case Pat::Kind::kProj: {
      std::vector<Z3Shape> all_outputs;
      if (!evaluate(p.args[0], all_outputs, into, error)) return false;
      if (p.value < 0 || static_cast<std::size_t>(p.value) >= all_outputs.size()) {
        error = fmt::format("split_{} of a split with {} outputs", p.value, all_outputs.size());
        return false;
      }
      outputs.push_back(all_outputs[static_cast<std::size_t>(p.value)]);
      return true;
    }
    case Pat::Kind::kOp: {
      const tensor::OpSignature& sig = tensor::signature(p.op);
      std::vector<Z3Shape> inputs;
      std::vector<std::vector<z3::expr>> attrs;
      for (std::size_t i = 0; i < p.args.size(); ++i) {
        const tensor::Param& param = sig.params[std::min(i, sig.params.size() - 1)];
        const Pat& arg = p.args[i];
        if (param.kind == tensor::ParamKind::kTensor) {
          std::vector<Z3Shape> shapes;
          if (!evaluate(arg, shapes, into, error)) return false;
          inputs.push_back(std::move(shapes.at(0)));
        } else if (arg.kind == Pat::Kind::kInferredSizes) {
          const auto found = inferred_sizes_.find(pattern_text(p, equation_.vars));
          if (found == inferred_sizes_.end()) {
            error = "a split's sizes cannot be inferred from the left-hand roots";
            return false;
          }
          attrs.push_back(found->second);
        } else {
          attrs.emplace_back();
          if (!attribute(arg, attrs.back(), error)) return false;
        }
      }
      Z3ShapeContext ctx(z3_, into);
      if (!tensor::infer_output_shapes(ctx, p.op, std::span<const Z3Shape>(inputs),
                                       std::span<const std::vector<z3::expr>>(attrs), outputs)) {
        error = fmt::format("{}: {}", sig.name, ctx.structural_error);
        return false;
      }
      // An axiom's (split axis (concat axis n a b ...)) splits where the concat joined.
      if (is_short_split(p, equation_.vars) && p.args[1].kind == Pat::Kind::kVar &&
          p.args[2].kind == Pat::Kind::kOp && p.args[2].op == tensor::Op::kConcat) {
        const Pat& concat = p.args[2];
        const auto& sizes = values_[p.args[1].var];
        for (std::size_t k = 0; k < sizes.size() && k + 2 < concat.args.size(); ++k) {
          std::vector<Z3Shape> part;
          std::vector<z3::expr> repeated;  // already in `into` from evaluating the concat
          if (!evaluate(concat.args[k + 2], part, repeated, error)) return false;
          into.push_back(sizes[k] == ctx.pick(part.at(0), attrs[0][0]));
        }
      }
      return true;
    }
    default:
      error = "a tensor position holds an attribute";
      return false;
  }
}

z3::expr SymbolicEquation::int_term(const dsl::Cond& c, std::vector<z3::expr>& defined) {
  using Kind = dsl::Cond::Kind;
  switch (c.kind) {
    case Kind::kInt:
      return z3_.int_val(static_cast<int64_t>(c.value));
    case Kind::kVar:
      return values_[c.var].empty() ? z3_.int_val(0) : values_[c.var][0];
    case Kind::kRank:
      return z3_.int_val(static_cast<int64_t>(sizes_[c.var]));
    case Kind::kNumel: {
      z3::expr n = z3_.int_val(1);
      for (const auto& d : values_[c.var]) n = n * d;
      return n;
    }
    case Kind::kDim: {
      const z3::expr index = int_term(c.operands[0], defined);
      defined.push_back(index >= 0 && index < static_cast<int>(sizes_[c.var]));
      std::vector<z3::expr> scratch;
      return Z3ShapeContext(z3_, scratch).pick(values_[c.var], index);
    }
    case Kind::kNeg:
      return -int_term(c.operands[0], defined);
    case Kind::kArith: {
      const z3::expr a = int_term(c.operands[0], defined), b = int_term(c.operands[1], defined);
      if (c.op == "+") return a + b;
      if (c.op == "-") return a - b;
      if (c.op == "*") return a * b;
      defined.push_back(b != 0);
      return c.op == "/" ? a / b : z3::rem(a, b);
    }
    default:
      return z3::ite(bool_term(c, defined), z3_.int_val(1), z3_.int_val(0));
  }
}

z3::expr SymbolicEquation::bool_term(const dsl::Cond& c, std::vector<z3::expr>& defined) {
  using Kind = dsl::Cond::Kind;
  switch (c.kind) {
    case Kind::kNot:
      return !bool_term(c.operands[0], defined);
    case Kind::kAnd:
      return bool_term(c.operands[0], defined) && bool_term(c.operands[1], defined);
    case Kind::kOr:
      return bool_term(c.operands[0], defined) || bool_term(c.operands[1], defined);
    case Kind::kSameShape: {
      const auto &a = values_[c.var], &b = values_[c.other];
      if (a.size() != b.size()) return z3_.bool_val(false);
      z3::expr same = z3_.bool_val(true);
      for (std::size_t i = 0; i < a.size(); ++i) same = same && a[i] == b[i];
      return same;
    }
    case Kind::kCompare: {
      const z3::expr a = int_term(c.operands[0], defined), b = int_term(c.operands[1], defined);
      if (c.op == "==") return a == b;
      if (c.op == "!=") return a != b;
      if (c.op == "<") return a < b;
      if (c.op == "<=") return a <= b;
      if (c.op == ">") return a > b;
      return a >= b;
    }
    default:
      return int_term(c, defined) != 0;
  }
}

void StructuralFailures::add(const SymbolicEquation& failed) {
  Failure failure{failed.lhs_error_vars, {}};
  for (const dsl::VarIndex v : failure.vars) failure.sizes.push_back(failed.sizes()[v]);
  failures_.push_back(std::move(failure));
}

bool StructuralFailures::excludes(const SizeAssignment& sizes) const {
  return std::any_of(failures_.begin(), failures_.end(), [&](const Failure& f) {
    for (std::size_t k = 0; k < f.vars.size(); ++k)
      if (sizes[f.vars[k]] != f.sizes[k]) return false;
    return true;
  });
}

}  // namespace mctsat::verify
