// `ilp`: optimal extraction by integer linear programming with CBC (COIN-OR branch and cut).
//
// Model, over the nodes that can appear in an acyclic extraction at all (not forbidden, every
// child class extractable, not their own child) of the classes they reach from the roots:
//   x_n in {0, 1}                   node n is chosen
//   sum_{n in c} x_n <= 1           at most one node per class, exactly one for a root class
//   x_n <= sum_{m in k} x_m         for every child class k of n
//   minimize sum_n cost(n) x_n
// Acyclicity is enforced lazily: after each solve the chosen subgraph is searched for cycles, and
// every cycle found is forbidden by a cut sum_{n on the cycle} x_n <= length - 1 before solving
// again (on cycle-free e-graphs, the usual case after TENSAT's cycle filtering, one solve is
// enough). The `dag` extraction (with the options' dag_restarts) is the warm start; a time limit
// bounds all solves together, and when it ends the search, the best acyclic solution known (at
// worst the warm start) is returned with a lower bound and the gap: the solver's bound, or the
// frontier search's path bound (frontier_search.hpp, no search) when higher. The last
// relaxation's bound is valid for the true problem, since cuts only remove cyclic solutions. The
// time limit is wall time, so a result that hits it may differ from run to run; everything else
// is deterministic.
#pragma once

#include "extract/extractor.hpp"

namespace mctsat::extract {

class IlpExtractor final : public Extractor {
 public:
  explicit IlpExtractor(ExtractorOptions options = {}) : options_(options) {}
  std::string name() const override { return "ilp"; }

 protected:
  void solve(const Problem& problem, Result& result) const override;

 private:
  ExtractorOptions options_;
};

}  // namespace mctsat::extract
