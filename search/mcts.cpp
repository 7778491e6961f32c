// The MCTS planner: tree, simulations in a window of `batch` in flight (selection, parallel
// expansion and rollout, backup in order), receding horizon.
#include "search/mcts.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "search/first_change.hpp"
#include "search/rule_screen.hpp"
#include "search/rule_step.hpp"
#include "search/search_arena.hpp"
#include "support/error.hpp"
#include "support/random_draws.hpp"
#include "support/stable_hash.hpp"
#include "support/thread_cpu_time.hpp"

namespace mctsat::search {
namespace {

using Clock = std::chrono::steady_clock;
using tensor::TensorEGraph;

// A sorted multiset's hash.
std::uint64_t hash_sorted(std::vector<std::uint64_t>& values) {
  std::sort(values.begin(), values.end());
  std::uint64_t h = values.size();
  for (std::uint64_t v : values) h = hash_combine(h, v);
  return h;
}

enum class ActionStatus : std::uint8_t { kUntried, kExpanded, kPruned };

struct TreeNode {
  int parent = -1;
  std::size_t action = 0;  // the rule applied to reach this node
  std::unique_ptr<TensorEGraph> state;
  double cost = 0;
  double reward = 0;          // the reward function of parent cost and cost
  std::vector<int> children;  // per action
  std::vector<ActionStatus> status;
  std::size_t visits = 0;
  std::size_t in_flight = 0;  // simulations of the current wave whose path passes here
  double value = 0;           // sum of returns from this node's transition on
  bool terminal = false;
  std::size_t bytes = 0;  // the state's memory
};

// The untried actions of a node that simulations in flight expand, shared out among them:
// claimant j (of at most `stride`) tries order[j], order[j + stride], ... The claim ends when its
// last claimant is backed up; actions no claimant took stay untried for a later claim.
struct Claim {
  std::vector<std::size_t> order;  // the node's untried actions when claimed, shuffled
  std::size_t stride = 1;          // min(batch, order.size())
  std::size_t claimants = 0;       // shares handed out
  std::size_t in_flight = 0;       // claimants not yet backed up
};

// One simulation. Selection fills `path`, the leaf's state and cost, `expands` with `actions`, and
// for the heavy policy the snapshot of the rules' mean rewards (so that play reads nothing of the
// tree, which backups change meanwhile); the parallel phase fills the rest; the backup reads it.
struct Simulation {
  std::vector<std::size_t> path;  // tree nodes from the root to the selected leaf
  const TensorEGraph* leaf_state = nullptr;
  double leaf_cost = 0;
  bool expands = false;              // the leaf is expanded by this simulation
  std::vector<std::size_t> actions;  // its share of the leaf's claim, in order
  std::vector<double> mean_rewards;  // heavy policy: per rule, at selection
  std::uint64_t seed = 0;
  std::vector<std::size_t> pruned;      // actions found to change nothing at the leaf
  std::unique_ptr<TensorEGraph> child;  // the expanded state, if any
  std::size_t child_action = 0;
  double child_cost = 0;
  double rollout_return = 0;
  // CPU time of the parallel phase: all its work, and its span (the work along its chain of
  // dependent steps, each overlapped part counted once: what it takes with a thread for every
  // task it can spawn).
  double cpu_seconds = 0, span_cpu_seconds = 0;
  std::uint64_t work = 0;  // work units (search/work_units.hpp) of the parallel phase
  // The bytes each e-graph this simulation builds may grow to (the memory limit's room left by
  // the tree, shared by the simulations in flight and the states each holds at once).
  std::size_t memory_allowance = std::numeric_limits<std::size_t>::max();
};

// A planning step's simulations scheduled on `threads` threads, each taking the duration it is
// given, in the window's order: simulation i, in the order of selection, starts once a thread is
// free and every simulation up to i - batch has finished. With as many threads as the batch and
// spans as durations, its length is the critical path. With at least as many threads as the
// batch a thread is always free when a simulation is ready (at most batch - 1 others run), so no
// thread is tracked: memory grows with the simulations added, never with the batch.
class WindowSchedule {
 public:
  WindowSchedule(std::size_t batch, std::size_t threads)
      : batch_(batch), free_(threads < batch ? threads : 0, 0.0) {}
  void add(double seconds) {
    const double ready = finished_.size() >= batch_ ? finished_[finished_.size() - batch_] : 0.0;
    double end = ready + seconds;
    if (!free_.empty()) {
      double& thread = *std::min_element(free_.begin(), free_.end());
      thread = end = std::max(thread, ready) + seconds;
    }
    finished_.push_back(std::max(length(), end));
  }
  double length() const { return finished_.empty() ? 0.0 : finished_.back(); }

