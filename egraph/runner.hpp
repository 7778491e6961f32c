// The runner: equality saturation in iterations of search (all rules, in parallel with oneTBB),
// apply (serial, in rule order, so results do not depend on the thread count) and rebuild, under
// iteration, node, time and memory limits, with per-iteration statistics, hooks and a stop reason.
// `run_iteration` runs one iteration with a chosen subset of rules (an MCTS action).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/scheduler.hpp"

namespace mctsat::egraph {

enum class StopReason { kSaturated, kIterationLimit, kNodeLimit, kTimeLimit, kMemoryLimit, kOther };
std::string stop_reason_name(StopReason reason);  // "saturated", "iteration limit", ...

struct RunnerLimits {
  std::size_t iterations = 30;
  std::size_t nodes = 10'000;
  double seconds = 5.0;
  std::size_t memory_bytes = std::numeric_limits<std::size_t>::max();
};

struct RuleIterationStats {
  ApplyStats apply;
  std::size_t found = 0;    // matches the search found (before a scheduler dropped them)
  std::size_t skipped = 0;  // matches left out as applied in an earlier iteration
  bool searched = false;
  bool dropped = false;  // banned by the scheduler this iteration
};

struct IterationStats {
  std::size_t iteration = 0;
  std::vector<RuleIterationStats> rules;  // by rule index
  double search_seconds = 0, apply_seconds = 0, rebuild_seconds = 0;
  std::size_t nodes = 0, classes = 0, memory_bytes = 0;  // after rebuilding
  bool changed = false;                                  // the e-graph grew or classes merged
};

struct RunReport {
  std::vector<IterationStats> iterations;
  StopReason stop = StopReason::kOther;
  std::string stop_detail;
  double seconds = 0;
};

template <class Analysis>
struct RunnerOptions {
  RunnerLimits limits;
  // Multi-pattern rules search only in the first k iterations (TENSAT's k_multi); unlimited by
  // default.
  std::size_t multi_iterations = std::numeric_limits<std::size_t>::max();
  std::size_t threads = 1;       // search threads (results are identical for every count)
  ApplyOptions<Analysis> apply;  // filter (e.g. cycle filtering); node_budget is set from limits
  // Called after every iteration; returning false stops the run (StopReason::kOther).
  std::function<bool(const EGraph<Analysis>&, const IterationStats&)> after_iteration;
  // Called on the clean e-graph after each iteration's search, right before its apply phase (its
  // time counts as apply time): prepares a stateful apply.filter, e.g. CycleFilter::prepare.
  std::function<void(const EGraph<Analysis>&)> before_apply;
  // Called right after each iteration's rebuild (its time counts as rebuild time), before the
  // iteration's statistics are taken. It may mark e-nodes (e.g. blacklist the e-nodes closing
  // cycles, see cycles.hpp) but must leave the e-graph clean: no adds, no merges.
  std::function<void(EGraph<Analysis>&)> after_rebuild;
};

template <class Analysis>
class Runner {
 public:
  using Rules = std::span<const Rewrite<Analysis>* const>;

  explicit Runner(RunnerOptions<Analysis> options = {}) : options_(std::move(options)) {}

  // Runs to saturation or a limit. The e-graph is rebuilt first if needed.
  RunReport run(EGraph<Analysis>& egraph, Rules rules, Scheduler& scheduler) const {
    const auto start = Clock::now();
    std::vector<std::string> names;
    for (const auto* rule : rules) names.push_back(rule->name());
    scheduler.start(names);
    if (!egraph.clean()) egraph.rebuild();
    RunReport report;
    // Per rule: the epoch before which every class's matches were already applied by this rule.
    std::vector<std::uint32_t> skip_before(rules.size(), 0);
    std::vector<Matches> matches(rules.size());  // per rule, reused by every iteration
    for (std::size_t iteration = 0;; ++iteration) {
      if (const auto stop = check_limits(egraph, iteration, start)) {
        report.stop = *stop;
        break;
      }
      std::vector<bool> enabled(rules.size());
      for (std::size_t r = 0; r < rules.size(); ++r)
        enabled[r] = (!rules[r]->multi() || iteration < options_.multi_iterations) &&
                     scheduler.can_search(iteration, r);
      IterationStats stats =
          iterate(egraph, rules, enabled, iteration, &scheduler, skip_before, matches);
      report.iterations.push_back(stats);
      if (options_.after_iteration && !options_.after_iteration(egraph, stats)) {
        report.stop = StopReason::kOther;
        report.stop_detail = "stopped by a hook";
        break;
      }
      if (!stats.changed && !scheduler.lift_bans(iteration)) {
        report.stop = StopReason::kSaturated;
        break;
      }
    }
    if (report.stop == StopReason::kNodeLimit || report.stop == StopReason::kTimeLimit ||
        report.stop == StopReason::kMemoryLimit || report.stop == StopReason::kIterationLimit)
      report.stop_detail = stop_reason_name(report.stop);
    report.seconds = seconds_since(start);
    return report;
  }

