// Progress of a running search, reported after each planning step, iteration or explored graph to
// an optional callback (the CLI's live status line), with the phase it belongs to: the strategy's
// own search or TASO's backtracking (the taso strategy, or its pass in the default pipeline), and
// the region when a large graph is searched by regions.
// Reporting never changes what a search does.
#pragma once

#include <cstddef>
#include <functional>

namespace mctsat::search {

struct Progress {
  std::size_t step = 0;   // planning steps, iterations or explored graphs so far
  std::size_t limit = 0;  // their limit
  double best_cost = 0;   // the best cost found so far (the cost model's unit, ms)
  std::size_t nodes = 0;  // e-nodes of the current e-graph
  double seconds = 0;     // since the search started
  const char* phase = kSearchPhase;
  // When the graph is searched by regions (search/region_search.hpp): the distinct region being
  // searched, from 1, and how many distinct regions there are; 0 otherwise. Each region's search
  // counts its steps from 0.
  std::size_t region = 0, regions = 0;

  static constexpr const char* kSearchPhase = "search";
  static constexpr const char* kTasoPhase = "taso backtracking";
};

using ProgressCallback = std::function<void(const Progress&)>;

}  // namespace mctsat::search
