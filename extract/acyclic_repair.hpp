// Repair of a choice that may be cyclic or incomplete, for the extractors whose values can go
// stale (paper, dag): classes whose chosen subgraph is complete and acyclic keep their node; the
// others are chosen again by the tree-cost rule, with the kept classes counting 0 (their nodes
// are already paid for). Kept classes only reach kept classes and the tree-cost rule creates no
// cycle, so the result is acyclic; classes with no extraction at all stay without a node.
#pragma once

#include <cstddef>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

// Returns the number of classes that lost their node (0: the choice was already fine).
std::size_t repair_choice(const Problem& problem, Choice& choice);

}  // namespace mctsat::extract
