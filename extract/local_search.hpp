// Local improvement of an extraction (the second phase of `dag`): passes over the needed classes,
// children first, until a whole pass changes nothing. For each class:
//   - single moves: re-choose its node given the rest of the choice, taking the candidate that
//     lowers the exact DAG cost the most;
//   - failing that, compound moves, for sharing: a candidate that does not pay for itself may
//     bring in (at most 64) classes that other needed classes could share; after it, every needed
//     class with a node using such a class switches to that node where this lowers the cost, and
//     the whole is kept when it lowers the total (the first such candidate in node order). Each
//     step must keep its class below its chosen parents in the engine's height potential.
//
// Moves are made, priced exactly and undone on a ChoiceEngine (choice_engine.hpp). Single moves
// stop pricing a candidate as soon as it cannot beat the best one found (the refund of releasing
// the old node alone bounds any move's refund).
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

}  // namespace mctsat::extract
