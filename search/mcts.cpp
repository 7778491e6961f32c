// The MCTS planner: tree, simulations (selection, expansion, rollout, backup), receding horizon.
#include "search/mcts.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <unordered_map>

#include "search/rule_step.hpp"
#include "support/error.hpp"

namespace mctsat::search {
namespace {

using Clock = std::chrono::steady_clock;
using tensor::TensorEGraph;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 32);
}

// A sorted multiset's hash.
std::uint64_t hash_sorted(std::vector<std::uint64_t>& values) {
  std::sort(values.begin(), values.end());
  std::uint64_t h = values.size();
  for (std::uint64_t v : values) h = mix(h, v);
  return h;
}

enum class ActionStatus : std::uint8_t { kUntried, kExpanded, kPruned };

struct TreeNode {
  int parent = -1;
  std::size_t action = 0;  // the rule applied to reach this node
  std::unique_ptr<TensorEGraph> state;
  double cost = 0;
  double reward = 0;          // max(parent's cost - cost, 0)
  std::vector<int> children;  // per action
  std::vector<ActionStatus> status;
  std::size_t visits = 0;
  double value = 0;  // sum of returns from this node's transition on
  bool terminal = false;
};

class Planner {
 public:
  Planner(const dsl::RuleSet& rules, const StateCost& cost, const MctsOptions& options)
      : rules_(rules),
        cost_(cost),
        options_(options),
        rng_(options.seed),
        action_reward_(rules.size(), {0.0, 0}) {
    step_options_.node_limit = options.node_limit;
    step_options_.cycle_filter = options.cycle_filter;
  }

  MctsResult run(TensorEGraph initial) {
    const auto start = Clock::now();
    MctsResult result;
    nodes_.clear();
    nodes_.push_back(make_node(-1, 0, std::make_unique<TensorEGraph>(std::move(initial)), 0));
    result.initial_cost = nodes_[0].cost;
    nodes_[0].reward = 0;
    result.stop_reason = "step limit";
    for (std::size_t step = 0; step < options_.max_steps; ++step) {
      if (elapsed(start) >= options_.seconds) {
        result.stop_reason = "time limit";
        break;
      }
      if (nodes_[0].terminal) {
        result.stop_reason = "node limit";
        break;
      }
      std::size_t simulations = 0;
      for (; simulations < options_.simulations && elapsed(start) < options_.seconds; ++simulations)
        simulate();
      result.simulations += simulations;
      const int best = best_root_child();
      if (best < 0) {
        result.stop_reason = "saturated";
        break;
      }
      const TreeNode& chosen = nodes_[static_cast<std::size_t>(best)];
      const double mean =
          chosen.value / static_cast<double>(std::max<std::size_t>(chosen.visits, 1));
      if (mean <= 0) {
        result.stop_reason = "no improving action";
        break;
      }
      result.steps.push_back(
          {chosen.action, mean, chosen.cost, chosen.state->egraph.num_nodes(), simulations});
      commit(best);
    }
    result.state = std::move(*nodes_[0].state);
    result.evaluations = evaluations_;
    result.memo_hits = memo_hits_;
    return result;
  }

