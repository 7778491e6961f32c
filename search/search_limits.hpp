// The limits every strategy honours, declared once: the search's wall-clock budget, the memory
// its e-graphs may take, its worker threads and TENSAT's cycle filter. Node and step limits
// differ by strategy (saturation's default e-node limit is TENSAT's 50,000, the planners' 5,000)
// and live in the strategies' own options.
#pragma once

#include <cstddef>
#include <limits>

namespace mctsat::search {

struct SearchLimits {
  double seconds = 3600;  // wall clock of the search (the final extraction has its own limit)
  // Bytes: eqsat's e-graph, the e-graph snapshots mcts's tree holds, greedy's e-graph.
  std::size_t memory_bytes = std::numeric_limits<std::size_t>::max();
  std::size_t threads = 1;  // eqsat: rule matching; mcts: simulations; taso: candidates
  bool cycle_filter = true;
};

}  // namespace mctsat::search
