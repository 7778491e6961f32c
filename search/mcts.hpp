// Monte Carlo tree search over rule applications (Hartmann, He, Yoneki, PACT'24). A tree node
// holds an e-graph state; an action applies one rule to all its matches for one iteration. UCT
// selection `Q/N + c * sqrt(2 ln N_parent / n)`; expansion of an untried, unpruned action (always
// at the root, elsewhere with probability p once a child has been visited); action pruning (a rule
// that changes nothing in a state is never chosen there again); rollouts of up to `rollout_depth`
// steps; reward = max(previous cost - extracted cost, 0), discounted by gamma; extracted costs
// memoized by a structural hash of the e-graph. Receding horizon: `simulations` per planning step,
// then the root action with the best mean value is committed, until no action helps, the node
// limit is reached, or `max_steps`.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dsl/lowering.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

enum class RolloutPolicy { kRandom, kHeavy, kLookahead };
RolloutPolicy parse_rollout_policy(const std::string& name);  // random | heavy | lookahead

struct MctsOptions {
  std::size_t simulations = 128;  // per planning step
  std::size_t rollout_depth = 10;
  double gamma = 0.99;
  double exploration = 2.0;         // c in the UCT bonus
  double expand_probability = 0.5;  // below the root, once a child has been visited
  std::size_t max_steps = 200;      // planning steps
  std::size_t node_limit = 2'000;   // e-nodes
  double seconds = 3600;            // wall-clock budget for the whole search
  RolloutPolicy policy = RolloutPolicy::kRandom;
  double heavy_epsilon = 0.2;       // heavy policy: chance of a random action
  std::size_t lookahead_width = 5;  // lookahead policy: one-step candidates tried
  std::uint64_t seed = 1;
  bool cycle_filter = true;
};

// The cost the reward extractor assigns to a state (lower is better).
using StateCost = std::function<double(const tensor::TensorEGraph&)>;

struct MctsStep {
  std::size_t rule = 0;         // the committed action
  double mean_value = 0;        // its Q/N at the root when committed
  double cost = 0;              // the state's extracted cost after it
  std::size_t nodes = 0;        // e-nodes after it
  std::size_t simulations = 0;  // simulations run in this planning step
};

struct MctsResult {
  tensor::TensorEGraph state;  // the final e-graph (all committed actions applied)
  std::vector<MctsStep> steps;
  std::string
      stop_reason;  // "no improving action", "node limit", "step limit", "time limit", "saturated"
  std::size_t simulations = 0;
  std::size_t evaluations = 0;  // reward extractions actually run
  std::size_t memo_hits = 0;    // reward extractions answered from the memo
  double initial_cost = 0;
};

MctsResult run_mcts(tensor::TensorEGraph initial, const dsl::RuleSet& rules, const StateCost& cost,
                    const MctsOptions& options);

// A hash of an e-graph's structure that does not depend on e-class ids (two rounds of colour
// refinement over classes), for memoizing extracted costs across states reached in other orders.
std::uint64_t structural_hash(const tensor::TensorEGraph& state);

}  // namespace mctsat::search