 private:
  static double elapsed(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  double evaluate(const TensorEGraph& state) {
    const std::uint64_t key = structural_hash(state);
    if (const auto found = memo_.find(key); found != memo_.end()) {
      ++memo_hits_;
      return found->second;
    }
    ++evaluations_;
    const double cost = cost_(state);
    memo_.emplace(key, cost);
    return cost;
  }

  TreeNode make_node(int parent, std::size_t action, std::unique_ptr<TensorEGraph> state,
                     double parent_cost) {
    TreeNode node;
    node.parent = parent;
    node.action = action;
    node.cost = evaluate(*state);
    node.reward = std::max(parent_cost - node.cost, 0.0);
    node.terminal = state->egraph.num_nodes() >= options_.node_limit;
    node.state = std::move(state);
    node.children.assign(rules_.size(), -1);
    node.status.assign(rules_.size(), ActionStatus::kUntried);
    return node;
  }

  // Applies one rule to a copy of `state`; nullptr when it changes nothing.
  std::unique_ptr<TensorEGraph> apply(const TensorEGraph& state, std::size_t rule) {
    auto next = std::make_unique<TensorEGraph>(state);
    std::vector<bool> enabled(rules_.size(), false);
    enabled[rule] = true;
    const auto stats = apply_rules(*next, rules_, enabled, step_options_);
    if (!stats.changed) return nullptr;
    return next;
  }

  double uct(const TreeNode& parent, const TreeNode& child) const {
    const double n = static_cast<double>(child.visits);
    if (n == 0) return std::numeric_limits<double>::infinity();
    return child.value / n +
           options_.exploration *
               std::sqrt(2.0 *
                         std::log(static_cast<double>(std::max<std::size_t>(parent.visits, 1))) /
                         n);
  }

  // Tries untried actions of `index` in random order; returns the new child or -1 when every
  // untried action turned out to change nothing (they are pruned).
  int expand(std::size_t index) {
    std::vector<std::size_t> untried;
    for (std::size_t a = 0; a < rules_.size(); ++a)
      if (nodes_[index].status[a] == ActionStatus::kUntried) untried.push_back(a);
    std::shuffle(untried.begin(), untried.end(), rng_);
    for (std::size_t action : untried) {
      auto next = apply(*nodes_[index].state, action);
      if (!next) {
        nodes_[index].status[action] = ActionStatus::kPruned;
        continue;
      }
      const double parent_cost = nodes_[index].cost;
      nodes_.push_back(make_node(static_cast<int>(index), action, std::move(next), parent_cost));
      const int child = static_cast<int>(nodes_.size() - 1);
      nodes_[index].status[action] = ActionStatus::kExpanded;
      nodes_[index].children[action] = child;
      return child;
    }
    return -1;
  }

  bool has_untried(const TreeNode& node) const {
    return std::any_of(node.status.begin(), node.status.end(),
                       [](ActionStatus s) { return s == ActionStatus::kUntried; });
  }

  void simulate() {
    std::vector<std::size_t> path{0};
    std::size_t current = 0;
    while (!nodes_[current].terminal) {
      const TreeNode& node = nodes_[current];
      const bool any_visited_child = std::any_of(
          node.children.begin(), node.children.end(),
          [&](int c) { return c >= 0 && nodes_[static_cast<std::size_t>(c)].visits > 0; });
      const bool expand_here = has_untried(node) && (current == 0 || !any_visited_child ||
                                                     std::uniform_real_distribution<double>(
                                                         0, 1)(rng_) < options_.expand_probability);
      if (expand_here) {
        const int child = expand(current);
        if (child >= 0) {
          path.push_back(static_cast<std::size_t>(child));
          current = static_cast<std::size_t>(child);
          break;
        }
      }
      int best = -1;
      double best_score = -std::numeric_limits<double>::infinity();
      for (std::size_t a = 0; a < rules_.size(); ++a) {
        const int c = nodes_[current].children[a];
        if (c < 0) continue;
        const double score = uct(nodes_[current], nodes_[static_cast<std::size_t>(c)]);
        if (score > best_score) {
          best_score = score;
          best = c;
        }
      }
      if (best < 0) break;  // every action pruned: a leaf
      path.push_back(static_cast<std::size_t>(best));
      current = static_cast<std::size_t>(best);
    }
    double ret = rollout(current);
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      TreeNode& node = nodes_[*it];
      ret = node.reward + options_.gamma * ret;
      ++node.visits;
      node.value += ret;
      if (node.parent >= 0) {
        auto& [sum, count] = action_reward_[node.action];
        sum += node.reward;
        ++count;
      }
    }
  }

