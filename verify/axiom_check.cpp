// Equivalence proofs from axioms with Z3 (see axiom_check.hpp).
#include "verify/axiom_check.hpp"

#include <chrono>
#include <cmath>
#include <map>
#include <string>

#include <fmt/format.h>
#include <z3++.h>

#include "support/error.hpp"

namespace mctsat::verify {
namespace {

// A finite double as the rational Z3 reads: "[-]digits/1000..." or "[-]digits000...", from its
// 17 significant digits (which tell every double apart). Z3 takes no exponent in a numeral (it
// fails on "1e-05" with a floating-point exception).
std::string z3_rational(double value) {
  if (!std::isfinite(value))
    throw Error(fmt::format("the float attribute {} has no exact value to prove with", value));
  const std::string scientific = fmt::format("{:.16e}", std::abs(value));  // d.dddde[+-]xx
  const std::size_t e = scientific.find('e');
  std::string digits = scientific.substr(0, 1) + scientific.substr(2, e - 2);
  const int exponent = std::stoi(scientific.substr(e + 1)) - 16;
  const std::string sign = value < 0 ? "-" : "";
  if (exponent >= 0) return sign + digits + std::string(static_cast<std::size_t>(exponent), '0');
  return sign + digits + "/1" + std::string(static_cast<std::size_t>(-exponent), '0');
}

using dsl::Pat;
using dsl::Sort;

class Encoder {
 public:
  explicit Encoder(z3::context& z3)
      : z3_(z3),
        tensor_(z3.uninterpreted_sort("Tensor")),
        list_(z3.uninterpreted_sort("IntList")),
        dim_(z3.function("dim", tensor_, z3.int_sort(), z3.int_sort())),
        rank_(z3.function("rank", tensor_, z3.int_sort())),
        numel_(z3.function("numel", tensor_, z3.int_sort())),
        shape_(z3.function("shape", tensor_, z3.uninterpreted_sort("Shape"))) {}

  // Z3 constants for an equation's variables (named with `prefix` to keep equations apart).
  std::vector<z3::expr> variables(const Equation& e, const std::string& prefix) {
    std::vector<z3::expr> out;
    for (const auto& v : e.vars) {
      const std::string name = prefix + v.name;
      switch (v.sort) {
        case Sort::kInt:
          out.push_back(z3_.int_const(name.c_str()));
          break;
        case Sort::kInts:
          out.push_back(z3_.constant(name.c_str(), list_));
          break;
        case Sort::kFloat:
          out.push_back(z3_.real_const(name.c_str()));
          break;
        default:
          out.push_back(z3_.constant(name.c_str(), tensor_));
      }
    }
    return out;
  }

  // Sizes of the right-hand splits written without them: the extents of the left-hand roots.
  void infer_split_sizes(const Equation& e, const std::vector<z3::expr>& vars,
                         const std::vector<z3::expr>& lhs_roots) {
    inferred_.clear();
    for (const auto& use : inferred_split_outputs(e)) {
      auto& sizes = inferred_[use.key];
      while (sizes.size() <= use.output) sizes.push_back(z3_.int_val(0));
      sizes[use.output] = dim_(lhs_roots[use.root], attribute(use.split->args[0], e, vars));
    }
  }

  z3::expr term(const Pat& p, const Equation& e, const std::vector<z3::expr>& vars) {
    switch (p.kind) {
      case Pat::Kind::kVar:
        return vars[p.var];
      case Pat::Kind::kProj:
        return split_output(p.args[0], static_cast<std::size_t>(p.value), e, vars);
      case Pat::Kind::kOp: {
        const tensor::OpSignature& sig = tensor::signature(p.op);
        z3::expr_vector args(z3_);
        z3::sort_vector domain(z3_);
        std::string name(sig.name);
        for (std::size_t i = 0; i < p.args.size(); ++i) {
          const tensor::Param& param = sig.params[std::min(i, sig.params.size() - 1)];
          z3::expr a = param.kind == tensor::ParamKind::kTensor ? term(p.args[i], e, vars)
                                                                : attribute(p.args[i], e, vars);
          name += a.get_sort().is_int()         ? "i"
                  : a.get_sort().is_real()      ? "r"
                  : z3::eq(a.get_sort(), list_) ? "l"
                                                : "t";
          domain.push_back(a.get_sort());
          args.push_back(a);
        }
        return z3::function(name.c_str(), domain, tensor_)(args);
      }
      default:
        return attribute(p, e, vars);
    }
  }

  z3::expr condition(const dsl::Cond& c, const Equation& e, const std::vector<z3::expr>& vars) {
    using Kind = dsl::Cond::Kind;
    auto operand = [&](std::size_t i) { return condition(c.operands[i], e, vars); };
    auto as_int = [&](const z3::expr& x) {
      return x.is_bool() ? z3::ite(x, z3_.int_val(1), z3_.int_val(0)) : x;
    };
    auto as_bool = [&](const z3::expr& x) { return x.is_bool() ? x : x != 0; };
    switch (c.kind) {
      case Kind::kInt:
        return z3_.int_val(static_cast<int64_t>(c.value));
      case Kind::kVar:
        return vars[c.var];
      case Kind::kRank:
        return rank_(vars[c.var]);
      case Kind::kNumel:
        return numel_(vars[c.var]);
      case Kind::kDim:
        return dim_(vars[c.var], as_int(operand(0)));
      case Kind::kSameShape:
        return shape_(vars[c.var]) == shape_(vars[c.other]);
      case Kind::kNeg:
        return -as_int(operand(0));
      case Kind::kNot:
        return !as_bool(operand(0));
      case Kind::kAnd:
        return as_bool(operand(0)) && as_bool(operand(1));
      case Kind::kOr:
        return as_bool(operand(0)) || as_bool(operand(1));
      case Kind::kArith:
      case Kind::kCompare: {
        const z3::expr a = as_int(operand(0)), b = as_int(operand(1));
        const std::string& op = c.op;
        if (op == "+") return a + b;
        if (op == "-") return a - b;
        if (op == "*") return a * b;
        if (op == "/") return a / b;
        if (op == "%") return z3::rem(a, b);
        if (op == "==") return a == b;
        if (op == "!=") return a != b;
        if (op == "<") return a < b;
        if (op == "<=") return a <= b;
        if (op == ">") return a > b;
        return a >= b;
      }
    }
    return z3_.bool_val(true);
  }