 private:
  std::size_t batch_;
  std::vector<double> free_;      // per thread: when it is free
  std::vector<double> finished_;  // per simulation: when it and all before it have finished
};

class Planner {
 public:
  Planner(const dsl::RuleSet& rules, const StateCost& cost, const MctsOptions& options,
          const SearchLimits& limits, tbb::task_arena* arena)
      : rules_(rules),
        cost_(cost),
        options_(options),
        limits_(limits),
        batch_(std::max<std::size_t>(options.batch == 0 ? limits.threads : options.batch, 1)),
        rng_(options.seed),
        arena_(arena, limits.threads),
        action_reward_(rules.size(), {0.0, 0}),
        commits_(rules.size(), 0) {
    step_options_.node_limit = options.node_limit;
    step_options_.cycle_filter = limits.cycle_filter;
  }

  MctsResult run(TensorEGraph initial) {
    const auto start = Clock::now();
    const double cpu_start = thread_cpu_seconds();
    MctsResult result;
    nodes_.clear();
    auto root_state = std::make_unique<TensorEGraph>(std::move(initial));
    const double root_cost = evaluate(*root_state);
    work_ += root_state->egraph.num_nodes();
    nodes_.push_back(make_node(-1, 0, std::move(root_state), root_cost, root_cost));
    tree_bytes_ = nodes_[0].bytes;
    result.initial_cost = root_cost;
    result.stop = StopReason::kStepLimit;
    report_progress(0, root_cost, start);
    // With best_state: a copy of the cheapest committed state so far (at first the root's).
    std::unique_ptr<TensorEGraph> best_state;
    double best_cost = root_cost;
    if (options_.best_state) best_state = std::make_unique<TensorEGraph>(*nodes_[0].state);
    for (std::size_t step = 0; step < options_.max_steps; ++step) {
      if (elapsed(start) >= limits_.seconds) {
        result.stop = StopReason::kTimeLimit;
        break;
      }
      if (nodes_[0].terminal) {
        result.stop = StopReason::kNodeLimit;
        break;
      }
      if (work_ >= limits_.work) {
        result.stop = StopReason::kWorkLimit;
        break;
      }
      if (tree_bytes_ >= limits_.memory_bytes) {
        result.stop = StopReason::kMemoryLimit;
        break;
      }
      const std::size_t simulations = run_simulations(start);
      result.simulations += simulations;
      const int best = best_root_child();
      if (best < 0) {
        result.stop = StopReason::kSaturated;
        break;
      }
      const TreeNode& chosen = nodes_[static_cast<std::size_t>(best)];
      const double mean =
          chosen.value / static_cast<double>(std::max<std::size_t>(chosen.visits, 1));
      if (mean <= 0 && options_.stop_without_gain) {
        result.stop = StopReason::kNoImprovement;
        break;
      }
      result.steps.push_back({chosen.action, mean, chosen.cost, chosen.state->egraph.num_nodes(),
                              simulations, rules_.rule(chosen.action).name});
      ++commits_[chosen.action];
      commit(best);
      if (best_state && nodes_[0].cost < best_cost) {
        best_cost = nodes_[0].cost;
        *best_state = *nodes_[0].state;
        result.state_steps = result.steps.size();
      }
      report_progress(result.steps.size(), nodes_[0].cost, start);
      if (options_.on_step && !options_.on_step(result.steps.back(), result.steps.size())) {
        result.stop = StopReason::kStopped;
        break;
      }
    }
    if (best_state) {
      result.state = std::move(*best_state);
    } else {
      result.state = std::move(*nodes_[0].state);
      result.state_steps = result.steps.size();
    }
    result.evaluations = evaluations_;
    result.memo_hits = memo_hits_;
    result.work = work_;
    result.cpu_seconds = thread_cpu_seconds() - cpu_start;
    result.simulation_cpu_seconds = simulation_cpu_;
    result.critical_cpu_seconds = critical_cpu_;
    for (std::size_t i = 0; i < kScheduledThreads.size(); ++i)
      result.scheduled_cpu_seconds.emplace_back(kScheduledThreads[i], scheduled_cpu_[i]);
    return result;
  }

