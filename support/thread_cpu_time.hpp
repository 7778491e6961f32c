// CPU time consumed by the calling thread, in seconds: unlike wall time it does not count the
// time the scheduler gave other threads or processes (MCTS's per-simulation accounting, timing an
// operator that runs on the calling thread alone).
#pragma once

#include <time.h>

namespace mctsat {

inline double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace mctsat
