// `paper`: the sharing-aware greedy extraction of Hartmann, He and Yoneki (PACT'24), "OCF", used
// there as MCTS's cheap reward. Inside the same bottom-up fixpoint as `greedy`, each class keeps,
// for its current best node, a history: the classes of the subgraph that node extracts, each with
// its cumulative cost (the value it had when it was counted). A node's value is its own cost plus
// its children's contributions, children taken in e-node order:
//   - the first child counts in full and its history is copied;
//   - a later child whose class is already in the history adds 0;
//   - otherwise it adds max(value(child) - largest overlapping value, 0), where the largest
//     overlapping value is the greatest cumulative cost, in the child's history, of a class that
//     is also in the history so far; then the child's history is merged in (entries already
//     present keep their value).
// The node's class enters its history with the node's value. One addition to the paper: a node
// whose children's histories already contain its own class would close a cycle and is rejected
// (and a choice gone cyclic through stale histories is repaired, see acyclic_repair.hpp).
#pragma once

#include <utility>
#include <vector>

#include "extract/extractor.hpp"

namespace mctsat::extract {

// The OCF values: per class the value of its best node and its history (sorted by class).
struct OcfValues {
  std::vector<double> value;                                   // by class, +inf if none
  Choice choice;                                               // by class
  std::vector<std::vector<std::pair<Index, double>>> history;  // by class, sorted by class
  std::size_t evaluations = 0, improvements = 0;
};
OcfValues ocf_values(const Problem& problem);

class PaperExtractor final : public Extractor {
 public:
  std::string name() const override { return "paper"; }

 protected:
  void solve(const Problem& problem, Result& result) const override;
};

}  // namespace mctsat::extract
