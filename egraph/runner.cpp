// Names of the runner's stop reasons.
#include "egraph/runner.hpp"

namespace mctsat::egraph {

std::string stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::kSaturated:
      return "saturated";
    case StopReason::kIterationLimit:
      return "iteration limit";
    case StopReason::kNodeLimit:
      return "node limit";
    case StopReason::kTimeLimit:
      return "time limit";
    case StopReason::kMemoryLimit:
      return "memory limit";
    case StopReason::kOther:
      return "other";
  }
  return "other";
}

}  // namespace mctsat::egraph
