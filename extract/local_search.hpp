// Local improvement of an extraction (the second phase of `dag`): passes over the needed classes,
// children first, until a whole pass changes nothing. For each class:
//   - single moves: re-choose its node given the rest of the choice, taking the candidate that
//     lowers the exact DAG cost the most;
//   - failing that, compound moves, for sharing: a candidate that does not pay for itself may
//     bring in (at most 64) classes that other needed classes could share; after it, every needed
//     class with a node using such a class switches to that node where this lowers the cost, and
//     the whole is kept when it lowers the total (the first such candidate in node order). Each
//     step must keep its class below its chosen parents in the height potential (below).
//
// A move is priced exactly with reference counts (how many chosen parents, or roots, use each
// class): switching class c from node o to node m adds m's children (a class reaching 0 -> 1 is
// paid for and its chosen node's children added in turn, the "default" choice classes outside the
// extraction keep) and then releases o's children (a class reaching 0 is refunded and its children
// released). A move that would make c reachable from itself is rejected: classes newly added by it
// are walked, and an already needed class is walked down through the classes above c in a height
// potential of the extracted DAG (kept valid through every change, and undone with it).
// Single moves stop pricing a candidate as soon as it cannot beat the best one found (the refund
// of releasing the old node alone bounds any move's refund).
//
// With `acyclic_shortcut` (used by `dag`'s restarts), a problem where no candidate node reaches
// its own class through candidate nodes (acyclic, like the study's random e-graphs) skips the
// cycle checks and the height potential (no choice can be cyclic): faster (no re-check of the
// whole extraction after each move), and compound moves are no longer limited by the potential,
// so the local optimum reached may differ. Off in `dag`'s second phase, so that its first
// extraction is as before.
#pragma once

#include <cstddef>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

struct ImproveStats {
  std::size_t passes = 0;
  std::size_t moves_tried = 0;
  std::size_t moves_taken = 0;
  double before = 0, after = 0;  // exact DAG costs
};

// `choice` must be a valid extraction for the problem's roots; classes outside it may hold any
// node (their default, used when a move needs them) or kNone. Stops after `max_passes` passes.
ImproveStats improve_choice(const Problem& problem, Choice& choice, std::size_t max_passes,
                            bool acyclic_shortcut = false);

// Chain moves, for sharing that pays only when several classes switch together, each switch needing
// the one before (on NASRNN's saturated e-graph, pairs of small matmuls merged into one, each pair
// feeding two gates whose other inputs come from other pairs: the gates of a cell form a ring that
// only pays when switched as a whole, and compound moves reach only the first link). A class is
// shareable when candidate nodes of two or more classes use it. A chain brings a shareable class
// into the extraction, whatever that costs, through a needed class switching to a node that uses
// it, directly or through a class outside the extraction whose default it sets; it is seeded only
// at shareable classes that two or more needed classes can use in one of these two ways. (A
// heuristic choice of seeds: a chain seeded at a class only one needed class can use may pay too,
// and does on the study's random200, where the chain moves alone end at 1313 with such seeds and at
// 1598 without; on the ten tensor e-graphs of the study they reach the same optima without them,
// with far fewer tries: ResNeXt-50 4 instead of 616, NASNet-A 5,676 instead of 19,422.) Then it
// sweeps over the classes it made needed, in the order they came in, until a sweep changes nothing:
// such a class re-chooses its node, and needed classes that can use it, directly or through a class
// outside the extraction, switch to that node, where this lowers the cost; and it may switch to a
// node bringing in another shareable class when that pays together with that class's own follow-ups
// (found the same way, without this last kind of step). A chain tries at most 64 moves per seeded
// class and takes at most 256 steps. Two shortcuts skip tries that cannot pay: a follow-up whose
// own prices rule it out (the new node against the old one and the leaves only the old one uses) is
// not made, though it counts as tried, so the chains end as without it; and a sweep that has
// changed nothing stops where the previous one took its last step, the classes after it having been
// tried in the same state (this leaves more of a chain's budget to later tries). The first seeding
// of a class whose chain lowers the total is kept; rounds over all shareable classes outside the
// extraction repeat while one is. Cycle checks as for improve_choice with `acyclic_shortcut`.
// `choice` must be a valid extraction.
ImproveStats improve_by_chains(const Problem& problem, Choice& choice, std::size_t max_rounds);

}  // namespace mctsat::extract
