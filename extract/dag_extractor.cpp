// The DAG-aware greedy with bitset cost sets, and the `dag` extractor around it.
#include "extract/dag_extractor.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "extract/acyclic_repair.hpp"
#include "extract/chain_moves.hpp"
#include "extract/fixpoint.hpp"
#include "extract/greedy_extractor.hpp"
#include "extract/local_search.hpp"
#include "support/splitmix64.hpp"

namespace mctsat::extract {

DagGreedyValues dag_greedy_values(const Problem& problem, std::size_t max_set_bytes,
                                  std::span<const double> costs, bool ordered) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  MCTSAT_ASSERT(costs.empty() || costs.size() == problem.num_nodes());
  auto node_cost = [&](Index node) {
    return costs.empty() ? problem.node_cost(node) : costs[node];
  };
  DagGreedyValues out;
  const std::size_t classes = problem.num_classes();
  const std::size_t words = (classes + 63) / 64;
  if (words * 8 * classes > max_set_bytes) return out;

  std::vector<std::uint64_t> sets(classes * words, 0);  // by class: `words` words each
  std::vector<double> own(classes, 0);                  // by class: its chosen node's own cost
  std::vector<std::uint64_t> scratch(words);
  auto set_of = [&](Index eclass) { return sets.data() + std::size_t{eclass} * words; };
  auto has = [](const std::uint64_t* set, Index eclass) {
    return ((set[eclass >> 6] >> (eclass & 63)) & 1) != 0;
  };
  fresh_fixpoint_state(problem, out.value, out.choice);
  auto evaluate = [&](Index node) {
    const Index eclass = problem.node_class(node);
    const std::span<const Index> children = problem.unique_children(node);
    const double cost = node_cost(node);
    if (children.empty()) {
      std::fill(scratch.begin(), scratch.end(), 0);
      scratch[eclass >> 6] |= std::uint64_t{1} << (eclass & 63);
      return cost;
    }
    // The child of greatest value counts in full; its value bounds the node's from below.
    Index base = children[0];
    for (Index child : children)
      if (out.value[child] > out.value[base]) base = child;
    double total = out.value[base];
    if (!(cost + total < out.value[eclass])) return kInf;
    if (has(set_of(base), eclass)) return kInf;
    std::copy(set_of(base), set_of(base) + words, scratch.begin());
    for (Index child : children) {
      if (child == base) continue;
      const std::uint64_t* set = set_of(child);
      for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t fresh = set[w] & ~scratch[w];
        scratch[w] |= fresh;
        while (fresh != 0) {
          const auto bit = static_cast<Index>(std::countr_zero(fresh));
          total += own[static_cast<Index>(w * 64) + bit];
          fresh &= fresh - 1;
        }
      }
    }
    if (has(scratch.data(), eclass)) return kInf;
    scratch[eclass >> 6] |= std::uint64_t{1} << (eclass & 63);
    return cost + total;
  };
  auto commit = [&](Index node, double) {
    const Index eclass = problem.node_class(node);
    std::copy(scratch.begin(), scratch.end(), set_of(eclass));
    own[eclass] = node_cost(node);
  };
  const FixpointStats stats =
      ordered ? ordered_fixpoint(problem, out.value, out.choice, evaluate, commit)
              : bottom_up_fixpoint(problem, out.value, out.choice, evaluate, commit);
  out.evaluations = stats.evaluations;
  out.improvements = stats.improvements;
  return out;
}

