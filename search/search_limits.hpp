// The limits every strategy honours, declared once: the search's wall-clock budget, its work
// budget (mcts and taso), the memory its e-graphs may take, its worker threads and TENSAT's cycle
// filter. Node and step limits
// differ by strategy (saturation's default e-node limit is TENSAT's 50,000, the planners' 5,000)
// and live in the strategies' own options.
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

}  // namespace mctsat::search