 private:
  z3::expr attribute(const Pat& p, const Equation& e, const std::vector<z3::expr>& vars) {
    switch (p.kind) {
      case Pat::Kind::kInt:
        return z3_.int_val(static_cast<int64_t>(p.value));
      case Pat::Kind::kFloat:
        return z3_.real_val(z3_rational(p.real).c_str());
      case Pat::Kind::kInts:
        return z3_.constant(fmt::format("[{}]", fmt::join(p.ints, ",")).c_str(), list_);
      case Pat::Kind::kVar:
        return vars[p.var];
      default:
        return term(p, e, vars);
    }
  }

  // Output k of a split: one function per output and size count, over the axis, the sizes and
  // the input. A TENSAT split of a concat in an axiom splits where the concat joined; a
  // right-hand TENSAT split takes the left-hand roots' extents.
  z3::expr split_output(const Pat& split, std::size_t k, const Equation& e,
                        const std::vector<z3::expr>& vars) {
    const z3::expr axis = attribute(split.args[0], e, vars);
    const z3::expr input = term(split.args[2], e, vars);
    std::vector<z3::expr> sizes;
    const Pat& sizes_pat = split.args[1];
    if (sizes_pat.kind == Pat::Kind::kInferredSizes) {
      sizes = inferred_.at(pattern_text(split, e.vars));
    } else if (sizes_pat.kind == Pat::Kind::kInts) {
      for (auto s : sizes_pat.ints) sizes.push_back(z3_.int_val(static_cast<int64_t>(s)));
    } else if (is_short_split(split, e.vars) && split.args[2].kind == Pat::Kind::kOp &&
               split.args[2].op == tensor::Op::kConcat) {
      for (std::size_t i = 2; i < split.args[2].args.size(); ++i)
        sizes.push_back(dim_(term(split.args[2].args[i], e, vars), axis));
    } else {
      const z3::expr list = attribute(sizes_pat, e, vars);
      return z3::function(fmt::format("split_{}/list", k).c_str(), z3_.int_sort(), list_, tensor_,
                          tensor_)(axis, list, input);
    }
    z3::expr_vector args(z3_);
    z3::sort_vector domain(z3_);
    args.push_back(axis);
    domain.push_back(z3_.int_sort());
    for (const auto& s : sizes) {
      args.push_back(s);
      domain.push_back(z3_.int_sort());
    }
    args.push_back(input);
    domain.push_back(tensor_);
    return z3::function(fmt::format("split_{}/{}", k, sizes.size()).c_str(), domain, tensor_)(args);
  }

  z3::context& z3_;
  z3::sort tensor_, list_;
  z3::func_decl dim_, rank_, numel_, shape_;
  std::map<std::string, std::vector<z3::expr>> inferred_;
};

}  // namespace

CheckResult check_axioms(const Equation& goal, const std::vector<Equation>& axioms,
                         const AxiomCheckOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  CheckResult result;
  z3::context z3;
  Encoder encoder(z3);
  z3::solver solver(z3);
  limit_z3_steps(solver, options.rlimit);

  for (std::size_t a = 0; a < axioms.size(); ++a) {
    const Equation& axiom = axioms[a];
    const auto vars = encoder.variables(axiom, fmt::format("a{}.", a));
    z3::expr body =
        encoder.term(axiom.lhs[0], axiom, vars) == encoder.term(axiom.rhs[0], axiom, vars);
    if (axiom.condition) body = z3::implies(encoder.condition(*axiom.condition, axiom, vars), body);
    z3::expr_vector bound(z3);
    for (const auto& v : vars) bound.push_back(v);
    solver.add(bound.empty() ? body : z3::forall(bound, body));
  }

  const auto vars = encoder.variables(goal, "");
  std::vector<z3::expr> lhs;
  for (const Pat& p : goal.lhs) lhs.push_back(encoder.term(p, goal, vars));
  encoder.infer_split_sizes(goal, vars, lhs);
  z3::expr_vector differs(z3);
  for (std::size_t r = 0; r < goal.rhs.size(); ++r)
    differs.push_back(lhs[r] != encoder.term(goal.rhs[r], goal, vars));
  if (goal.condition) solver.add(encoder.condition(*goal.condition, goal, vars));
  solver.add(z3::mk_or(differs));

  const z3::check_result outcome = solver.check();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (outcome == z3::unsat) {
    result.verdict = Verdict::kPass;
    result.detail = "proved from the axioms";
  } else if (outcome == z3::sat) {
    result.verdict = Verdict::kUnknown;
    result.detail = "refuted by a model of the axioms: they do not imply the rule";
  } else {
    result.verdict = Verdict::kUnknown;
    result.detail = out_of_z3_steps(solver)
                        ? fmt::format("not proved within {} Z3 steps (--z3-rlimit)", options.rlimit)
                        : fmt::format("not proved ({})", solver.reason_unknown());
  }
  return result;
}

}  // namespace mctsat::verify
