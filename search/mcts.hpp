// Monte Carlo tree search over rule applications (Hartmann, He, Yoneki, PACT'24). A tree node
// holds an e-graph state; an action applies one rule to all its matches for one iteration. UCT
// selection `Q/N + c * sqrt(2 ln N_parent / n)`; expansion of an untried, unpruned action (always
// at the root, elsewhere with probability p once a child has been visited); action pruning (a rule
// that changes nothing in a state is never chosen there again); rollouts of up to `rollout_depth`
// steps; reward = max(previous cost - extracted cost, 0), discounted by gamma; extracted costs
// memoized by a structural hash of the e-graph. Receding horizon: `simulations` per planning step,
// then the root action with the best mean value is committed, until no action helps, the node
// limit is reached, or `max_steps`. A simulation whose expansion finds only actions that change
// nothing (all pruned) rolls out from the node it tried to expand. The search returns the last
// committed state, or with `best_state` the committed state (the initial one included) with the
// lowest reward cost, the earliest of equals: committed states only grow, but a heuristic reward
// extraction of a larger e-graph may miss a graph it found in a smaller one, and so may the final
// extraction.
//
// Parallel simulations (`threads`) follow WU-UCT (Liu et al., ICLR'20), the scheme the paper's code
// descends from, in a form chosen for determinism: `batch` simulations are in flight, and the tree
// is read and written by one thread at a time (under a lock), in an order that does not depend on
// timing. Selections run in order, each counting the simulations in flight through a node as visits
// whose outcome is not yet known (WU-UCT's O_s, so they spread over the tree instead of repeating
// one path); expansions and rollouts -- the costly part: rule applications on e-graph snapshots and
// reward extractions -- run as oneTBB tasks, started in the order of selection, each simulation
// with its own random stream derived from the seed and its number; backups run in the order of
// selection, and simulation i + batch is selected right after simulation i is backed up, by the
// thread that finished it (a window, not waves: a thread done with a short simulation starts the
// next one instead of waiting for the wave's longest). A simulation ending at a terminal node has
// nothing to play and is backed up at once. Simulations in flight may expand the same node: they
// split the untried actions of its claim (claimant j tries every min(batch, untried)-th one,
// starting at the j-th). Within a simulation, two more kinds of task let an idle thread help a
// longer one: each state's reward extraction runs beside the search for the next state, and
// candidate rules that match are tried two at a time (search/first_change.hpp; the earliest that
// changes the state wins, as sequentially). Nothing depends on timing, so a seed gives the same
// search for every thread count given the same `batch`; `batch` = 1 is the sequential algorithm.
// Tree parallelism with virtual loss was not chosen: its threads race on the tree, so results would
// depend on scheduling.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <tbb/task_arena.h>

#include "dsl/lowering.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "search/state_cost.hpp"
#include "search/stop_reason.hpp"
#include "support/enum_names.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

enum class RolloutPolicy { kRandom, kHeavy, kLookahead };
inline constexpr EnumNames<RolloutPolicy, 3> kRolloutPolicyNames{
    {{RolloutPolicy::kRandom, "random"},
     {RolloutPolicy::kHeavy, "heavy"},
     {RolloutPolicy::kLookahead, "lookahead"}}};

// Which of the root actions sharing the best mean value a planning step commits. It matters when
// the search continues without gain (`stop_without_gain` false): then every root value is 0 and
// the tie-break alone decides how the e-graph grows.
//  - kVisits: the most visited, then the lowest rule index (the WU-UCT code for egg,
//    hgl71964/rmcts, takes the lowest index among the expanded actions);
//  - kRandom: a seeded random one;
//  - kFair: the rule committed least often so far, then the one whose state has the fewest
//    e-nodes, then the lowest index, so that a run of zero-value commits applies every rule that
//    changes the e-graph in turn, cheapest growth first, instead of one rule again and again.
enum class TieBreak { kVisits, kRandom, kFair };
inline constexpr EnumNames<TieBreak, 3> kTieBreakNames{
    {{TieBreak::kVisits, "visits"}, {TieBreak::kRandom, "random"}, {TieBreak::kFair, "fair"}}};

// The reward of a transition from a state of extracted cost `parent_cost` to one of `cost`; the
// default (an empty function) is max(parent_cost - cost, 0). Called for every expansion and
// rollout step, concurrently when `threads` > 1.
using RewardFunction = std::function<double(double parent_cost, double cost)>;

struct MctsStep;
// Called after each committed planning step with its record and its number (1, 2, ...); returning
// false stops the search there (StopReason::kStopped).
using StepHook = std::function<bool(const MctsStep& step, std::size_t step_number)>;

