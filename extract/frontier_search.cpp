// Dynamic programming over frontiers: the order, the class bounds and the width-bounded search.
#include "extract/frontier_search.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_set>

#include "extract/greedy_extractor.hpp"

namespace mctsat::extract {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNoPosition = std::numeric_limits<std::uint32_t>::max();

}  // namespace

FrontierSearch::FrontierSearch(const Problem& problem) : problem_(problem) {
  const TreeCosts tree = tree_costs(problem);
  const std::size_t classes = problem.num_classes();
  for (Index root : problem.roots()) feasible_ = feasible_ && std::isfinite(tree.cost[root]);
  if (!feasible_) return;
  auto usable = [&](Index node) {
    const Index eclass = problem.node_class(node);
    for (Index child : problem.unique_children(node))
      if (child == eclass || std::isinf(tree.cost[child])) return false;
    return true;
  };
  // The classes reachable from the roots through usable nodes, and their in-degrees.
  std::vector<std::uint8_t> needed(classes, 0);
  std::vector<std::uint32_t> in_degree(classes, 0);
  std::vector<Index> stack;
  for (Index root : problem.roots())
    if (!needed[root]) needed[root] = 1, stack.push_back(root);
  while (!stack.empty()) {
    const Index eclass = stack.back();
    stack.pop_back();
    for (Index node : problem.candidates(eclass)) {
      if (!usable(node)) continue;
      for (Index child : problem.unique_children(node)) {
        ++in_degree[child];
        if (!needed[child]) needed[child] = 1, stack.push_back(child);
      }
    }
  }
  // Kahn's algorithm, highest class index first; on a cycle, the highest unplaced class next.
  position_.assign(classes, kNoPosition);
  std::priority_queue<Index> ready;
  std::size_t total = 0;
  for (Index eclass = 0; eclass < classes; ++eclass) {
    total += needed[eclass];
    if (needed[eclass] && in_degree[eclass] == 0) ready.push(eclass);
  }
  Index next_unplaced = static_cast<Index>(classes);
  while (class_at_.size() < total) {
    if (ready.empty()) {
      while (needed[next_unplaced - 1] == 0 || position_[next_unplaced - 1] != kNoPosition)
        --next_unplaced;
      ready.push(next_unplaced - 1);
    }
    const Index eclass = ready.top();
    ready.pop();
    if (position_[eclass] != kNoPosition) continue;
    position_[eclass] = static_cast<std::uint32_t>(class_at_.size());
    class_at_.push_back(eclass);
    for (Index node : problem.candidates(eclass)) {
      if (!usable(node)) continue;
      for (Index child : problem.unique_children(node))
        if (--in_degree[child] == 0 && position_[child] == kNoPosition) ready.push(child);
    }
  }
  // The usable nodes by position, with their forward children; the path bound (h with each
  // class's cheapest node for its segments), deepest class first.
  node_begin_.push_back(0);
  kid_begin_.push_back(0);
  cheapest_.assign(total, kInf);
  for (std::uint32_t p = 0; p < total; ++p) {
    for (Index node : problem.candidates(class_at_[p])) {
      if (!usable(node)) continue;
      nodes_.push_back(node);
      cheapest_[p] = std::min(cheapest_[p], problem.node_cost(node));
      const std::size_t first = kids_.size();
      for (Index child : problem.unique_children(node)) {
        if (position_[child] > p)
          kids_.push_back(position_[child]);
        else
          exact_ = false;
      }
      std::sort(kids_.begin() + static_cast<std::ptrdiff_t>(first), kids_.end());
      kid_begin_.push_back(static_cast<std::uint32_t>(kids_.size()));
    }
    node_begin_.push_back(static_cast<std::uint32_t>(nodes_.size()));
  }
  whole_.assign(total, 0);
  for (std::uint32_t p = static_cast<std::uint32_t>(total); p-- > 0;) {
    double best = kInf;
    for (std::uint32_t i = node_begin_[p]; i < node_begin_[p + 1]; ++i)
      best = std::min(best, problem.node_cost(nodes_[i]) + h({kids_.data() + kid_begin_[i],
                                                              kids_.data() + kid_begin_[i + 1]}));
    whole_[p] = best;
  }
  for (Index root : problem.roots()) roots_.push_back(position_[root]);
  std::sort(roots_.begin(), roots_.end());
}

double FrontierSearch::segment(std::uint32_t position, std::uint32_t length) const {
  if (segment_.empty()) return cheapest_[position];
  return segment_[std::size_t{position} * horizon_ + std::min(length, horizon_ - 1)];
}

double FrontierSearch::h(std::span<const std::uint32_t> frontier) const {
  double before = 0, best = 0;
  for (std::size_t j = 0; j < frontier.size(); ++j) {
    best = std::max(best, before + whole_[frontier[j]]);
    if (j + 1 < frontier.size()) before += segment(frontier[j], frontier[j + 1] - frontier[j]);
  }
  return best;
}

