// Tensor e-graphs written in the egraph-serialize format, with their extraction costs.
#include "extract/tensor_export.hpp"

#include <string>

#include "tensor/enode_cost.hpp"
#include "tensor/tensor_language.hpp"

namespace mctsat::extract {

egraph::SerializedEGraph export_tensor_egraph(const tensor::TensorEGraph& teg,
                                              const tensor::CostModel& model) {
  const tensor::TensorGraphEGraph& g = teg.egraph;
  auto literal = [&](egraph::Id node) { return tensor::is_literal(g.node(node).op); };
  return egraph::export_egraph(
      g, teg.roots,
      [&](egraph::Id node) {
        const egraph::ENodeRef e = g.node(node);
        std::string name(tensor::opcode_name(e.op));
        if (e.payload != 0) name += "/" + std::to_string(e.payload);
        return name;
      },
      [&](egraph::Id node) { return literal(node) ? 0.0 : tensor::enode_cost(g, node, model); });
}

}  // namespace mctsat::extract
