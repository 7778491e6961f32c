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
//
// Priced, the preview also tells kGraph without the copy: for a plain replacement without binders
// whose merges leave the matched roots' analysis data as it was, the candidate is the parent's
// graph with each matched root's node replaced by its right-hand side, so one walk of that graph
// from the outputs gives apply_match's cost bit for bit (the same node costs summed in
// check_choice's order: children each once, ascending by class id, a new e-node's id being the
// id count plus its order of addition) and graph_fingerprint's fingerprint and operator count.
// The parent's node costs are computed once per parent (ParentPrices): a candidate costs one walk
// of its graph and the prices of the e-nodes its right-hand sides add, not a copy of the e-graph,
// a rebuild, an extraction problem and the cost of every node; and most cyclic candidates cost no
// walk, their cycle being told from which classes reach which in the parent (ParentPrices).
#pragma once

#include <cstddef>
#include <optional>

#include "egraph/rewrite.hpp"
#include "search/graph_fingerprint.hpp"
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
                                          const TensorRewrite& rule, const egraph::Matches& matches,
                                          std::size_t m);

// What the priced previews of one parent share, by class id: the cost of its one e-node (0 for
// literals, as in problem_from_tensor), its own fingerprint (own_fingerprint) and its children
// each once, ascending (`order[order_begin[c] .. order_begin[c + 1]]`); a class of more than one
// e-node is marked by cost NaN. O(classes) cost-model calls. When every class is single, also
// which classes each class reaches (`reach`: `words` bits per class, itself not included), so
// that most cyclic candidates are told from their right-hand sides' inputs, without a walk;
// O(classes^2 / 64) time and memory.
struct ParentPrices {
  std::vector<double> cost;
  std::vector<std::uint64_t> own;
  std::vector<std::uint32_t> order_begin;
  std::vector<egraph::Id> order;
  std::size_t words = 0;             // 0: no reach sets (a class is not single)
  std::vector<std::uint64_t> reach;  // by class, `words` each
  bool reaches(egraph::Id from, egraph::Id to) const {
    return ((reach[from * words + (to >> 6)] >> (to & 63)) & 1) != 0;
  }
};
ParentPrices price_parent(const tensor::TensorEGraph& parent, const tensor::CostModel& model);

struct PricedPreview {
  MatchOutcome outcome = MatchOutcome::kUnchanged;
  double cost = 0;               // kGraph: apply_match's cost (bit for bit)
  GraphFingerprint fingerprint;  // kGraph: graph_fingerprint of apply_match's candidate
};

// preview_match, which also tells kGraph where it can price the candidate without the copy (see
// above), else nullopt. `prices` must be price_parent(parent, model).
std::optional<PricedPreview> preview_match(const tensor::TensorEGraph& parent,
                                           const TensorRewrite& rule,
                                           const egraph::Matches& matches, std::size_t m,
                                           const ParentPrices& prices,
                                           const tensor::CostModel& model);

}  // namespace mctsat::search