double FrontierSearch::root_bound() const {
  return feasible_ ? h(roots_) : kInf;
}

// One width-bounded search from a frontier over the positions [begin, end).
struct FrontierSearch::Run {
  struct State {
    std::vector<std::uint32_t> frontier;  // positions, ascending; frontier[0] is its bucket
    double cost = 0, f = 0;
    std::size_t hash = 0;
    std::uint32_t trail = kNoPosition;  // into `trail`, when trails are kept
    bool live = false;
  };
  struct Hash {
    const std::vector<State>* states;
    std::size_t operator()(std::uint32_t id) const { return (*states)[id].hash; }
  };
  struct Equal {
    const std::vector<State>* states;
    bool operator()(std::uint32_t a, std::uint32_t b) const {
      return (*states)[a].frontier == (*states)[b].frontier;
    }
  };

  Run(const FrontierSearch& search, std::size_t width, double upper, bool keep_trails)
      : search(search), width(width), upper(upper), keep_trails(keep_trails) {}

  const FrontierSearch& search;
  std::size_t width;
  double upper;
  bool keep_trails;
  std::vector<State> states;
  std::vector<std::uint32_t> free_ids;
  std::unordered_set<std::uint32_t, Hash, Equal> live{16, Hash{&states}, Equal{&states}};
  std::vector<std::vector<std::uint32_t>> buckets;     // by position - begin: state ids
  std::vector<std::pair<Index, std::uint32_t>> trail;  // (node, previous record)
  std::size_t trail_after_compaction = 0;
  std::uint32_t begin = 0;
  double dropped_f = kInf, dropped_cost = kInf, terminal = kInf;
  std::uint32_t terminal_trail = kNoPosition;
  std::size_t created = 0;

  static std::size_t hash_of(const std::vector<std::uint32_t>& frontier) {
    std::size_t h = 1469598103934665603ULL;
    for (std::uint32_t p : frontier) h = (h ^ p) * 1099511628211ULL;
    return h;
  }

  std::uint32_t allocate() {
    if (!free_ids.empty()) {
      const std::uint32_t id = free_ids.back();
      free_ids.pop_back();
      return id;
    }
    states.emplace_back();
    return static_cast<std::uint32_t>(states.size() - 1);
  }
  void release(std::uint32_t id) {
    states[id].live = false;
    free_ids.push_back(id);
  }

  // Offers a frontier reached at `cost` (its record `record` in the trail).
  void offer(std::vector<std::uint32_t>& frontier, double cost, std::uint32_t record) {
    if (frontier.empty()) {
      if (cost < terminal) terminal = cost, terminal_trail = record;
      return;
    }
    const double f = cost + search.h(frontier);
    if (!(f < upper)) return;  // pruned: its extractions cost upper at least
    const std::uint32_t id = allocate();
    State& state = states[id];
    state.frontier.swap(frontier);
    state.hash = hash_of(state.frontier);
    state.cost = cost;
    state.f = f;
    state.trail = record;
    const auto [at, inserted] = live.insert(id);
    if (!inserted) {
      State& old = states[*at];
      if (cost < old.cost) old.cost = cost, old.f = f, old.trail = record;
      frontier.swap(state.frontier);
      free_ids.push_back(id);
      return;
    }
    state.live = true;
    ++created;
    // (A frontier starting at the end or later is never expanded: it counts at the end.)
    if (state.frontier[0] - begin < buckets.size())
      buckets[state.frontier[0] - begin].push_back(id);
  }

