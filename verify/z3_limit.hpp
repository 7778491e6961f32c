// The bound on each Z3 query of the verifier: Z3's resource limit ("rlimit"), a count of Z3's
// own steps, not time, so that a query's outcome (and so a verdict, a sample, a synthesized rule)
// is the same on a fast, slow or loaded machine. A query that exceeds it is "unknown". The
// default's calibration (the step counts of the queries of `mctsat verify rules/taso` and of the
// N = 2 syntheses): bench/results/2026-12-02-rule-synthesis-z3det/README.md.
#pragma once

#include <string>

#include <z3++.h>

namespace mctsat::verify {

inline constexpr unsigned kDefaultZ3Rlimit = 1'000'000;

// Bounds every check() of `solver` by `rlimit` steps each (0: unbounded).
inline void limit_z3_steps(z3::solver& solver, unsigned rlimit) {
  z3::params params(solver.ctx());
  params.set("rlimit", rlimit);
  solver.set(params);
}

// Whether the solver's last "unknown" was for lack of steps: Z3 says "max. resource limit
// exceeded", or "canceled" when the limit struck inside a sub-solver.
inline bool out_of_z3_steps(const z3::solver& solver) {
  const std::string reason = solver.reason_unknown();
  return reason.find("canceled") != std::string::npos ||
         reason.find("resource limit") != std::string::npos;
}

}  // namespace mctsat::verify
