// Whether applying one rule to a clean tensor e-graph may change it: the screen that MCTS's
// expansions and rollouts (first_change) and the greedy planner run before they copy a state and
// apply a rule to the copy (apply_rules with that rule alone).
//
// Contract: may_change is false only when apply_rules would change nothing, so that skipping the
// copy and the application then leaves every search's result, as well as its work units, as they
// were. It is true when the rule has a match and, for a multi-pattern rule, when one of its
// joined matches may change the e-graph (Rewrite::may_change: it passes the conditions and the
// binders, and a binder's ground term is new or the analysis accepts the right-hand sides); the
// application may still change nothing (cycle filtering, merges that add nothing).
//
// A multi-pattern rule is screened without joining all its matches (the join of two common
// patterns, e.g. two element-wise additions, has the square of their count): whether a joined
// match may change the e-graph depends only on the data (TensorData) of its roots' and
// variables' classes (the conditions and binders read the data, a binder's term is made from it,
// and the analysis accepts a right-hand side by the values of its operands, which a class's data
// determines), and on which classes the variables shared by patterns are (the join). So each
// pattern's matches are grouped by the data of their root and of their unshared variables'
// classes and by their shared variables' classes; per group, matches with up to k distinct
// roots are kept (k: the patterns' count, so that the join, which leaves out two patterns
// matching one class, still finds a combination for every combination of groups that has one),
// and only the joins of these representatives are tried. Cost: the patterns' searches, one pass
// over their matches, and the representatives' join.
#pragma once

#include <cstddef>

#include "dsl/lowering.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

bool may_change(const tensor::TensorEGraph& state, const dsl::RuleSet& rules, std::size_t rule);

}  // namespace mctsat::search
