// Check 3, numeric testing: Z3 picks several concrete shape and attribute assignments (small
// dimensions, spread over rank combinations; every second one makes values differ that the
// earlier ones had equal, e.g. grouped convolutions) under which both sides are well-formed and the
// `where` condition holds; both sides are built as graphs and run by the reference interpreter on
// the same random inputs: once with small random integers (results are exact, as TASO's
// fingerprints), once with random reals (compared with a tolerance). A mismatch is a counterexample
// with the shapes, the seed, the output element that differs most with both sides' values there,
// and the inputs' values when they are small enough to show whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include <z3++.h>

#include "verify/binding.hpp"
#include "verify/check_result.hpp"
#include "verify/equation.hpp"
#include "verify/z3_limit.hpp"

namespace mctsat::verify {

class SampleCache;

struct NumericCheckOptions {
  std::size_t samples = 4;   // concrete assignments tested
  std::uint64_t seed = 1;    // inputs and the order in which rank combinations are tried
  std::int64_t max_dim = 5;  // dimensions and integer attributes are at most this
  double tolerance = 1e-6;   // relative, for the real-valued trial
  std::size_t max_rank = 4;
  std::size_t max_assignments = 4096;
  unsigned rlimit = kDefaultZ3Rlimit;  // Z3 steps per query (z3_limit.hpp)
  // Z3's sample selections shared with other checks (same results, less solving), or none.
  SampleCache* sample_cache = nullptr;
};

CheckResult check_numeric(const Equation& equation, const NumericCheckOptions& options);
// The same with its symbolic equations in `z3`, a context the caller may use for other checks of
// the same equation (the samples are still selected in contexts of their own).
CheckResult check_numeric(const Equation& equation, const NumericCheckOptions& options,
                          z3::context& z3);

// The first concrete assignment check_numeric tests (both sides well-formed, the condition true),
// or nullopt when none is found within the bounds: for instantiating an equation elsewhere (e.g.
// deriving it by saturation, rule_derivation.hpp).
std::optional<Binding> example_binding(const Equation& equation,
                                       const NumericCheckOptions& options);

}  // namespace mctsat::verify
