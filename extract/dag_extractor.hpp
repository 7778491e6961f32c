// `dag`: our extractor, aiming at the ILP optimum at a greedy's speed, in two phases.
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
#pragma once

#include "extract/extractor.hpp"

namespace mctsat::extract {

struct DagGreedyValues {
  std::vector<double> value;  // by class: the estimated DAG cost of its best node's subgraph
  Choice choice;              // by class
  std::size_t evaluations = 0, improvements = 0;
};
// The first phase alone; `value` and `choice` are empty when the sets would exceed
// `max_set_bytes`.
DagGreedyValues dag_greedy_values(const Problem& problem, std::size_t max_set_bytes);

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
