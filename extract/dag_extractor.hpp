// `dag`: our extractor, aiming at the ILP optimum at a greedy's speed, in two phases and optional
// restarts followed by chain moves.
//
// 1. A DAG-aware greedy (in the spirit of extraction-gym's faster-greedy-dag): inside the
//    bottom-up fixpoint, each class keeps the set of classes its best node's subgraph uses (a
//    bitset) and the value of that subgraph with every class counted once. A node's value is its
//    own cost plus the union of its children's sets, each class in the union costing its chosen
//    node's cost: the child of greatest value counts in full, the others add the classes they
//    bring that are new. A node whose union already holds its own class would close a cycle and
//    is rejected. When the sets would take more than ExtractorOptions::max_set_bytes, this phase
//    is skipped.
// 2. Local improvement (local_search.hpp) of that extraction: re-choose classes while the exact
//    DAG cost falls, the start's choices of the other classes serving as defaults for classes a
//    move brings in. When the result does not beat the tree-cost greedy's extraction, that one
//    is improved too and the better kept, so `dag` is never worse than `greedy`.
// 3. Restarts (ExtractorOptions::dag_restarts, none by default): local improvement only reaches a
//    local optimum, and the optimum may differ from it in many classes at once (on the random
//    e-graph `random200` of the extraction study, 27% cheaper with 29 classes where the local
//    optimum has 39, sharing a subgraph that no single or compound move brings in). Each restart
//    runs phase 1 on perturbed costs (every node's cost times a factor drawn uniformly from
//    [0, 2)), repairs and improves that extraction with the true costs (phase 2), and keeps it
//    when its exact cost is lower than the best so far. (Restarts biased towards the best
//    extraction, its nodes' factors halved, fell back into its basin too often in trials: on
//    random200 they missed the optimum in 64 restarts for 2 of 10 seeds.) The factors come from
//    a SplitMix64 generator seeded with ExtractorOptions::dag_seed, so the result is
//    deterministic. Restarts need phase 1's cost sets and are skipped when those are too large,
//    or when no class has two candidates. Each restart costs about as much as phases 1 and 2
//    (though its phase 1 runs in Knuth's order, ordered_fixpoint, which evaluates each node once,
//    and its phase 2 skips the cycle checks on acyclic problems), so restarts stop early when the
//    first ExtractorOptions::dag_converged of them all end at the first extraction's cost (a
//    single basin, it seems: on the tensor e-graphs of the study every restart ends there, while
//    on the random ones they end at many different local optima, and then all restarts run).
//    That test can be fooled: on small random e-graphs (40 classes, seeds 1..100 of
//    tests/extract/problems.hpp's window_problem(40, seed, 8, 8)), 64 restarts reach the ILP
//    optimum on all 30 where `dag` alone misses it, but with the early stop after 2 restarts they
//    stop at the local optimum on 5 of those 30 (3-14% above the optimum; after 4 restarts, on
//    2; with the chain moves of item 4 after them, 3 of 30 stay 2.7-9.3% above);
//    ExtractorOptions::dag_converged = 0 turns it off.
// 4. Chain moves (after the restarts, or alone with ExtractorOptions::dag_chains, the default;
//    local_search.hpp's improve_by_chains) from the first extraction and, when a restart beat it,
//    from the best restart, each followed by phase 2 again; the cheapest extraction is kept. They
//    find sharing that pays only when several classes switch together, each switch needing the
//    one before, which neither restarts nor compound moves reach: on NASRNN saturated with the
//    TASO rules (TENSAT's configuration), 64 restarts end 3.6-6% above the ILP optimum (1024
//    restarts: 3.6%), and the chain moves reach the optimum (in the benchmark's numbering and in
//    8 shuffled node orders of the exported file), also without restarts (`dag_chains`, the
//    default: the optimum of all ten tensor e-graphs of the extraction study, at 1.1-5.4x the
//    time of `dag` without them; bench/results/extraction.md). Search's reward runs them too.
#pragma once

#include <span>

#include "extract/extractor.hpp"

namespace mctsat::extract {

struct DagGreedyValues {
  std::vector<double> value;  // by class: the estimated DAG cost of its best node's subgraph
  Choice choice;              // by class
  std::size_t evaluations = 0, improvements = 0;
};
// The first phase alone; `value` and `choice` are empty when the sets would exceed
// `max_set_bytes`. `costs` (by node), when given, replaces the problem's node costs; `ordered`
// runs the fixpoint in Knuth's order (ordered_fixpoint, fixpoint.hpp) instead of FIFO order.
DagGreedyValues dag_greedy_values(const Problem& problem, std::size_t max_set_bytes,
                                  std::span<const double> costs = {}, bool ordered = false);

class DagExtractor final : public Extractor {
 public:
  explicit DagExtractor(ExtractorOptions options = {}) : options_(options) {}
  std::string name() const override { return "dag"; }

 protected:
  void solve(const Problem& problem, Result& result) const override;

 private:
  ExtractorOptions options_;
};

}  // namespace mctsat::extract