 private:
  static double elapsed(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  void report_progress(std::size_t step, double cost, Clock::time_point start) const {
    if (options_.progress)
      options_.progress(
          {step, options_.max_steps, cost, nodes_[0].state->egraph.num_nodes(), elapsed(start)});
  }

  double reward(double parent_cost, double cost) const {
    return options_.reward ? options_.reward(parent_cost, cost) : std::max(parent_cost - cost, 0.0);
  }

  // The state's extracted cost, memoized (thread-safe).
  double evaluate(const TensorEGraph& state) {
    const std::uint64_t key = structural_hash(state);
    {
      const std::lock_guard lock(memo_mutex_);
      if (const auto found = memo_.find(key); found != memo_.end()) {
        ++memo_hits_;
        return found->second;
      }
    }
    const double cost = cost_(state);
    const std::lock_guard lock(memo_mutex_);
    ++evaluations_;
    memo_.emplace(key, cost);
    return cost;
  }

  TreeNode make_node(int parent, std::size_t action, std::unique_ptr<TensorEGraph> state,
                     double cost, double parent_cost) const {
    TreeNode node;
    node.parent = parent;
    node.action = action;
    node.cost = cost;
    node.reward = reward(parent_cost, cost);
    node.terminal = state->egraph.num_nodes() >= options_.node_limit;
    node.bytes = state->egraph.memory_bytes();
    node.state = std::move(state);
    node.children.assign(rules_.size(), -1);
    node.status.assign(rules_.size(), ActionStatus::kUntried);
    return node;
  }

  // Applies one rule to a copy of `state`, growing it to at most `memory_allowance` bytes;
  // nullptr when it changes nothing.
  std::unique_ptr<TensorEGraph> apply(const TensorEGraph& state, std::size_t rule,
                                      std::size_t memory_allowance) const {
    if (!may_change(state, rules_, rule)) return nullptr;
    return apply_matched(state, rule, memory_allowance);
  }

  // `apply` for a rule known to match `state`.
  std::unique_ptr<TensorEGraph> apply_matched(const TensorEGraph& state, std::size_t rule,
                                              std::size_t memory_allowance) const {
    auto next = std::make_unique<TensorEGraph>(state);
    std::vector<bool> enabled(rules_.size(), false);
    enabled[rule] = true;
    StepOptions step = step_options_;
    step.memory_bytes = memory_allowance;
    const auto stats = apply_rules(*next, rules_, enabled, step);
    if (!stats.changed) return nullptr;
    return next;
  }

  // The UCT score with WU-UCT's in-flight simulations counted as visits of unknown outcome.
  double uct(const TreeNode& parent, const TreeNode& child) const {
    const double n = static_cast<double>(child.visits + child.in_flight);
    if (n == 0) return std::numeric_limits<double>::infinity();
    const double mean = child.visits == 0 ? 0.0 : child.value / static_cast<double>(child.visits);
    const double parent_n =
        static_cast<double>(std::max<std::size_t>(parent.visits + parent.in_flight, 1));
    return mean + options_.exploration * std::sqrt(2.0 * std::log(parent_n) / n);
  }

  std::size_t untried_count(const TreeNode& node) const {
    return static_cast<std::size_t>(
        std::count(node.status.begin(), node.status.end(), ActionStatus::kUntried));
  }

  // Selection of one simulation: descends by UCT until a node to expand (a share of its claim
  // for this simulation), a terminal node, or a node with no child to descend to.
  void select(Simulation& sim) {
    sim.path.assign(1, 0);
    std::size_t current = 0;
    while (!nodes_[current].terminal) {
      const TreeNode& node = nodes_[current];
      const auto claim = claims_.find(current);
      const bool claimable = claim == claims_.end()
                                 ? untried_count(node) > 0
                                 : claim->second.claimants < claim->second.stride;
      const bool any_visited_child = std::any_of(
          node.children.begin(), node.children.end(),
          [&](int c) { return c >= 0 && nodes_[static_cast<std::size_t>(c)].visits > 0; });
      const bool expand_here = claimable && (current == 0 || !any_visited_child ||
                                             random_unit(rng_) < options_.expand_probability);
      if (expand_here) {
        Claim& c = claims_[current];
        if (c.claimants == 0) {
          for (std::size_t a = 0; a < rules_.size(); ++a)
            if (node.status[a] == ActionStatus::kUntried) c.order.push_back(a);
          random_shuffle(c.order, rng_);
          c.stride = std::min(batch_, c.order.size());
        }
        for (std::size_t i = c.claimants; i < c.order.size(); i += c.stride)
          sim.actions.push_back(c.order[i]);
        ++c.claimants;
        ++c.in_flight;
        sim.expands = true;
        break;
      }
      int best = -1;
      double best_score = -std::numeric_limits<double>::infinity();
      for (std::size_t a = 0; a < rules_.size(); ++a) {
        const int c = node.children[a];
        if (c < 0) continue;
        const double score = uct(node, nodes_[static_cast<std::size_t>(c)]);
        if (score > best_score) {
          best_score = score;
          best = c;
        }
      }
      if (best < 0) break;  // every action pruned or claimed: a leaf
      current = static_cast<std::size_t>(best);
      sim.path.push_back(current);
    }
    for (std::size_t index : sim.path) ++nodes_[index].in_flight;
    const TreeNode& leaf = nodes_[sim.path.back()];
    sim.leaf_state = leaf.state.get();
    sim.leaf_cost = leaf.cost;
    if (options_.policy == RolloutPolicy::kHeavy) {
      sim.mean_rewards.resize(rules_.size());
      for (std::size_t a = 0; a < rules_.size(); ++a) {
        const auto& [sum, count] = action_reward_[a];
        sim.mean_rewards[a] = count == 0 ? 0.0 : sum / static_cast<double>(count);
      }
    }
  }

  // The costs of a simulation's states in order (the leaf's, then its expanded child's and each
  // rollout state's), with its CPU time. A state's reward extraction runs (with `parallel`) as a
  // task while the simulation searches for the next state; at most one is pending, and
  // evaluate, known, release and finish wait for it, so a state may be dropped after the next
  // state's `evaluate`. Its span counts a pending extraction and the work done beside it as the
  // longer of the two, also when run without threads (the projection's span).
  class Pipeline {
   public:
    Pipeline(Planner& planner, bool parallel) : planner_(planner), parallel_(parallel) {}
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;
    ~Pipeline() { tasks_.wait(); }

    void known(double cost) {
      settle();
      costs_.push_back(cost);
    }
    // `state` must live until the next call of evaluate, known, release or finish.
    void evaluate(const TensorEGraph& state) {
      settle();
      double& cost = costs_.emplace_back(0.0);
      const auto extract = [this, &state, &cost] {
        const double start = thread_cpu_seconds();
        cost = planner_.evaluate(state);
        pending_seconds_ = thread_cpu_seconds() - start;
      };
      if (parallel_)
        tasks_.run(extract);
      else
        extract();
      pending_ = true;
    }
    void add_work(double cpu_seconds, double span_cpu_seconds) {
      work_ += cpu_seconds;
      (pending_ ? beside_pending_ : span_) += span_cpu_seconds;
    }
    void release(std::unique_ptr<TensorEGraph>& state) {
      settle();
      state.reset();
    }
    void finish() { settle(); }

    std::size_t size() const { return costs_.size(); }
    double cost(std::size_t i) const { return costs_[i]; }
    double cpu_seconds() const { return work_; }
    double span_cpu_seconds() const { return span_; }

   private:
    void settle() {
      if (!pending_) return;
      tasks_.wait();
      work_ += pending_seconds_;
      span_ += std::max(beside_pending_, pending_seconds_);
      beside_pending_ = 0;
      pending_ = false;
    }

    Planner& planner_;
    bool parallel_;
    tbb::task_group tasks_;
    std::deque<double> costs_;  // a deque: a pending task writes its element while others are added
    bool pending_ = false;
    double pending_seconds_ = 0, beside_pending_ = 0, work_ = 0, span_ = 0;
  };

  // The first of `candidates` (rules, in order) whose application changes `state`.
  FirstChange<TensorEGraph> first_change(const TensorEGraph& state,
                                         const std::vector<std::size_t>& candidates,
                                         std::size_t memory_allowance) const {
    return search::first_change<TensorEGraph>(
        candidates.size(), [&](std::size_t i) { return may_change(state, rules_, candidates[i]); },
        [&](std::size_t i) { return apply_matched(state, candidates[i], memory_allowance); },
        limits_.threads > 1);
  }

  // The parallel phase of one simulation: expansion of its share of actions at the leaf (the first
  // that changes the e-graph becomes the child), then a rollout. Reads `sim` and the leaf's state
  // (not the tree), writes `sim`. With several threads, each state's reward extraction runs as a
  // task beside the search for the next state.
  void play(Simulation& sim) {
    RandomEngine rng(sim.seed);
    const TensorEGraph* from = sim.leaf_state;
    Pipeline pipeline(*this, limits_.threads > 1);
    pipeline.known(sim.leaf_cost);
    if (sim.expands) {
      const std::vector<std::size_t>& mine = sim.actions;
      FirstChange change = first_change(*sim.leaf_state, mine, sim.memory_allowance);
      pipeline.add_work(change.cpu_seconds, change.span_cpu_seconds);
      sim.work += tried_work(*sim.leaf_state, change.position, mine.size());
      sim.pruned.assign(mine.begin(), mine.begin() + static_cast<std::ptrdiff_t>(
                                                         std::min(change.position, mine.size())));
      if (change.state) {
        sim.child_action = mine[change.position];
        sim.child = std::move(change.state);
        from = sim.child.get();
        sim.work += from->egraph.num_nodes();
        pipeline.evaluate(*from);
      }
    }
    const bool from_terminal = from->egraph.num_nodes() >= options_.node_limit;
    if (!from_terminal) sim.work += rollout(*from, rng, sim, pipeline);
    pipeline.finish();
    if (sim.child) sim.child_cost = pipeline.cost(1);
    sim.rollout_return = 0;
    double discount = 1;
    for (std::size_t i = sim.child ? 2 : 1; i < pipeline.size(); ++i) {
      sim.rollout_return += discount * reward(pipeline.cost(i - 1), pipeline.cost(i));
      discount *= options_.gamma;
    }
    sim.cpu_seconds = pipeline.cpu_seconds();
    sim.span_cpu_seconds = pipeline.span_cpu_seconds();
  }

  // Adds a simulation's expansion to the tree and backs its return up the path.
  void backup(Simulation& sim) {
    work_ += sim.work;
    for (std::size_t index : sim.path) --nodes_[index].in_flight;
    const std::size_t leaf = sim.path.back();
    if (sim.expands) {
      const auto claim = claims_.find(leaf);
      if (--claim->second.in_flight == 0) claims_.erase(claim);
    }
    for (std::size_t action : sim.pruned) nodes_[leaf].status[action] = ActionStatus::kPruned;
    if (sim.child) {
      nodes_.push_back(make_node(static_cast<int>(leaf), sim.child_action, std::move(sim.child),
                                 sim.child_cost, nodes_[leaf].cost));
      const int child = static_cast<int>(nodes_.size() - 1);
      tree_bytes_ += nodes_.back().bytes;
      nodes_[leaf].status[sim.child_action] = ActionStatus::kExpanded;
      nodes_[leaf].children[sim.child_action] = child;
      sim.path.push_back(static_cast<std::size_t>(child));
    }
    double ret = sim.rollout_return;
    for (auto it = sim.path.rbegin(); it != sim.path.rend(); ++it) {
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

  // A planning step's simulations in flight, oldest first, and its schedules.
  struct Window {
    struct Flight {
      Simulation sim;
      bool started = false;  // taken by a thread to play
      bool done = false;     // played
    };
    explicit Window(std::size_t batch) : critical(batch, batch) {
      for (std::size_t threads : kScheduledThreads) scheduled.emplace_back(batch, threads);
    }
    std::mutex mutex;  // with several threads: guards the tree, `flights` and the rest
    std::deque<std::unique_ptr<Flight>> flights;
    std::size_t started = 0;
    WindowSchedule critical;
    std::vector<WindowSchedule> scheduled;
  };

  // One planning step's simulations (up to options_.simulations, while time and memory last),
  // with `batch` in flight: simulation i + batch is selected right after simulation i is backed
  // up, and backups run in order, so every selection sees the same tree whatever the thread
  // count and timing. A simulation that ends at a terminal node has nothing to play and is backed
  // up at once. With several threads the simulations are played as tasks, oldest first, and the
  // thread that finishes the oldest one backs it up (and any finished after it, in order) and
  // selects and starts the next ones at once, under a lock; the calling thread plays simulations
  // too until all are done. Returns the number started.
  std::size_t run_simulations(Clock::time_point start) {
    Window window(batch_);
    if (limits_.threads <= 1) {
      fill(window, start, nullptr);
      while (!window.flights.empty()) {
        play(window.flights.front()->sim);
        window.flights.front()->done = true;
        retire(window, start, nullptr);
      }
    } else {
      arena_.get().execute([&] {
        tbb::task_group tasks;
        {
          const std::lock_guard lock(window.mutex);
          fill(window, start, &tasks);
        }
        tasks.wait();
      });
    }
    critical_cpu_ += window.critical.length();
    for (std::size_t i = 0; i < window.scheduled.size(); ++i)
      scheduled_cpu_[i] += window.scheduled[i].length();
    return window.started;
  }

  // Selects simulations until `batch` are in flight or the step's budget, time or memory is
  // spent; with `tasks`, adds a task for each that plays the oldest simulation not yet started
  // (a task group runs its tasks newest first on the thread that added them, but the window
  // advances only when its oldest simulation is done).
  void fill(Window& window, Clock::time_point start, tbb::task_group* tasks) {
    while (window.flights.size() < batch_ && window.started < options_.simulations &&
           elapsed(start) < limits_.seconds && tree_bytes_ < limits_.memory_bytes &&
           work_ < limits_.work) {
      auto flight = std::make_unique<Window::Flight>();
      Simulation& sim = flight->sim;
      sim.seed = hash_combine(options_.seed, ++simulations_started_);
      select(sim);
      ++window.started;
      if (!sim.expands && nodes_[sim.path.back()].terminal) {
        backup(sim);
        continue;
      }
      // Each simulation holds up to four e-graphs at once besides the tree: its expanded child,
      // the rollout's state (extracted beside the search for the next), and two candidates for
      // the next state (tried at once; lookahead: the best so far and the one tried).
      if (limits_.memory_bytes != std::numeric_limits<std::size_t>::max()) {
        const std::size_t room =
            limits_.memory_bytes > tree_bytes_ ? limits_.memory_bytes - tree_bytes_ : 0;
        // At most min(batch, simulations) are in flight (no product that overflows).
        sim.memory_allowance = room / 4 / std::min(batch_, options_.simulations);
      }
      window.flights.push_back(std::move(flight));
      if (tasks) tasks->run([this, &window, start, tasks] { play_oldest(window, start, tasks); });
    }
  }

  // Plays the oldest simulation of the window not yet started (one exists for every task that
  // fill added and no thread has run yet), then retires what it can.
  void play_oldest(Window& window, Clock::time_point start, tbb::task_group* tasks) {
    Window::Flight* flight = nullptr;
    {
      const std::lock_guard lock(window.mutex);
      for (const auto& f : window.flights)
        if (!f->started) {
          flight = f.get();
          break;
        }
      flight->started = true;
    }
    play(flight->sim);
    const std::lock_guard lock(window.mutex);
    flight->done = true;
    retire(window, start, tasks);
  }

  // Backs up the played simulations at the front of the window, in order, each followed by the
  // selections it makes room for.
  void retire(Window& window, Clock::time_point start, tbb::task_group* tasks) {
    while (!window.flights.empty() && window.flights.front()->done) {
      Simulation& oldest = window.flights.front()->sim;
      simulation_cpu_ += oldest.cpu_seconds;
      window.critical.add(oldest.span_cpu_seconds);
      for (WindowSchedule& schedule : window.scheduled) schedule.add(oldest.cpu_seconds);
      backup(oldest);
      window.flights.pop_front();
      fill(window, start, tasks);
    }
  }

  // A random-order list of actions for a rollout step, following the policy.
  std::vector<std::size_t> rollout_candidates(RandomEngine& rng, const Simulation& sim) const {
    std::vector<std::size_t> order(rules_.size());
    for (std::size_t a = 0; a < order.size(); ++a) order[a] = a;
    random_shuffle(order, rng);
    if (options_.policy == RolloutPolicy::kHeavy && random_unit(rng) >= options_.heavy_epsilon) {
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return sim.mean_rewards[a] > sim.mean_rewards[b];
      });
    }
    return order;
  }

  // A rollout of up to rollout_depth steps from a state: each step's state goes to the pipeline,
  // which extracts its cost (the return is computed from the costs once all are known).
  // Returns its work units.
  std::uint64_t rollout(const TensorEGraph& from, RandomEngine& rng, const Simulation& sim,
                        Pipeline& pipeline) {
    std::uint64_t work = 0;
    const std::size_t memory_allowance = sim.memory_allowance;
    const TensorEGraph* state = &from;
    std::unique_ptr<TensorEGraph> owned;  // the current state unless it is `from`
    for (std::size_t depth = 0; depth < options_.rollout_depth; ++depth) {
      std::unique_ptr<TensorEGraph> next;
      if (options_.policy == RolloutPolicy::kLookahead) {
        const double start = thread_cpu_seconds();
        double next_cost = 0;
        std::size_t tried = 0;
        for (std::size_t action : rollout_candidates(rng, sim)) {
          if (tried == options_.lookahead_width) break;
          auto candidate = apply(*state, action, memory_allowance);
          work += state->egraph.num_nodes();
          if (!candidate) continue;
          ++tried;
          work += candidate->egraph.num_nodes();
          const double c = evaluate(*candidate);
          if (!next || c < next_cost) {
            next = std::move(candidate);
            next_cost = c;
          }
        }
        const double seconds = thread_cpu_seconds() - start;
        pipeline.add_work(seconds, seconds);
        if (!next) break;  // nothing applies any more
        pipeline.known(next_cost);
      } else {
        const std::vector<std::size_t> candidates = rollout_candidates(rng, sim);
        FirstChange change = first_change(*state, candidates, memory_allowance);
        pipeline.add_work(change.cpu_seconds, change.span_cpu_seconds);
        work += tried_work(*state, change.position, candidates.size());
        next = std::move(change.state);
        if (!next) break;  // nothing applies any more
        work += next->egraph.num_nodes();
        pipeline.evaluate(*next);
      }
      owned = std::move(next);  // the state before: settled by the pipeline, no longer needed
      state = owned.get();
      if (state->egraph.num_nodes() >= options_.node_limit) break;
    }
    pipeline.release(owned);
    return work;
  }

  // The work units of trying rules on `state` in order up to the first that changed it (at
  // `position`; `count` when none did), as the sequential search tries them.
  static std::uint64_t tried_work(const TensorEGraph& state, std::size_t position,
                                  std::size_t count) {
    return static_cast<std::uint64_t>(state.egraph.num_nodes()) * std::min(position + 1, count);
  }

  // The root child to commit: the best mean value, ties broken by `options_.tie_break`.
  int best_root_child() {
    std::vector<int> best;
    double best_mean = -std::numeric_limits<double>::infinity();
    for (std::size_t a = 0; a < rules_.size(); ++a) {
      const int c = nodes_[0].children[a];
      if (c < 0 || nodes_[static_cast<std::size_t>(c)].visits == 0) continue;
      const TreeNode& child = nodes_[static_cast<std::size_t>(c)];
      const double mean = child.value / static_cast<double>(child.visits);
      if (mean > best_mean) {
        best_mean = mean;
        best.clear();
      }
      if (mean == best_mean) best.push_back(c);
    }
    if (best.empty()) return -1;
    if (options_.tie_break == TieBreak::kRandom) return best[random_below(rng_, best.size())];
    // Children are in rule order and min_element keeps the first of equals: the lowest rule
    // index breaks the remaining ties.
    const auto before = [&](int x, int y) {
      const TreeNode& a = nodes_[static_cast<std::size_t>(x)];
      const TreeNode& b = nodes_[static_cast<std::size_t>(y)];
      if (options_.tie_break == TieBreak::kVisits) return a.visits > b.visits;
      if (commits_[a.action] != commits_[b.action]) return commits_[a.action] < commits_[b.action];
      return a.state->egraph.num_nodes() < b.state->egraph.num_nodes();
    };
    return *std::min_element(best.begin(), best.end(), before);
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
    tree_bytes_ = 0;
    for (const TreeNode& node : nodes_) tree_bytes_ += node.bytes;
  }

  const dsl::RuleSet& rules_;
  const StateCost& cost_;
  MctsOptions options_;
  SearchLimits limits_;
  std::size_t batch_;
  StepOptions step_options_;
  RandomEngine rng_;  // selection's coin flips and expansion orders (main thread only)
  SearchArena arena_;
  std::vector<TreeNode> nodes_;
  std::unordered_map<std::size_t, Claim> claims_;  // by node, while a claimant is in flight
  std::mutex memo_mutex_;
  std::unordered_map<std::uint64_t, double> memo_;
  std::vector<std::pair<double, std::size_t>> action_reward_;  // heavy policy: per rule
  std::size_t evaluations_ = 0, memo_hits_ = 0, simulations_started_ = 0;
  std::uint64_t work_ = 0;  // work units of the simulations backed up so far (and the root's)
  std::size_t tree_bytes_ = 0;
  std::vector<std::size_t> commits_;  // per rule: how often a planning step committed it
  double simulation_cpu_ = 0, critical_cpu_ = 0;
  std::array<double, kScheduledThreads.size()>
      scheduled_cpu_{};  // the states' memory, summed over the tree
};

}  // namespace

std::uint64_t structural_hash(const TensorEGraph& state) {
  const auto& egraph = state.egraph;
  const auto classes = egraph.classes();
  // Colours by class id (dense: a flat table costs no allocation per class).
  std::vector<std::uint64_t> colour(egraph.num_ids(), 0), next(egraph.num_ids(), 0);
  std::vector<std::uint64_t> parts;
  for (egraph::Id c : classes) {
    parts.clear();
    for (egraph::Id n : egraph.nodes_of(c))
      parts.push_back(
          hash_combine(egraph.node(n).op, static_cast<std::uint64_t>(egraph.node(n).payload)));
    colour[c] = hash_sorted(parts);
  }
  for (int round = 0; round < 2; ++round) {
    for (egraph::Id c : classes) {
      parts.clear();
      for (egraph::Id n : egraph.nodes_of(c)) {
        const auto e = egraph.node(n);
        std::uint64_t h = hash_combine(e.op, static_cast<std::uint64_t>(e.payload));
        for (egraph::Id child : e.children) h = hash_combine(h, colour[egraph.find(child)]);
        parts.push_back(h);
      }
      next[c] = hash_combine(colour[c], hash_sorted(parts));
    }
    colour.swap(next);
  }
  parts.clear();
  for (egraph::Id c : classes) parts.push_back(colour[c]);
  std::uint64_t h = hash_sorted(parts);
  for (egraph::Id root : state.roots) h = hash_combine(h, colour[egraph.find(root)]);
  return hash_combine(h, egraph.num_nodes() * 1'000'003ULL + egraph.num_classes());
}

MctsResult run_mcts(TensorEGraph initial, const dsl::RuleSet& rules, const StateCost& cost,
                    const MctsOptions& options, const SearchLimits& limits,
                    tbb::task_arena* arena) {
  return Planner(rules, cost, options, limits, arena).run(std::move(initial));
}

}  // namespace mctsat::search
