// Check 1, shape soundness: for every choice of ranks, Z3 proves that wherever the left-hand side
// is well-formed, the `where` condition holds and the right-hand side is well-formed, both sides
// have the same shape(s). A right-hand side that is ill-formed for some well-formed left-hand
// side is not unsound (the engine skips such matches before adding anything), but it is reported
// as a note, with an example, because the rule then applies less often than it reads (unless
// `notes` is off: looking for that example can be Z3's hardest query, and the verdict does not
// depend on it).
#pragma once

#include <cstddef>

#include <z3++.h>

#include "verify/check_result.hpp"
#include "verify/equation.hpp"
#include "verify/z3_limit.hpp"

namespace mctsat::verify {

struct ShapeCheckOptions {
  std::size_t max_rank = 4;            // tensor ranks and list lengths enumerated: 1..max_rank
  std::size_t max_assignments = 4096;  // rank combinations tried at most
  unsigned rlimit = kDefaultZ3Rlimit;  // Z3 steps per query (z3_limit.hpp)
  bool notes = true;                   // look for the ill-formed right-hand side's example
};

CheckResult check_shapes(const Equation& equation, const ShapeCheckOptions& options);
// The same in `z3`, a context the caller may use for other checks of the same equation (a Z3
// context costs a millisecond or two to make and delete, a good part of a small check).
CheckResult check_shapes(const Equation& equation, const ShapeCheckOptions& options,
                         z3::context& z3);

}  // namespace mctsat::verify
