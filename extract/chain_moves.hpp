// Chain moves (the third phase of `dag`, on a ChoiceEngine: choice_engine.hpp): local improvement
// for sharing that pays only when several classes switch together, each switch needing the one
// before (on NASRNN's saturated e-graph, pairs of small matmuls merged into one, each pair feeding
// two gates whose other inputs come from other pairs: the gates of a cell form a ring that only
// pays when switched as a whole, and compound moves reach only the first link).
//
// A class is shareable when candidate nodes of two or more classes use it. A chain brings a
// shareable class into the extraction, whatever that costs, through a needed class switching to a
// node that uses it, directly or through a class outside the extraction whose default it sets; it
// is seeded only at shareable classes that two or more needed classes can use in one of these two
// ways (a heuristic; bench/results/extraction.md records what other seeds buy and cost). Then it
// sweeps over the classes it made needed, in the order they came in, until a sweep changes
// nothing: such a class re-chooses its node, and needed classes that can use it, directly or
// through a class outside the extraction, switch to that node, where this lowers the cost; and it
// may switch to a node bringing in another shareable class when that pays together with that
// class's own follow-ups (found the same way, without this last kind of step). A chain tries at
// most 64 moves per seeded class and takes at most 256 steps. Two shortcuts skip tries that cannot
// pay: a follow-up whose own prices rule it out (the new node against the old one and the leaves
// only the old one uses) is not made, though it counts as tried, so the chains end as without it;
// and a sweep that has changed nothing stops where the previous one took its last step, the
// classes after it having been tried in the same state (this leaves more of a chain's budget to
// later tries). The first seeding of a class whose chain lowers the total is kept; rounds over all
// shareable classes outside the extraction repeat while one is. Cycle checks as for
// improve_choice with `acyclic_shortcut`. `choice` must be a valid extraction.
#pragma once

#include <cstddef>

#include "extract/dag_cost.hpp"
#include "extract/local_search.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

ImproveStats improve_by_chains(const Problem& problem, Choice& choice, std::size_t max_rounds);

}  // namespace mctsat::extract
