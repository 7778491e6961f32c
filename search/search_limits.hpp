// The limits every strategy honours, declared once: the search's wall-clock budget, its work
// budget (mcts and taso), the memory its e-graphs may take, its worker threads and TENSAT's cycle
// filter; and the planners' step and e-node limits (PlanLimits), which mcts and greedy share.
// Saturation's e-node limit is its own option (EqsatOptions: TENSAT's 50,000 by default).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace mctsat::search {

struct SearchLimits {
  double seconds = 3600;  // wall clock of the search (the final extraction has its own limit)
  // Work units (search/work_units.hpp): a budget that does not depend on the machine's speed or
  // load, so that a seeded search stopped by it gives the same graph on a busy machine.
  std::uint64_t work = std::numeric_limits<std::uint64_t>::max();
  // Bytes: eqsat's e-graph, the e-graph snapshots mcts's tree holds, greedy's e-graph.
  std::size_t memory_bytes = std::numeric_limits<std::size_t>::max();
  std::size_t threads = 1;  // eqsat: rule matching; mcts: simulations; taso: candidates
  bool cycle_filter = true;
};

// The planners' limits, read by mcts and greedy (the registry's mcts.max_steps and
// mcts.node_limit): the one declaration of their defaults.
struct PlanLimits {
  std::size_t max_steps = 200;     // planning steps (committed rules)
  std::size_t node_limit = 5'000;  // e-nodes
};

}  // namespace mctsat::search
