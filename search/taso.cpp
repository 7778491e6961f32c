// TASO's backtracking search: the queue of graphs, the expansion of a popped graph into one
// candidate per match, and the rebuilding of queued candidates.
#include "search/taso.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <unordered_set>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "search/graph_fingerprint.hpp"
#include "search/match_candidate.hpp"
#include "search/search_arena.hpp"
#include "support/thread_cpu_time.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {
namespace {

using Clock = std::chrono::steady_clock;
using tensor::TensorEGraph;

// How a graph was derived: match `match` of rule `rule` in the explored graph of entry `parent`.
struct Entry {
  std::size_t parent = 0, rule = 0, match = 0;
};

// What the expansion of a popped graph learns about one of its matches.
struct Candidate {
  std::size_t rule = 0, match = 0;
  MatchOutcome outcome = MatchOutcome::kUnchanged;
  double cost = 0;
  bool accepted = false;  // under the cost threshold and the operator limit
  bool built = false;     // applied to a copy (not told by the preview)
  bool priced = false;    // a graph priced by the preview, without the copy
  std::uint64_t fingerprint = 0;
};

class TasoSearch {
 public:
  TasoSearch(const dsl::RuleSet& rules, const tensor::CostModel& model, const TasoOptions& options,
             const SearchLimits& limits, tbb::task_arena* arena)
      : rules_(rules),
        model_(model),
        options_(options),
        limits_(limits),
        arena_(arena, limits.threads) {}

  TasoResult run(const tensor::Graph& input) {
    const auto start = Clock::now();
    const double cpu_start = thread_cpu_seconds();
    TasoResult result;
    result.graph = input;
    result.cost = tensor::graph_cost(input, model_);
    std::size_t best_entry = 0;
    entries_.push_back({});
    states_.push_back(std::make_unique<TensorEGraph>(tensor::to_egraph(input)));
    held_bytes_ = states_[0]->egraph.memory_bytes();
    const GraphFingerprint fingerprint =
        graph_fingerprint(*states_[0], tensor::source_selection(*states_[0]));
    max_ops_ = static_cast<std::size_t>(options_.max_ops_factor *
                                        static_cast<double>(fingerprint.operators));
    seen_.insert(fingerprint.hash);
    queue_.push({result.cost, 0});
    result.stop = StopReason::kQueueEmpty;
    while (!queue_.empty()) {
      if (result.explored >= options_.budget) {
        result.stop = StopReason::kBudget;
        break;
      }
      if (options_.patience > 0 && result.explored - result.best_explored >= options_.patience) {
        result.stop = StopReason::kPatience;
        break;
      }
      if (seconds_since(start) >= limits_.seconds) {
        result.stop = StopReason::kTimeLimit;
        break;
      }
      if (held_bytes_ >= limits_.memory_bytes) {
        result.stop = StopReason::kMemoryLimit;
        break;
      }
      if (result.work >= limits_.work) {
        result.stop = StopReason::kWorkLimit;
        break;
      }
      const auto [cost, index] = queue_.top();
      queue_.pop();
      if (index != 0) {
        if (ahead_.index != index) {  // not rebuilt beside the last expansion
          const double rebuild_start = thread_cpu_seconds();
          ahead_ = rebuild(index);
          // With threads, a popped graph that was the queue's top is rebuilt in parallel.
          if (index == top_before_expansion_)
            result.parallel_cpu_seconds += thread_cpu_seconds() - rebuild_start;
        }
        tensor::Graph graph = std::move(ahead_.graph);
        if (cost < result.cost) {
          result.longest_wait =
              std::max(result.longest_wait, result.explored - result.best_explored);
          result.graph = graph;
          result.cost = cost;
          result.best_explored = result.explored + 1;
          best_entry = index;
        }
        states_[index] = std::move(ahead_.state);
        held_bytes_ += states_[index]->egraph.memory_bytes();
        ahead_ = {};
      }
      ++result.explored;
      if (!expand(index, start, result)) {
        // Stopped in the middle of the expansion: the candidates not built are not queued.
        result.stop = StopReason::kTimeLimit;
        break;
      }
      if (options_.progress)
        options_.progress({result.explored, options_.budget, result.cost,
                           states_[index]->egraph.num_nodes(), seconds_since(start),
                           Progress::kTasoPhase});
    }
    for (std::size_t e = best_entry; e != 0; e = entries_[e].parent)
      result.applied.push_back(entries_[e].rule);
    std::reverse(result.applied.begin(), result.applied.end());
    result.cpu_seconds = thread_cpu_seconds() - cpu_start;
    return result;
  }

