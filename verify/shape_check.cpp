// Shape soundness with Z3 (see shape_check.hpp).
#include "verify/shape_check.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "verify/binding.hpp"
#include "verify/symbolic_equation.hpp"
#include "verify/z3_smt_core.hpp"

namespace mctsat::verify {

CheckResult check_shapes(const Equation& equation, const ShapeCheckOptions& options) {
  z3::context z3;
  return check_shapes(equation, options, z3);
}

CheckResult check_shapes(const Equation& equation, const ShapeCheckOptions& options,
                         z3::context& z3) {
  const CheckClock clock;
  auto finish = [&](Verdict verdict, std::string detail) {
    return clock.finish(verdict, std::move(detail));
  };

  bool truncated = false;
  const auto assignments =
      enumerate_sizes(equation, options.max_rank, options.max_assignments, truncated);
  std::size_t matchable = 0, unknown = 0, proved = 0, tried = 0;
  std::string partial;  // an example where the right-hand side is ill-formed
  std::string first_error;
  z3::solver solver = smt_core_solver(z3, options.rlimit);
  // Whether the left-hand side can match (and the condition hold) under the current frame; its
  // example, when it can.
  auto can_match = [&]() -> std::optional<z3::model> {
    Z3Answer answer = check_as_default(solver, options.rlimit);
    if (answer.result == z3::unknown) ++unknown;
    if (answer.result == z3::sat) ++matchable;
    return std::move(answer.model);
  };
  StructuralFailures failures;
  for (const auto& sizes : assignments) {
    if (failures.excludes(sizes)) continue;
    SymbolicEquation symbolic(z3, equation, sizes);
    if (!symbolic.lhs_error.empty()) {
      if (first_error.empty()) first_error = symbolic.lhs_error;
      failures.add(symbolic);
      continue;
    }
    ++tried;
    solver.push();
    for (const auto& c : symbolic.domain) solver.add(c);
    for (const auto& c : symbolic.lhs_constraints) solver.add(c);
    solver.add(symbolic.where);
    if (!symbolic.rhs_error.empty()) {
      // Nothing to prove; Z3 is asked only for the note and to know that the rule can match.
      if (partial.empty() || matchable == 0) {
        const auto example = can_match();
        if (example && options.notes && partial.empty())
          partial = fmt::format("the right-hand side is ill-formed for {}: {}",
                                binding_text(equation, binding_from_model(symbolic, *example)),
                                symbolic.rhs_error);
      }
      solver.pop();
      continue;
    }
    solver.push();
    solver.add(symbolic.all(symbolic.rhs_constraints));
    solver.add(!symbolic.shapes_equal());
    const Z3Answer differs = check_as_default(solver, options.rlimit);
    if (differs.result == z3::sat) {
      const z3::model& model = *differs.model;
      return finish(Verdict::kFail,
                    fmt::format("the two sides have different shapes for {}: {}",
                                binding_text(equation, binding_from_model(symbolic, model)),
                                root_shapes_text(symbolic, model, true)));
    }
    if (differs.result == z3::unknown) ++unknown;
    if (differs.result == z3::unsat) ++proved;
    solver.pop();
    if (matchable == 0) can_match();
    if (options.notes && partial.empty()) {
      solver.push();
      solver.add(!symbolic.all(symbolic.rhs_constraints));
      if (const auto example = check_as_default(solver, options.rlimit).model)
        partial = fmt::format("the right-hand side is ill-formed for {}",
                              binding_text(equation, binding_from_model(symbolic, *example)));
      solver.pop();
    }
    solver.pop();
  }
  if (matchable == 0 && unknown == 0)
    return finish(Verdict::kFail,
                  fmt::format("the left-hand side is never well-formed (ranks 1..{}){}",
                              options.max_rank, first_error.empty() ? "" : ": " + first_error));
  if (unknown > 0)
    return finish(Verdict::kUnknown,
                  fmt::format("Z3 gave up on {} of {} rank combinations", unknown, tried));
  std::string note = fmt::format("{} rank combination{} proved", proved, proved == 1 ? "" : "s");
  if (truncated) note += fmt::format(" (the first {} only)", assignments.size());
  if (!partial.empty()) note += "; note: " + partial;
  return finish(Verdict::kPass, note);
}

}  // namespace mctsat::verify
