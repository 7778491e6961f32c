// Why a search stopped: one enum for every strategy, with its one name table (the names are what
// reports and the CLI print).
#pragma once

#include "egraph/runner.hpp"
#include "support/enum_names.hpp"

namespace mctsat::search {

enum class StopReason {
  kNoImprovement,   // mcts, greedy: no action lowers the reward cost
  kSaturated,       // no rule changes the e-graph any more
  kIterationLimit,  // eqsat: its iteration limit
  kStepLimit,       // mcts, greedy: their planning-step limit
  kNodeLimit,       // the e-node limit
  kTimeLimit,       // the search's time budget
  kWorkLimit,       // the search's work budget (SearchLimits::work)
  kMemoryLimit,     // the memory limit
  kBudget,          // taso: its budget of explored graphs
  kPatience,        // taso: its patience (explored graphs without a new best)
  kQueueEmpty,      // taso: no candidate left
  kStopped,         // a hook asked to stop
};

inline constexpr EnumNames<StopReason, 12> kStopReasonNames{{
    {StopReason::kNoImprovement, "no improving action"},
    {StopReason::kSaturated, "saturated"},
    {StopReason::kIterationLimit, "iteration limit"},
    {StopReason::kStepLimit, "step limit"},
    {StopReason::kNodeLimit, "node limit"},
    {StopReason::kTimeLimit, "time limit"},
    {StopReason::kWorkLimit, "work limit"},
    {StopReason::kMemoryLimit, "memory limit"},
    {StopReason::kBudget, "budget"},
    {StopReason::kPatience, "patience"},
    {StopReason::kQueueEmpty, "queue empty"},
    {StopReason::kStopped, "stopped"},
}};

// The runner's stop reasons, as the search's.
StopReason from_runner(egraph::StopReason reason);

}  // namespace mctsat::search
