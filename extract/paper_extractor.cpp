// The paper's OCF extraction: history maps as sorted vectors of (class, cumulative cost).
#include "extract/paper_extractor.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <span>

#include "extract/acyclic_repair.hpp"
#include "extract/fixpoint.hpp"

namespace mctsat::extract {
namespace {

using History = std::vector<std::pair<Index, double>>;

bool contains(const History& history, Index eclass) {
  const auto it = std::lower_bound(history.begin(), history.end(), eclass,
                                   [](const auto& entry, Index c) { return entry.first < c; });
  return it != history.end() && it->first == eclass;
}

// The largest cumulative cost, in `child`, of a class that is also in `other` (0 if none).
double overlap_with(const History& child, const History& other) {
  double overlap = 0;
  auto a = other.begin();
  for (const auto& [eclass, cost] : child) {
    while (a != other.end() && a->first < eclass) ++a;
    if (a == other.end()) break;
    if (a->first == eclass) overlap = std::max(overlap, cost);
  }
  return overlap;
}

// A node's OCF value, computed without building its history (most evaluations do not improve
// their class, so only the improving ones pay for a merged history, see merged_history). The
// union of the histories counted so far is represented by the list of their children, `counted`.
double node_value(const Problem& problem, const OcfValues& ocf, Index node,
                  std::vector<Index>& counted) {
  const std::span<const Index> children = problem.children(node);
  counted.clear();
  double total = 0;
  auto in_union = [&](Index eclass) {
    return std::any_of(counted.begin(), counted.end(),
                       [&](Index c) { return contains(ocf.history[c], eclass); });
  };
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Index child = children[i];
    if (i > 0) {
      if (in_union(child)) continue;
      double overlap = 0;
      for (Index c : counted) overlap = std::max(overlap, overlap_with(ocf.history[child], ocf.history[c]));
      total += std::max(ocf.value[child] - overlap, 0.0);
    } else {
      total = ocf.value[child];
    }
    counted.push_back(child);
  }
  if (in_union(problem.node_class(node))) return std::numeric_limits<double>::infinity();
  return problem.node_cost(node) + total;
}

// The history of a node that became its class's best: the union of its counted children's
// histories (an entry already present keeps its value) plus the node's class with its value.
void merged_history(const OcfValues& ocf, std::span<const Index> counted, Index eclass,
                    double value, History& out, History& scratch) {
  out.clear();
  for (Index c : counted) {
    const History& child = ocf.history[c];
    scratch.clear();
    std::set_union(out.begin(), out.end(), child.begin(), child.end(),
                   std::back_inserter(scratch),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
    std::swap(out, scratch);
  }
  const auto at = std::lower_bound(out.begin(), out.end(), eclass,
                                   [](const auto& entry, Index c) { return entry.first < c; });
  out.insert(at, {eclass, value});
}

}  // namespace

OcfValues ocf_values(const Problem& problem) {
  OcfValues ocf;
  ocf.history.resize(problem.num_classes());
  fresh_fixpoint_state(problem, ocf.value, ocf.choice);
  std::vector<Index> counted;
  History scratch;
  const FixpointStats stats = bottom_up_fixpoint(
      problem, ocf.value, ocf.choice,
      [&](Index node) { return node_value(problem, ocf, node, counted); },
      [&](Index node, double value) {
        node_value(problem, ocf, node, counted);
        const Index eclass = problem.node_class(node);
        History merged;
        merged_history(ocf, counted, eclass, value, merged, scratch);
        ocf.history[eclass] = std::move(merged);
      });
  ocf.evaluations = stats.evaluations;
  ocf.improvements = stats.improvements;
  return ocf;
}

void PaperExtractor::solve(const Problem& problem, Result& result) const {
  OcfValues ocf = ocf_values(problem);
  result.evaluations = ocf.evaluations;
  result.improvements = ocf.improvements;
  double estimate = 0;
  for (Index root : problem.roots()) estimate += ocf.value[root];
  Choice choice = std::move(ocf.choice);
  repair_choice(problem, choice);
  for (Index root : problem.roots()) {
    if (choice[root] == kNone) {
      result.status = Status::kInfeasible;
      return;
    }
  }
  result.estimate = estimate;
  result.status = Status::kHeuristic;
  result.choice = std::move(choice);
}

}  // namespace mctsat::extract
