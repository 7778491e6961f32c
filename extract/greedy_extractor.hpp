// `greedy`: bottom-up tree cost to a fixpoint, as egg's Extractor (the paper's "DCF"): a node
// costs its own cost plus its children's class costs, each child counted every time it occurs, so
// a subgraph shared by several parents is paid once per use. The baseline; its tree costs also
// tell which classes have any acyclic extraction at all (a finite cost).
#pragma once

#include <vector>

#include "extract/extractor.hpp"
#include "extract/fixpoint.hpp"

namespace mctsat::extract {

struct TreeCosts {
  std::vector<double> cost;  // by class: the tree cost of its best node, +inf if none
  Choice choice;             // by class: that node, kNone if none (acyclic where chosen)
  FixpointStats stats;
};
TreeCosts tree_costs(const Problem& problem);

class GreedyExtractor final : public Extractor {
 public:
  std::string name() const override { return "greedy"; }

 protected:
  void solve(const Problem& problem, Result& result) const override;
};

}  // namespace mctsat::extract
