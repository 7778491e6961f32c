// Tensor e-graphs as extraction problems, and choices as selections.
#include "extract/tensor_problem.hpp"

#include <unordered_map>

#include "tensor/enode_cost.hpp"
#include "tensor/tensor_language.hpp"

namespace mctsat::extract {

Problem problem_from_tensor(const tensor::TensorEGraph& egraph, const tensor::CostModel& model) {
  const tensor::TensorGraphEGraph& g = egraph.egraph;
  auto literal = [&](Id node) { return tensor::is_literal(g.node(node).op); };
  return problem_from_egraph(
      g, egraph.roots,
      [&](Id node) { return literal(node) ? 0.0 : tensor::enode_cost(g, node, model); }, literal);
}

Problem problem_from_tensor(const tensor::TensorEGraph& egraph, EnodeCostCache& costs) {
  const tensor::TensorGraphEGraph& g = egraph.egraph;
  auto literal = [&](Id node) { return tensor::is_literal(g.node(node).op); };
  // Each class's data hashed once.
  std::vector<std::uint64_t> hashes(g.num_ids(), 0);
  std::vector<std::uint8_t> hashed(g.num_ids(), 0);
  auto class_hash = [&](Id eclass) {
    if (!hashed[eclass]) {
      hashes[eclass] = g.analysis().hash(g.data(eclass));
      hashed[eclass] = 1;
    }
    return hashes[eclass];
  };
  return problem_from_egraph(
      g, egraph.roots,
      [&](Id node) { return literal(node) ? 0.0 : costs.cost(g, node, class_hash); }, literal);
}

tensor::Selection to_selection(const Problem& problem, const Choice& choice,
                               const tensor::TensorEGraph& egraph) {
  MCTSAT_ASSERT(choice.size() == problem.num_classes());
  tensor::Selection selection(egraph.egraph.num_ids(), kNoId);
  for (Index eclass = 0; eclass < problem.num_classes(); ++eclass) {
    if (choice[eclass] == kNone) continue;
    const Id source = problem.class_source(eclass);
    MCTSAT_ASSERT(source != kNoId && source < selection.size());
    selection[source] = problem.node_source(choice[eclass]);
  }
  return selection;
}

Choice choice_from_selection(const Problem& problem, const tensor::Selection& selection) {
  std::unordered_map<Id, Index> node_index;
  for (Index node = 0; node < problem.num_nodes(); ++node)
    node_index.emplace(problem.node_source(node), node);
  Choice choice(problem.num_classes(), kNone);
  for (Index eclass = 0; eclass < problem.num_classes(); ++eclass) {
    const Id source = problem.class_source(eclass);
    if (source == kNoId || source >= selection.size() || selection[source] == kNoId) continue;
    const auto it = node_index.find(selection[source]);
    if (it != node_index.end()) choice[eclass] = it->second;
  }
  return choice;
}

}  // namespace mctsat::extract