// With the planners' step and e-node limits (PlanLimits: max_steps, node_limit).
struct MctsOptions : PlanLimits {
  // These two defaults were chosen in bench/results/2026-12-07-search-defaults.
  std::size_t simulations = 64;  // per planning step
  std::size_t rollout_depth = 5;
  double gamma = 0.99;
  double exploration = 2.0;         // c in the UCT bonus
  double expand_probability = 0.5;  // below the root, once a child has been visited
  bool stop_without_gain = true;    // stop when the best root action's mean value is 0
  bool best_state = false;          // return the cheapest committed state, not the last
  TieBreak tie_break = TieBreak::kVisits;
  RolloutPolicy policy = RolloutPolicy::kRandom;
  double heavy_epsilon = 0.2;       // heavy policy: chance of a random action
  std::size_t lookahead_width = 5;  // lookahead policy: one-step candidates tried
  std::uint64_t seed = 1;
  std::size_t batch = 0;      // simulations in flight; 0 = the limits' thread count
  ProgressCallback progress;  // after each committed step (best cost = the root's reward cost)
  RewardFunction reward;      // empty: max(parent_cost - cost, 0)
  StepHook on_step;           // empty: none
};

struct MctsStep {
  std::size_t rule = 0;         // the committed action
  double mean_value = 0;        // its Q/N at the root when committed
  double cost = 0;              // the state's extracted cost after it
  std::size_t nodes = 0;        // e-nodes after it
  std::size_t simulations = 0;  // simulations run in this planning step
  std::string rule_name;        // the committed rule's name (records name rules, not indexes)
};

// The thread counts for which a search estimates its simulations' time (MctsResult).
inline constexpr std::array<std::size_t, 3> kScheduledThreads{2, 4, 8};

struct MctsResult {
  tensor::TensorEGraph state;   // the final e-graph (all committed actions applied; see best_state)
  std::size_t state_steps = 0;  // the committed steps applied to `state`
  std::vector<MctsStep> steps;
  StopReason stop = StopReason::kStepLimit;
  std::size_t simulations = 0;
  // Reward extractions run and answered from the memo (with several threads, two simulations may
  // both miss on one state, so these two counts, unlike the search, may vary from run to run).
  std::size_t evaluations = 0;
  std::size_t memo_hits = 0;
  std::uint64_t work = 0;  // work units spent (search/work_units.hpp)
  // CPU time (thread time, so other processes do not inflate it) of the whole search on the
  // calling thread, of all simulations' expansions and rollouts, and the critical path of the
  // simulations with a thread for every task: each simulation takes its span (its chain of
  // dependent work, each extraction and the search beside it, and each pair of candidates tried
  // at once, counted as the longer one) and starts once every simulation `batch` or more before
  // it has finished; summed over planning steps. From a one-thread run: cpu / (cpu - simulation +
  // max(simulation / T, critical)) bounds the speedup on T threads from above.
  double cpu_seconds = 0, simulation_cpu_seconds = 0, critical_cpu_seconds = 0;
  // Per thread count T of kScheduledThreads: the simulations' time on T threads estimated from
  // their CPU times, each simulation on one thread (no help from idle threads, no overhead), in
  // the window's order (a simulation starts once a thread is free and every simulation `batch`
  // or more before it has finished); summed over planning steps. From a one-thread run, cpu /
  // (cpu - simulation + scheduled) estimates the speedup on T threads.
  std::vector<std::pair<std::size_t, double>> scheduled_cpu_seconds;
  double initial_cost = 0;
};

// Limits: `seconds` is the whole search's budget, `work` its work budget (checked before each
// planning step and each simulation's selection); `memory_bytes` bounds the e-graph snapshots the
// tree holds (simulations stop when they reach it, and the search stops when the tree is still
// this large after a commit); `threads` run the expansions and rollouts. `arena`: the oneTBB arena
// they run in when the search shares its threads with another one run beside it (then its CPU
// clocks also count the other's tasks a waiting thread ran); null: an arena of its own with
// `limits.threads`.
MctsResult run_mcts(tensor::TensorEGraph initial, const dsl::RuleSet& rules, const StateCost& cost,
                    const MctsOptions& options, const SearchLimits& limits,
                    tbb::task_arena* arena = nullptr);

// A hash of an e-graph's structure that does not depend on e-class ids (two rounds of colour
// refinement over classes), for memoizing extracted costs across states reached in other orders.
std::uint64_t structural_hash(const tensor::TensorEGraph& state);

}  // namespace mctsat::search
