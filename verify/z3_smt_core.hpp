// The verifier's Z3 solver: Z3's SMT core alone (`z3::solver::simple()`), which answers the
// verifier's small integer queries without first building the tactics Z3's default solver builds
// (their cost: bench/results/2026-12-02-rule-synthesis-z3det/README.md). The default solver
// answers with its SMT core anyway once a query has assumptions or follows another; for a first
// query without assumptions that the core gives up on for another reason than its step budget
// (nonlinear constraints), it tries its tactics: `check_as_default` does the same, so the answers
// are the default solver's. Every query is bounded by steps (z3_limit.hpp).
#pragma once

#include <optional>

#include <z3++.h>

#include "verify/z3_limit.hpp"

namespace mctsat::verify {

// An SMT-core solver whose every query is bounded by `rlimit` steps.
inline z3::solver smt_core_solver(z3::context& z3, unsigned rlimit) {
  z3::solver solver(z3, z3::solver::simple());
  limit_z3_steps(solver, rlimit);
  return solver;
}

struct Z3Answer {
  z3::check_result result = z3::unknown;
  std::optional<z3::model> model;  // when sat
};

// `solver.check(assumptions)`, and when the core gives up on a query without assumptions for
// another reason than steps, the same assertions with Z3's tactics (within `rlimit` steps).
inline Z3Answer check_as_default(z3::solver& solver, const z3::expr_vector& assumptions,
                                 unsigned rlimit) {
  const z3::check_result result = solver.check(assumptions);
  if (result == z3::sat) return {result, solver.get_model()};
  if (result == z3::unsat || !assumptions.empty() || out_of_z3_steps(solver)) return {result, {}};
  z3::solver tactics(solver.ctx());
  limit_z3_steps(tactics, rlimit);
  for (const auto& e : solver.assertions()) tactics.add(e);
  const z3::check_result retried = tactics.check();
  if (retried == z3::sat) return {retried, tactics.get_model()};
  return {retried, {}};
}

inline Z3Answer check_as_default(z3::solver& solver, unsigned rlimit) {
  return check_as_default(solver, z3::expr_vector(solver.ctx()), rlimit);
}

}  // namespace mctsat::verify
