// The work units of a search's work budget (SearchLimits::work, `--work`): a count of the e-nodes
// the search copies, rewrites or costs, which does not depend on the machine's speed, its load or
// the thread count, so that a search stopped by its work budget is as deterministic as one stopped
// by its node or step limits (the wall-clock `--seconds` remains as a hard stop).
//
// What counts (each a cost proportional to the e-graph it touches):
//  - mcts: every state a simulation tries a rule on, once per rule tried in the sequential order
//    up to the first that changes it (whether another thread tried more does not count), and
//    every state it costs (memo hits included: which simulation misses may depend on timing);
//  - taso: per explored graph, its e-nodes once for searching the rules and once per candidate
//    that is built (not told by the preview).
// A search checks the budget between units of its work whose order does not depend on timing:
// mcts before each planning step and before selecting each simulation (the simulations backed up
// so far), taso before each explored graph. It may overshoot by the work in flight at that point.
#pragma once

#include <cstdint>

namespace mctsat::search {

// Work units per million (`--work` takes millions of units).
inline constexpr std::uint64_t kWorkUnitsPerMillion = 1'000'000;

}  // namespace mctsat::search