void DagExtractor::solve(const Problem& problem, Result& result) const {
  TreeCosts tree = tree_costs(problem);
  result.evaluations = tree.stats.evaluations;
  result.improvements = tree.stats.improvements;
  for (Index root : problem.roots()) {
    if (tree.choice[root] == kNone) {
      result.status = Status::kInfeasible;  // no acyclic extraction at all
      return;
    }
  }
  const double tree_cost = dag_cost(problem, tree.choice);
  auto improve = [&](Choice& choice, bool restart) {
    if (!options_.improve) return;
    const ImproveStats stats =
        improve_choice(problem, choice, options_.max_passes, /*acyclic_shortcut=*/restart);
    result.evaluations += stats.moves_tried;
    result.improvements += stats.moves_taken;
  };
  // An extraction of the DAG-aware greedy (repaired where stale sets left it cyclic; classes it
  // left without a node take the tree-cost choice as their default), improved.
  auto from_greedy = [&](DagGreedyValues& greedy, bool restart) {
    result.evaluations += greedy.evaluations;
    result.improvements += greedy.improvements;
    repair_choice(problem, greedy.choice);
    for (Index eclass = 0; eclass < problem.num_classes(); ++eclass)
      if (greedy.choice[eclass] == kNone) greedy.choice[eclass] = tree.choice[eclass];
    Choice choice = std::move(greedy.choice);
    improve(choice, restart);
    return choice;
  };

  Choice choice;
  double cost = std::numeric_limits<double>::infinity();
  DagGreedyValues greedy = dag_greedy_values(problem, options_.max_set_bytes);
  const bool sets = !greedy.value.empty();
  if (!sets) {
    result.detail = "cost sets too large: started from the tree-cost greedy";
  } else {
    double estimate = 0;
    for (Index root : problem.roots()) estimate += greedy.value[root];
    result.estimate = estimate;
    choice = from_greedy(greedy, /*restart=*/false);
    cost = dag_cost(problem, choice);
  }
  // The tree-cost greedy's extraction, improved, when the above does not beat it (so `dag` is
  // never worse than `greedy`).
  if (!(cost < tree_cost)) {
    Choice from_tree = tree.choice;
    improve(from_tree, /*restart=*/false);
    const double tree_improved = dag_cost(problem, from_tree);
    if (tree_improved < cost) {
      choice = std::move(from_tree);
      cost = tree_improved;
    }
  }
  if (std::isnan(result.estimate)) result.estimate = tree_cost;

  // Restarts from the DAG-aware greedy on perturbed costs.
  // (Nothing to restart for when no class has two candidates.)
  bool choices = false;
  for (Index eclass = 0; eclass < problem.num_classes() && !choices; ++eclass)
    choices = problem.candidates(eclass).size() > 1;
  const bool restarts = options_.dag_restarts > 0 && sets && choices;
  const bool chains = options_.improve && choices && (restarts || options_.dag_chains);
  const Choice first_choice = chains ? choice : Choice();
  std::size_t kept = 0;  // restarts that beat the best extraction so far
  if (restarts) {
    SplitMix64 random(options_.dag_seed);  // fixed: a seed gives the same factors everywhere
    std::vector<double> costs(problem.num_nodes());
    const double first = cost;
    // Restarts stop early only when all of them so far ended at the first extraction's cost.
    std::size_t done = 0, repeats = 0;
    const std::size_t converged = options_.dag_converged;
    bool late = false;
    while (done < options_.dag_restarts &&
           !(converged > 0 && repeats == done && repeats >= converged) &&
           !(late = std::chrono::steady_clock::now() >= options_.deadline)) {
      ++done;
      for (Index node = 0; node < problem.num_nodes(); ++node)
        costs[node] = problem.node_cost(node) * 2.0 * random.unit();
      DagGreedyValues perturbed =
          dag_greedy_values(problem, options_.max_set_bytes, costs, /*ordered=*/true);
      Choice candidate = from_greedy(perturbed, /*restart=*/true);
      const double candidate_cost = dag_cost(problem, candidate);
      const double tolerance = 1e-9 * std::max(cost, 1e-300);
      if (candidate_cost < cost - tolerance) {
        choice = std::move(candidate);
        cost = candidate_cost;
        ++kept;
      } else if (candidate_cost <= cost + tolerance) {
        ++repeats;  // back at the best extraction's cost
      }
    }
    result.detail = fmt::format("{} restarts{}, {} improved (from {:.6g} to {:.6g})", done,
                                late                                              ? " (time limit)"
                                : repeats == done && done < options_.dag_restarts ? " (converged)"
                                                                                  : "",
                                kept, first, cost);
  }
  // Chain moves from the first extraction and, when a restart beat it, from the best one, each
  // followed by single and compound moves; the cheapest extraction is kept.
  if (chains) {
    const double best = cost;
    auto chain = [&](Choice chained) {
      const ImproveStats stats = improve_by_chains(problem, chained, options_.max_passes);
      result.evaluations += stats.moves_tried;
      result.improvements += stats.moves_taken;
      if (stats.moves_taken == 0) return;
      improve(chained, /*restart=*/true);
      const double chained_cost = dag_cost(problem, chained);
      if (chained_cost < cost - 1e-9 * std::max(cost, 1e-300)) {
        choice = std::move(chained);
        cost = chained_cost;
      }
    };
    const Choice best_choice = kept > 0 ? choice : Choice();
    chain(first_choice);
    if (kept > 0) chain(best_choice);
    if (cost < best)
      result.detail +=
          fmt::format("{}chain moves to {:.6g}", result.detail.empty() ? "" : "; ", cost);
  }
  result.status = Status::kHeuristic;
  result.choice = std::move(choice);
}

}  // namespace mctsat::extract