  // Keeps the `width` frontiers of least f once there are twice as many.
  void limit() {
    if (live.size() <= 2 * width) return;
    std::vector<std::uint32_t> ids(live.begin(), live.end());
    std::nth_element(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(width), ids.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return states[a].f < states[b].f; });
    for (std::size_t i = width; i < ids.size(); ++i) {
      dropped_f = std::min(dropped_f, states[ids[i]].f);
      dropped_cost = std::min(dropped_cost, states[ids[i]].cost);
      live.erase(ids[i]);
      release(ids[i]);
    }
  }

  // Drops the trail records no live frontier (or the best extraction) leads to.
  void compact() {
    if (!keep_trails || trail.size() < std::max<std::size_t>(1 << 20, 4 * trail_after_compaction))
      return;
    std::vector<std::uint32_t> renamed(trail.size(), kNoPosition);
    auto mark = [&](std::uint32_t record) {
      while (record != kNoPosition && renamed[record] == kNoPosition) {
        renamed[record] = 0;
        record = trail[record].second;
      }
    };
    for (std::uint32_t id : live) mark(states[id].trail);
    mark(terminal_trail);
    std::uint32_t next = 0;
    for (std::size_t r = 0; r < trail.size(); ++r) {
      if (renamed[r] == kNoPosition) continue;
      renamed[r] = next;
      const std::uint32_t previous = trail[r].second;
      trail[next++] = {trail[r].first, previous == kNoPosition ? kNoPosition : renamed[previous]};
    }
    trail.resize(next);
    trail_after_compaction = next;
    auto rename = [&](std::uint32_t& record) {
      if (record != kNoPosition) record = renamed[record];
    };
    for (std::uint32_t id : live) rename(states[id].trail);
    rename(terminal_trail);
  }

  // Runs from `start` over [begin, end). With `least_cost`, entry l receives a lower bound on the
  // cost of the nodes chosen at the positions [begin, begin + l]. Returns the lower bound.
  double run(std::vector<std::uint32_t> start, std::uint32_t from, std::uint32_t end,
             std::span<double> least_cost = {}) {
    begin = from;
    buckets.assign(end - begin, {});
    offer(start, 0, kNoPosition);
    std::vector<std::uint32_t> next;
    for (std::uint32_t p = begin; p < end; ++p) {
      std::vector<std::uint32_t> bucket = std::move(buckets[p - begin]);
      for (std::uint32_t id : bucket) {
        if (!states[id].live || states[id].frontier[0] != p) continue;
        live.erase(id);
        State state = std::move(states[id]);
        release(id);
        for (std::uint32_t i = search.node_begin_[p]; i < search.node_begin_[p + 1]; ++i) {
          // The frontier without p, merged with the node's children.
          next.clear();
          const std::uint32_t* kid = search.kids_.data() + search.kid_begin_[i];
          const std::uint32_t* kids_end = search.kids_.data() + search.kid_begin_[i + 1];
          std::set_union(state.frontier.begin() + 1, state.frontier.end(), kid, kids_end,
                         std::back_inserter(next));
          std::uint32_t record = kNoPosition;
          if (keep_trails) {
            record = static_cast<std::uint32_t>(trail.size());
            trail.emplace_back(search.nodes_[i], state.trail);
          }
          offer(next, state.cost + search.problem_.node_cost(search.nodes_[i]), record);
        }
      }
      limit();
      compact();
      if (!least_cost.empty()) {
        double least = std::min(dropped_cost, terminal);
        for (std::uint32_t id : live) least = std::min(least, states[id].cost);
        least_cost[p - begin] = least;
      }
    }
    double bound = std::min({upper, dropped_f, terminal});
    for (std::uint32_t id : live) bound = std::min(bound, states[id].f);
    return bound;
  }
};

void FrontierSearch::bound_classes(std::size_t class_width, std::uint32_t horizon) {
  if (!feasible_ || horizon < 2) return;
  const auto total = static_cast<std::uint32_t>(class_at_.size());
  horizon_ = horizon;
  segment_.assign(std::size_t{total} * horizon_, 0);
  for (std::uint32_t p = 0; p < total; ++p)
    std::fill_n(segment_.begin() + std::size_t{p} * horizon_, horizon_, cheapest_[p]);
  std::vector<double> least(horizon_);
  for (std::uint32_t p = total; p-- > 0;) {
    double path = kInf;
    for (std::uint32_t i = node_begin_[p]; i < node_begin_[p + 1]; ++i)
      path = std::min(path, problem_.node_cost(nodes_[i]) + h({kids_.data() + kid_begin_[i],
                                                               kids_.data() + kid_begin_[i + 1]}));
    const std::uint32_t end = std::min(total, p + horizon_);
    Run run(*this, class_width, kInf, false);
    const double searched = run.run({p}, p, end, std::span<double>(least.data(), end - p));
    whole_[p] = std::max(path, searched);
    for (std::uint32_t length = 1; length < horizon_; ++length) {
      const double part = least[std::min(length, end - p) - 1];
      segment_[std::size_t{p} * horizon_ + length] = std::max(cheapest_[p], part);
    }
  }
}

FrontierSearch::Outcome FrontierSearch::search(std::size_t width, double upper) const {
  Outcome outcome;
  if (!feasible_) {
    outcome.lower_bound = kInf;
    return outcome;
  }
  if (roots_.empty()) {  // nothing to extract
    outcome.choice.assign(problem_.num_classes(), kNone);
    outcome.cost = 0;
    outcome.complete = true;
    return outcome;
  }
  Run run(*this, std::max<std::size_t>(width, 1), upper, true);
  outcome.lower_bound = run.run(roots_, roots_[0], static_cast<std::uint32_t>(class_at_.size()));
  outcome.states = run.created;
  outcome.complete = std::isinf(run.dropped_f);
  if (run.terminal_trail != kNoPosition && run.terminal < upper) {
    outcome.cost = run.terminal;
    outcome.choice.assign(problem_.num_classes(), kNone);
    for (std::uint32_t r = run.terminal_trail; r != kNoPosition; r = run.trail[r].second) {
      const Index node = run.trail[r].first;
      outcome.choice[problem_.node_class(node)] = node;
    }
  }
  return outcome;
}

}  // namespace mctsat::extract