  // A random-order list of actions for a rollout step, following the policy.
  std::vector<std::size_t> rollout_candidates() {
    std::vector<std::size_t> order(rules_.size());
    for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
    std::shuffle(order.begin(), order.end(), rng_);
    if (options_.policy == RolloutPolicy::kHeavy &&
        std::uniform_real_distribution<double>(0, 1)(rng_) >= options_.heavy_epsilon) {
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return mean_reward(a) > mean_reward(b);
      });
    }
    return order;
  }

  double mean_reward(std::size_t action) const {
    const auto& [sum, count] = action_reward_[action];
    return count == 0 ? 0.0 : sum / static_cast<double>(count);
  }

  // The discounted return of a rollout of up to rollout_depth steps from a node's state.
  double rollout(std::size_t index) {
    if (nodes_[index].terminal || options_.rollout_depth == 0) return 0;
    TensorEGraph state = *nodes_[index].state;
    double previous = nodes_[index].cost;
    double ret = 0, discount = 1;
    for (std::size_t depth = 0; depth < options_.rollout_depth; ++depth) {
      std::unique_ptr<TensorEGraph> next;
      double next_cost = 0;
      if (options_.policy == RolloutPolicy::kLookahead) {
        std::size_t tried = 0;
        for (std::size_t action : rollout_candidates()) {
          if (tried == options_.lookahead_width) break;
          auto candidate = apply(state, action);
          if (!candidate) continue;
          ++tried;
          const double c = evaluate(*candidate);
          if (!next || c < next_cost) {
            next = std::move(candidate);
            next_cost = c;
          }
        }
      } else {
        for (std::size_t action : rollout_candidates()) {
          next = apply(state, action);
          if (next) break;
        }
        if (next) next_cost = evaluate(*next);
      }
      if (!next) break;  // nothing applies any more
      ret += discount * std::max(previous - next_cost, 0.0);
      discount *= options_.gamma;
      previous = next_cost;
      state = std::move(*next);
      if (state.egraph.num_nodes() >= options_.node_limit) break;
    }
    return ret;
  }

  int best_root_child() const {
    int best = -1;
    double best_mean = -std::numeric_limits<double>::infinity();
    for (std::size_t a = 0; a < rules_.size(); ++a) {
      const int c = nodes_[0].children[a];
      if (c < 0 || nodes_[static_cast<std::size_t>(c)].visits == 0) continue;
      const TreeNode& child = nodes_[static_cast<std::size_t>(c)];
      const double mean = child.value / static_cast<double>(child.visits);
      if (mean > best_mean) {
        best_mean = mean;
        best = c;
      }
    }
    return best;
  }

  // Makes the chosen child the new root, keeping its subtree (receding horizon).
  void commit(int chosen) {
    std::vector<TreeNode> kept;
    std::vector<int> remap(nodes_.size(), -1);
    std::vector<std::size_t> queue{static_cast<std::size_t>(chosen)};
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const std::size_t old = queue[i];
      remap[old] = static_cast<int>(i);
      for (int c : nodes_[old].children)
        if (c >= 0) queue.push_back(static_cast<std::size_t>(c));
    }
    for (std::size_t old : queue) {
      TreeNode node = std::move(nodes_[old]);
      node.parent = node.parent >= 0 && remap[static_cast<std::size_t>(node.parent)] >= 0
                        ? remap[static_cast<std::size_t>(node.parent)]
                        : -1;
      for (int& c : node.children)
        if (c >= 0) c = remap[static_cast<std::size_t>(c)];
      kept.push_back(std::move(node));
    }
    kept[0].reward = 0;
    nodes_ = std::move(kept);
  }

  const dsl::RuleSet& rules_;
  const StateCost& cost_;
  MctsOptions options_;
  StepOptions step_options_;
  std::mt19937_64 rng_;
  std::vector<TreeNode> nodes_;
  std::unordered_map<std::uint64_t, double> memo_;
  std::vector<std::pair<double, std::size_t>> action_reward_;  // heavy policy: per rule
  std::size_t evaluations_ = 0, memo_hits_ = 0;
};

}  // namespace

RolloutPolicy parse_rollout_policy(const std::string& name) {
  if (name == "random") return RolloutPolicy::kRandom;
  if (name == "heavy") return RolloutPolicy::kHeavy;
  if (name == "lookahead") return RolloutPolicy::kLookahead;
  throw Error("unknown rollout policy '" + name + "' (random, heavy, lookahead)");
}

std::uint64_t structural_hash(const TensorEGraph& state) {
  const auto& egraph = state.egraph;
  const auto classes = egraph.classes();
  std::unordered_map<egraph::Id, std::uint64_t> colour, next;
  std::vector<std::uint64_t> parts;
  for (egraph::Id c : classes) {
    parts.clear();
    for (egraph::Id n : egraph.nodes_of(c))
      parts.push_back(mix(egraph.node(n).op, static_cast<std::uint64_t>(egraph.node(n).payload)));
    colour[c] = hash_sorted(parts);
  }
  for (int round = 0; round < 2; ++round) {
    for (egraph::Id c : classes) {
      parts.clear();
      for (egraph::Id n : egraph.nodes_of(c)) {
        const auto e = egraph.node(n);
        std::uint64_t h = mix(e.op, static_cast<std::uint64_t>(e.payload));
        for (egraph::Id child : e.children) h = mix(h, colour[egraph.find(child)]);
        parts.push_back(h);
      }
      next[c] = mix(colour[c], hash_sorted(parts));
    }
    colour.swap(next);
  }
  parts.clear();
  for (egraph::Id c : classes) parts.push_back(colour[c]);
  std::uint64_t h = hash_sorted(parts);
  for (egraph::Id root : state.roots) h = mix(h, colour[egraph.find(root)]);
  return mix(h, egraph.num_nodes() * 1'000'003ULL + egraph.num_classes());
}

MctsResult run_mcts(TensorEGraph initial, const dsl::RuleSet& rules, const StateCost& cost,
                    const MctsOptions& options) {
  return Planner(rules, cost, options).run(std::move(initial));
}

}  // namespace mctsat::search
