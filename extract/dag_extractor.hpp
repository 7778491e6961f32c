// `dag`: our extractor, aiming at the ILP optimum at a greedy's speed, in two phases and optional
// restarts followed by chain moves. Why each phase is there, and what it buys on the study's
// e-graphs, is measured in bench/results/extraction.md ("Design notes of the dag extractor").
//
// 1. A DAG-aware greedy: inside the bottom-up fixpoint, each class keeps the set of classes its
//    best node's subgraph uses (a bitset) and the value of that subgraph with every class counted
//    once. A node's value is its own cost plus the union of its children's sets, each class in the
//    union costing its chosen node's cost: the child of greatest value counts in full, the others
//    add the classes they bring that are new. A node whose union already holds its own class would
//    close a cycle and is rejected. When the sets would take more than
//    ExtractorOptions::max_set_bytes, this phase is skipped.
// 2. Local improvement (local_search.hpp) of that extraction: re-choose classes while the exact
//    DAG cost falls, the start's choices of the other classes serving as defaults for classes a
//    move brings in. When the result does not beat the tree-cost greedy's extraction, that one
//    is improved too and the better kept, so `dag` is never worse than `greedy`.
// 3. Restarts (ExtractorOptions::dag_restarts, none by default), for optima that differ from the
//    local one in many classes at once: each runs phase 1 on perturbed costs (every node's cost
//    times a factor drawn uniformly from [0, 2) by a SplitMix64 generator seeded with
//    ExtractorOptions::dag_seed, so the result is deterministic), repairs and improves that
//    extraction with the true costs (phase 2, in Knuth's order and without cycle checks on
//    acyclic problems), and keeps it when its exact cost is lower than the best so far. Restarts
//    need phase 1's cost sets and are skipped when those are too large or when no class has two
//    candidates; they stop early when the first ExtractorOptions::dag_converged of them all end
//    at the first extraction's cost (0 turns the early stop off).
// 4. Chain moves (chain_moves.hpp; after the restarts, or alone with ExtractorOptions::dag_chains,
//    the default) from the first extraction and, when a restart beat it, from the best restart,
//    each followed by phase 2 again; the cheapest extraction is kept. They find sharing that pays
//    only when several classes switch together, each switch needing the one before, which neither
//    restarts nor compound moves reach. The search's reward runs them too.
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