  // One iteration with the rules whose `enabled` flag is set (all matches, no scheduler).
  IterationStats run_iteration(EGraph<Analysis>& egraph, Rules rules,
                               const std::vector<bool>& enabled, std::size_t iteration = 0) const {
    if (!egraph.clean()) egraph.rebuild();
    std::vector<std::uint32_t> no_skipping(rules.size(), 0);
    std::vector<Matches> matches(rules.size());
    return iterate(egraph, rules, enabled, iteration, nullptr, no_skipping, matches);
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  std::optional<StopReason> check_limits(const EGraph<Analysis>& egraph, std::size_t iteration,
                                         Clock::time_point start) const {
    const RunnerLimits& limits = options_.limits;
    if (iteration >= limits.iterations) return StopReason::kIterationLimit;
    if (egraph.num_nodes() >= limits.nodes) return StopReason::kNodeLimit;
    if (egraph.memory_bytes() >= limits.memory_bytes) return StopReason::kMemoryLimit;
    if (seconds_since(start) >= limits.seconds) return StopReason::kTimeLimit;
    return std::nullopt;
  }

  // The most matches each enabled rule may hold in one iteration under the memory limit: the room
  // the e-graph leaves, shared equally by the enabled rules, over the bytes of one match (its roots
  // and substitution). A multi-pattern rule's join can otherwise produce matches without bound.
  std::vector<std::size_t> match_limits(const EGraph<Analysis>& egraph, Rules rules,
                                        const std::vector<bool>& enabled) const {
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> limits(rules.size(), kNone);
    const std::size_t memory_limit = options_.limits.memory_bytes;
    if (memory_limit == kNone) return limits;
    const std::size_t used = egraph.memory_bytes();
    const std::size_t room = memory_limit > used ? memory_limit - used : 0;
    const std::size_t sharing = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::count(enabled.begin(), enabled.end(), true)));
    for (std::size_t r = 0; r < rules.size(); ++r) {
      // A multi-pattern rule's join holds two stages at once (the matches joined so far and the
      // next stage's, each at most the limit): count both.
      const std::size_t stages = rules[r]->multi() ? 2 : 1;
      const std::size_t match_bytes =
          stages * (rules[r]->lhs().size() + rules[r]->num_vars()) * sizeof(Id);
      limits[r] = std::max<std::size_t>(1, room / sharing / match_bytes);
    }
    return limits;
  }

  // One iteration. `skip_before` (per rule) enables semi-naive matching and is updated: after a
  // complete search and application (nothing truncated, dropped or filtered), the rule may skip
  // matches in classes unchanged since this iteration's search. `matches` (one per rule) holds the
  // search results; its buffers are reused from iteration to iteration.
  IterationStats iterate(EGraph<Analysis>& egraph, Rules rules, const std::vector<bool>& enabled,
                         std::size_t iteration, Scheduler* scheduler,
                         std::vector<std::uint32_t>& skip_before,
                         std::vector<Matches>& matches) const {
    // Changes made from here on carry a stamp above every class this search sees.
    const std::uint32_t epoch = egraph.epoch() + 1;
    egraph.set_epoch(epoch);
    IterationStats stats;
    stats.iteration = iteration;
    stats.rules.resize(rules.size());
    const std::size_t nodes_before = egraph.num_nodes(), classes_before = egraph.num_classes();

    // Search: read-only, one result slot per rule, so the thread count cannot change results.
    auto phase = Clock::now();
    std::vector<std::size_t> limits = match_limits(egraph, rules, enabled);
    if (scheduler)
      for (std::size_t r = 0; r < rules.size(); ++r)
        if (enabled[r]) limits[r] = std::min(limits[r], scheduler->search_limit(iteration, r));
    auto search_rule = [&](std::size_t r) {
      if (enabled[r]) {
        rules[r]->search_into(egraph, matches[r], limits[r],
                              rules[r]->multi() ? 0 : skip_before[r]);
      } else {
        matches[r].clear();
      }
    };
    if (options_.threads <= 1) {
      for (std::size_t r = 0; r < rules.size(); ++r) search_rule(r);
    } else {
      tbb::task_arena arena(static_cast<int>(
          std::min<std::size_t>(options_.threads, tbb::info::default_concurrency())));
      arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, rules.size(), [&](std::size_t r) { search_rule(r); });
      });
    }
    stats.search_seconds = seconds_since(phase);

    // Apply: serial, in rule order.
    phase = Clock::now();
    ApplyOptions<Analysis> apply = options_.apply;
    apply.node_budget = options_.limits.nodes;
    apply.memory_budget = options_.limits.memory_bytes;
    if (options_.before_apply) options_.before_apply(egraph);
    for (std::size_t r = 0; r < rules.size(); ++r) {
      RuleIterationStats& rule_stats = stats.rules[r];
      if (!enabled[r]) continue;
      rule_stats.searched = true;
      rule_stats.found = matches[r].size();
      rule_stats.skipped = matches[r].skipped;
      if (scheduler &&
          !scheduler->keep_matches(iteration, r, rule_stats.found + rule_stats.skipped)) {
        rule_stats.dropped = true;
        skip_before[r] = 0;
        continue;
      }
      rule_stats.apply = rules[r]->apply(egraph, matches[r], apply);
      const bool complete = matches[r].size() < limits[r] && rule_stats.apply.unapplied == 0 &&
                            rule_stats.apply.filtered == 0;
      skip_before[r] = complete ? epoch : 0;
    }
    stats.apply_seconds = seconds_since(phase);

    phase = Clock::now();
    egraph.rebuild();
    if (options_.after_rebuild) {
      options_.after_rebuild(egraph);
      MCTSAT_ASSERT(egraph.clean() && "an after_rebuild hook must leave the e-graph clean");
    }
    stats.rebuild_seconds = seconds_since(phase);
    stats.nodes = egraph.num_nodes();
    stats.classes = egraph.num_classes();
    stats.memory_bytes = egraph.memory_bytes();
    // Counts alone can miss a change (new e-nodes and congruence kills may cancel out), so an
    // applied match counts too.
    bool applied = false;
    for (const auto& rule : stats.rules) applied = applied || rule.apply.applied > 0;
    stats.changed = applied || stats.nodes != nodes_before || stats.classes != classes_before;
    return stats;
  }

  RunnerOptions<Analysis> options_;
};

}  // namespace mctsat::egraph
