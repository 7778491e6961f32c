// Running a computation in a forked child process, so that a crash inside it (a third-party
// solver dying with SIGSEGV) cannot take the whole program down. The child's answer, a vector of
// numbers, comes back through a pipe; a child killed by a signal yields that signal instead. The
// child never outlives this process: SIGINT/SIGTERM kill it (support/interrupt.hpp), and it gets
// SIGKILL when this process dies in any other way (PR_SET_PDEATHSIG). A memory budget bounds how
// far the child's address space may grow (RLIMIT_AS over what it inherits): an allocation beyond it
// ends the child with `out_of_memory` instead of taking the machine's memory.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

namespace mctsat {

struct IsolatedOutcome {
  std::vector<double> values;  // the child's answer (empty when it crashed or timed out)
  int crash_signal = 0;        // the signal that killed the child, if one did
  bool timed_out = false;      // the child had not answered by the deadline and was killed
  bool out_of_memory = false;  // an allocation in the child went beyond its memory budget
};

// Runs `work` in a child process and waits for it, at most `seconds` (then the child is killed
// with SIGKILL and the outcome says `timed_out`), its address space growing by at most
// `memory_bytes` (when memory_limits_enforced()). Calls may come from several threads: no other
// call forks while one's pipe is being set up, so no child inherits another call's write end
// (which would hold back the end of that answer). Throws mctsat::Error when the process cannot be
// created, or when the child ends without a complete answer other than by a signal (`work` threw,
// or the child exited early).
IsolatedOutcome run_isolated(const std::function<std::vector<double>()>& work,
                             double seconds = std::numeric_limits<double>::infinity(),
                             std::size_t memory_bytes = std::numeric_limits<std::size_t>::max());

// Whether address-space limits are set on child processes: not under AddressSanitizer, whose
// shadow memory reserves terabytes of address space (any limit would stop every allocation).
bool memory_limits_enforced();

}  // namespace mctsat
