// Extraction as dynamic programming over frontiers, with a bounded width: an extraction and a
// proven lower bound on the optimum from the same search (the `beam` extractor's engine).
//
// The classes are put in a topological order, parents first (Kahn's algorithm, the highest class
// index first among the ready ones). Deciding the classes in that order, the state after some
// decisions is the frontier: the set of classes still required (a root, or a child of a chosen
// node) and not yet decided, and the cost of the nodes chosen so far. A required class is decided
// by choosing one of its usable nodes (not forbidden, every child class extractable, not its own
// child), which adds the node's cost and its children to the frontier; each class is decided at
// most once, so a shared class is paid once: with unbounded width the search is exact. It keeps,
// per frontier, the cheapest way to reach it; when it holds more than 2 x `width` frontiers it
// drops all but the `width` of least f = cost so far + h(frontier), recording the least f
// dropped, and it prunes frontiers whose f reaches an upper bound. The least of the recorded f,
// the upper bound and the cheapest completed extraction is a lower bound on the optimum (every
// extraction passes through a frontier that was kept to the end, dropped or pruned), provided h
// never overestimates.
//
// h(F), for F's classes at positions q_1 < ... < q_m: a class's subgraph lies at its position and
// later, so for any j, the parts of the subgraphs of q_1..q_{j-1} in the disjoint position ranges
// [q_i, q_{i+1}) and the whole subgraph of q_j share no class, and
// h(F) = max_j (sum_{i<j} segment(q_i, q_{i+1} - q_i) + whole(q_j)), where whole(q) bounds the
// cost of q's subgraph and segment(q, L) that of its part among the L positions from q. Both
// start from each class's cheapest node and a path bound (a node's cost plus h of its children);
// bound_classes() then raises them, deepest class first, by a short search from the class alone
// over `horizon` positions (width `class_width`) using the bounds of the deeper classes.
//
// Edges to an earlier class (only on cyclic problems) are dropped: fewer requirements, so the
// bound stays valid, but the search's extraction may then be no extraction (`exact` false).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

class FrontierSearch {
 public:
  explicit FrontierSearch(const Problem& problem);

  // False when the roots have no extraction at all.
  bool feasible() const { return feasible_; }
  // True when no edge had to be dropped (every usable node's children come after its class).
  bool exact() const { return exact_; }

  // Raises the class bounds h uses by short searches (without it: path bounds, and each class's
  // cheapest node for its segments).
  void bound_classes(std::size_t class_width, std::uint32_t horizon);

  struct Outcome {
    Choice choice;  // the cheapest extraction completed (empty if none below `upper`)
    double cost = std::numeric_limits<double>::infinity();
    double lower_bound = 0;  // on the optimum; at most `upper`
    std::size_t states = 0;  // frontiers created
    bool complete = false;   // nothing dropped: on an exact() problem, lower_bound is the
                             // optimum (or `upper`, when nothing cheaper exists)
  };
  // Searches from the roots keeping `width` frontiers (as above), pruning at `upper` (a cost
  // known to be reachable, or infinity).
  Outcome search(std::size_t width, double upper) const;

  // h of the roots' frontier: a lower bound on the optimum from the class bounds alone.
  double root_bound() const;

 private:
  struct Run;
  double h(std::span<const std::uint32_t> frontier) const;
  double segment(std::uint32_t position, std::uint32_t length) const;

  const Problem& problem_;
  bool feasible_ = true, exact_ = true;
  std::vector<Index> class_at_;          // by position
  std::vector<std::uint32_t> position_;  // by class (the maximum outside the order)
  // By position: the usable nodes, each with its children's positions (forward edges only).
  std::vector<std::uint32_t> node_begin_;
  std::vector<Index> nodes_;
  std::vector<std::uint32_t> kid_begin_;
  std::vector<std::uint32_t> kids_;
  std::vector<std::uint32_t> roots_;  // positions, ascending
  // Class bounds by position; segment_[p * horizon_ + L], L in [1, horizon_).
  std::vector<double> cheapest_, whole_, segment_;
  std::uint32_t horizon_ = 1;
};

}  // namespace mctsat::extract
