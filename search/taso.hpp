// TASO's cost-based backtracking search (Jia et al., SOSP'19), the pre-e-graph baseline, over
// the same rules and cost model as the other strategies. Graphs wait in a priority queue by cost;
// the cheapest is popped, becomes the best graph if it beats it, and every single match of every
// rule is applied to it on its own, each giving one candidate graph. A candidate enters the queue
// when it is acyclic, no larger than `max_ops_factor` times the input, cheaper than `alpha` times
// the best cost, and not seen before (graph_fingerprint). The search stops after `budget` popped
// graphs, after `patience` popped graphs without a new best graph (if set), at the time limit
// (also in the middle of an expansion), at the work limit, when the explored graphs' e-graphs reach
// the memory limit, or when the queue is empty; under the memory limit, each rule holds at most its
// share of the room left in matches. Patience only cuts the search short: up to where it stops, the
// search is the same, so a run finds the unbounded run's best graph whenever `patience` exceeds
// that run's `longest_wait`.
//
// Rules match through the e-graph engine: a popped graph becomes a single-graph e-graph (one
// e-node per class), a rule's search finds its matches there, and each match gives one candidate
// (match_candidate.hpp: the match applied to a copy, or its outcome, cost and fingerprint told
// without one by the priced preview, from the explored graph's node costs computed once); a
// candidate's cost is its exact DAG cost (= graph_cost), and a cyclic one is rejected.
//
// A wave of candidates -- the matches of one popped graph -- is built and costed concurrently
// with oneTBB and entered into the queue in match order, so the search is the same for every
// thread count. Queued candidates are kept as (parent, rule, match) and rebuilt when popped, so
// memory grows with the graphs explored, not with the candidates queued.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "dsl/lowering.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "search/stop_reason.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

struct TasoOptions {
  double alpha = 1.05;          // relaxation: accept candidates below alpha x the best cost
  std::size_t budget = 1'000;   // graphs popped from the queue and expanded
  double max_ops_factor = 2.0;  // reject candidates with more operators than this x the input's
  std::size_t patience = 0;     // stop after this many popped graphs without a new best (0: never)
  ProgressCallback progress;    // after each explored graph
};

struct TasoResult {
  tensor::Graph graph;               // the best graph found (the input if nothing was cheaper)
  double cost = 0;                   // its graph_cost
  std::vector<std::size_t> applied;  // the rules rewriting the input into it, in order
  std::size_t explored = 0;          // graphs popped and expanded
  std::size_t best_explored = 0;     // graphs popped when the best one was (0: the input)
  // The most graphs popped after a new best (or the start) before the next new best.
  std::size_t longest_wait = 0;
  std::size_t candidates = 0;  // rewritten graphs built (one per applicable match)
  std::size_t queued = 0;      // candidates that entered the queue
  std::size_t cyclic = 0;      // candidates rejected as cyclic
  std::uint64_t work = 0;      // work units spent (search/work_units.hpp)
  // Thread CPU time of the whole search on the calling thread and of its parallel part (on any
  // thread): searching each rule, building and costing all candidates, and rebuilding the queue's
  // top graph beside them (with one thread: when it is popped next). From a one-thread run, the
  // rest is serial.
  double cpu_seconds = 0, parallel_cpu_seconds = 0;
  StopReason stop = StopReason::kQueueEmpty;  // or budget, patience, time or memory limit
};

// Limits: seconds (checked before each popped graph), work (likewise), threads (candidates of a
// wave). `arena`: the oneTBB arena the candidates run in when the search shares its threads with
// another one run beside it (then its CPU clocks also count the other's tasks a waiting thread
// ran); null: an arena of its own with `limits.threads`.
TasoResult run_taso(const tensor::Graph& graph, const dsl::RuleSet& rules,
                    const tensor::CostModel& model, const TasoOptions& options,
                    const SearchLimits& limits, tbb::task_arena* arena = nullptr);

}  // namespace mctsat::search
