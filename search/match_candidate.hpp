// One match of a rule applied on its own to a single-graph e-graph (one e-node per class: the
// e-graph of one graph), the step of TASO's search (taso.hpp), and a cheap preview of its outcome.
//
// apply_match copies the e-graph, applies the match and rebuilds it: the right-hand side is merged
// into the matched root's class (congruent duplicates merge too). The rewritten graph chooses in
// every class a node the rewrite added (the newest), else one that is not a matched root (a
// right-hand side may be an existing node), else the old node. That choice is the candidate: its
// cost is the choice's exact DAG cost (= graph_cost), and a cyclic choice is rejected. The
// outcome is kUnchanged when the match adds nothing (a condition or the analysis rejects it, or
// the right-hand side is already there).
//
// preview_match tells the same outcome without the copy where it is cheap to know, else nullopt:
// kUnchanged when the match fails a condition, a binder or the analysis (Rewrite::passes);
// kCyclic when every right-hand side's root instantiates to a new e-node, over new e-nodes and
// existing classes other than the matched roots (so that rebuilding merges nothing else and the
// candidate is the graph with each matched root's node replaced by its right-hand side), and that
// graph has a cycle reachable from an output. Most candidates of the multi-pattern merge rules on
// a large graph are such cyclic ones (one relu's input a descendant of the other's output).
#pragma once

#include <cstddef>
#include <optional>

#include "egraph/rewrite.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

using TensorRewrite = egraph::Rewrite<tensor::TensorAnalysis>;

enum class MatchOutcome { kUnchanged, kCyclic, kGraph };

struct MatchCandidate {
  MatchOutcome outcome = MatchOutcome::kUnchanged;
  tensor::TensorEGraph state;   // the rewritten e-graph (the parent's copy when unchanged)
  tensor::Selection selection;  // the rewritten graph: one e-node per class
  double cost = 0;              // its DAG cost, when kGraph
};

// Match `m` of `matches` (found in `parent`, a clean single-graph e-graph) applied on its own.
MatchCandidate apply_match(const tensor::TensorEGraph& parent, const TensorRewrite& rule,
                           const egraph::Matches& matches, std::size_t m,
                           const tensor::CostModel& model);

// apply_match's outcome when it is cheap to tell (never kGraph), else nullopt.
std::optional<MatchOutcome> preview_match(const tensor::TensorEGraph& parent,
                                          const TensorRewrite& rule,
                                          const egraph::Matches& matches, std::size_t m);

}  // namespace mctsat::search
