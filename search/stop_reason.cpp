// The runner's stop reasons as the search's.
#include "search/stop_reason.hpp"

namespace mctsat::search {

StopReason from_runner(egraph::StopReason reason) {
  switch (reason) {
    case egraph::StopReason::kSaturated:
      return StopReason::kSaturated;
    case egraph::StopReason::kIterationLimit:
      return StopReason::kIterationLimit;
    case egraph::StopReason::kNodeLimit:
      return StopReason::kNodeLimit;
    case egraph::StopReason::kTimeLimit:
      return StopReason::kTimeLimit;
    case egraph::StopReason::kMemoryLimit:
      return StopReason::kMemoryLimit;
    case egraph::StopReason::kOther:
      return StopReason::kStopped;
  }
  return StopReason::kStopped;
}

}  // namespace mctsat::search