 private:
  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  // Every rule's matches in `state` (the rules searched concurrently; their CPU time is added to
  // the parallel part's). Under the memory limit, the room the explored graphs leave is shared
  // equally by the rules: a multi-pattern rule's join on a large graph (two independent patterns:
  // the product of their matches) would otherwise grow without bound.
  std::vector<egraph::Matches> search_all(const TensorEGraph& state, TasoResult& result) {
    std::vector<egraph::Matches> matches(rules_.size());
    std::vector<double> seconds(rules_.size(), 0.0);
    const std::size_t room =
        limits_.memory_bytes > held_bytes_ ? limits_.memory_bytes - held_bytes_ : 0;
    const auto search = [&](std::size_t r) {
      const double start = thread_cpu_seconds();
      const auto& rule = rules_.rewrite(r);
      const std::size_t match_bytes = (rule.lhs().size() + rule.num_vars()) * sizeof(egraph::Id);
      matches[r] = rule.search(state.egraph,
                               limits_.memory_bytes == std::numeric_limits<std::size_t>::max()
                                   ? std::numeric_limits<std::size_t>::max()
                                   : std::max<std::size_t>(1, room / rules_.size() / match_bytes));
      seconds[r] = thread_cpu_seconds() - start;
    };
    if (limits_.threads <= 1) {
      for (std::size_t r = 0; r < rules_.size(); ++r) search(r);
    } else {
      arena_.get().execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rules_.size(), 1),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                            for (std::size_t r = range.begin(); r != range.end(); ++r) search(r);
                          });
      });
    }
    for (const double s : seconds) result.parallel_cpu_seconds += s;
    return matches;
  }

  // A queued entry's graph and its e-graph, rebuilt from its parent's e-graph.
  struct Rebuilt {
    std::size_t index = 0;  // the entry (0: none)
    tensor::Graph graph;
    std::unique_ptr<TensorEGraph> state;
  };
  Rebuilt rebuild(std::size_t index) const {
    const Entry& entry = entries_[index];
    const TensorEGraph& parent = *states_[entry.parent];
    const egraph::Matches matches = rules_.rewrite(entry.rule).search(parent.egraph);
    const MatchCandidate r =
        apply_match(parent, rules_.rewrite(entry.rule), matches, entry.match, model_);
    MCTSAT_ASSERT(r.outcome == MatchOutcome::kGraph);
    Rebuilt rebuilt{index, tensor::build_graph(r.state, r.selection), nullptr};
    rebuilt.state = std::make_unique<TensorEGraph>(tensor::to_egraph(rebuilt.graph));
    return rebuilt;
  }

  // Builds and costs the candidate of every match of the explored graph `index` (concurrently),
  // then queues the new ones in match order. With threads, the queue's top graph is rebuilt
  // beside the candidates: it is the next popped unless a candidate is cheaper (BERT: 143 of 166
  // pops), and the rebuilding is otherwise the serial part's largest. False when the time limit
  // came before every candidate was built (a large graph has as many candidates as matches, each
  // a copy of the graph): the ones built are queued, the rest are not.
  bool expand(std::size_t index, Clock::time_point start, TasoResult& result) {
    const TensorEGraph& state = *states_[index];
    const std::vector<egraph::Matches> matches = search_all(state, result);
    std::vector<Candidate> candidates;
    for (std::size_t r = 0; r < rules_.size(); ++r)
      for (std::size_t m = 0; m < matches[r].size(); ++m) candidates.push_back({r, m});
    const double threshold = options_.alpha * result.cost;
    const ParentPrices prices = price_parent(state, model_);
    std::atomic<bool> out_of_time = false;
    auto evaluate = [&](Candidate& c) {
      if (out_of_time.load(std::memory_order_relaxed)) return;
      if (seconds_since(start) >= limits_.seconds) {
        out_of_time = true;
        return;
      }
      const TensorRewrite& rule = rules_.rewrite(c.rule);
      if (const auto preview =
              preview_match(state, rule, matches[c.rule], c.match, prices, model_)) {
        c.outcome = preview->outcome;
        if (c.outcome == MatchOutcome::kGraph) {
          c.priced = true;
          c.cost = preview->cost;
          if (c.cost < threshold) {
            c.accepted = preview->fingerprint.operators <= max_ops_;
            c.fingerprint = preview->fingerprint.hash;
          }
        }
      } else {
        const MatchCandidate r = apply_match(state, rule, matches[c.rule], c.match, model_);
        c.built = true;
        c.outcome = r.outcome;
        c.cost = r.cost;
        if (r.outcome == MatchOutcome::kGraph && r.cost < threshold) {
          const GraphFingerprint fingerprint = graph_fingerprint(r.state, r.selection);
          c.accepted = fingerprint.operators <= max_ops_;
          c.fingerprint = fingerprint.hash;
        }
      }
    };
    top_before_expansion_ = queue_.empty() ? 0 : queue_.top().second;
    // The candidates' CPU time, read per run of candidates a thread takes (reading a thread's
    // clock is a system call: per candidate, it took a twentieth of NASNet-A's pass).
    if (limits_.threads <= 1) {
      const double cpu_start = thread_cpu_seconds();
      for (Candidate& c : candidates) evaluate(c);
      result.parallel_cpu_seconds += thread_cpu_seconds() - cpu_start;
    } else {
      double ahead_seconds = 0;
      std::atomic<std::int64_t> candidate_nanoseconds = 0;
      arena_.get().execute([&] {
        tbb::task_group ahead;
        if (top_before_expansion_ != 0)
          ahead.run([&] {
            const double ahead_start = thread_cpu_seconds();
            ahead_ = rebuild(top_before_expansion_);
            ahead_seconds = thread_cpu_seconds() - ahead_start;
          });
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, candidates.size(), 1),
                          [&](const tbb::blocked_range<std::size_t>& range) {
                            const double cpu_start = thread_cpu_seconds();
                            for (std::size_t i = range.begin(); i != range.end(); ++i)
                              evaluate(candidates[i]);
                            candidate_nanoseconds +=
                                static_cast<std::int64_t>((thread_cpu_seconds() - cpu_start) * 1e9);
                          });
        ahead.wait();
      });
      result.parallel_cpu_seconds +=
          ahead_seconds + static_cast<double>(candidate_nanoseconds.load()) * 1e-9;
    }
    const std::uint64_t nodes = state.egraph.num_nodes();
    result.work += nodes;  // searching the rules
    for (const Candidate& c : candidates) {
      if (c.built || c.priced) result.work += nodes;
      if (c.outcome == MatchOutcome::kUnchanged) continue;
      ++result.candidates;
      if (c.outcome == MatchOutcome::kCyclic) ++result.cyclic;
      if (!c.accepted || !seen_.insert(c.fingerprint).second) continue;
      entries_.push_back({index, c.rule, c.match});
      states_.emplace_back();
      queue_.push({c.cost, entries_.size() - 1});
      ++result.queued;
    }
    return !out_of_time;
  }

  // Cheapest first; among equal costs, the earliest queued.
  struct Later {
    bool operator()(const std::pair<double, std::size_t>& a,
                    const std::pair<double, std::size_t>& b) const {
      return a.first != b.first ? a.first > b.first : a.second > b.second;
    }
  };

  const dsl::RuleSet& rules_;
  const tensor::CostModel& model_;
  const TasoOptions& options_;
  const SearchLimits& limits_;
  SearchArena arena_;
  Rebuilt ahead_;                         // the next popped graph, when rebuilt beside an expansion
  std::size_t top_before_expansion_ = 0;  // the queue's top entry during the last expansion
  std::size_t max_ops_ = 0;
  std::size_t held_bytes_ = 0;  // the explored graphs' e-graphs (limits_.memory_bytes bounds it)
  std::vector<Entry> entries_;
  std::vector<std::unique_ptr<TensorEGraph>> states_;  // by entry: set once explored
  std::unordered_set<std::uint64_t> seen_;
  std::priority_queue<std::pair<double, std::size_t>, std::vector<std::pair<double, std::size_t>>,
                      Later>
      queue_;
};

}  // namespace

TasoResult run_taso(const tensor::Graph& graph, const dsl::RuleSet& rules,
                    const tensor::CostModel& model, const TasoOptions& options,
                    const SearchLimits& limits, tbb::task_arena* arena) {
  return TasoSearch(rules, model, options, limits, arena).run(graph);
}

}  // namespace mctsat::search
