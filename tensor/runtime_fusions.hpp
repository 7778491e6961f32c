// A graph priced as a runtime runs it. A runtime with its own graph optimizer does not run every
// operator it is given: ONNX Runtime on a CPU runs a convolution's bias add, residual add and
// activation inside the convolution's kernel, and copies data where a layout it chose meets an
// operator that cannot read it. Summing operator costs one by one then rewards rewrites that
// undo such fusions (a relu moved behind a concat is one operator fewer, but no longer fused). The
// as-run cost prices what the runtime runs: fused operators cost nothing, and each copy it inserts
// costs what the cost model charges to read and write that tensor once.
//
// ONNX Runtime's CPU fusions modelled (level "all"; bench/results/2026-12-05-ort-fusion-gaps):
//   - after a conv2d without a fused activation whose output nothing else reads: an add or
//     multiply by a per-channel weight (bias, scale; folded into the kernel), one add of a tensor
//     of the output's shape (the residual sum of its blocked-layout convolution), then one relu,
//     sigmoid, tanh or clip;
//   - after a rank-2 matmul without a fused activation: an add of a weight along the last axis
//     (a Gemm's bias), then one relu, sigmoid, tanh or clip; after a product of higher rank by a
//     rank-2 matrix, its bias only (ONNX Runtime's MatMulAddFusion runs it as a Gemm between
//     reshapes), unless it reads an attention's result (a projection its attention fusion keeps);
//   - Split copies its input; a split reading a convolution's output first copies it out of the
//     blocked layout, and each of its outputs a conv2d reads is copied back into it;
//   - layernorm and gelu run as one kernel each, as the operators they are (the ONNX importer
//     recognises exporters' decompositions of them, frontend/decomposed_operators.hpp; the
//     exporter writes the forms ONNX Runtime fuses back);
//   - an attention operator (recognised on import, frontend/decomposed_attention.hpp) runs as the
//     decomposition the standard export writes, which ONNX Runtime leaves unfused: its transposes,
//     products, scale, bias and softmax, each priced by the model; its com.microsoft.Attention
//     (what `--onnx-ops onnxruntime` writes for an attention and its projections; an opaque
//     operator, which cost models price as data movement) costs its three matrix products: the
//     packed projection, the scores and the context.
// ONNX Runtime also removes what no graph output needs (a lowered graph keeps the operators it
// replaced). Deterministic; the operators' own costs come from the cost model.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::tensor {

// The opaque operator type of ONNX Runtime's Attention, as the ONNX Runtime lowering
// (frontend/onnxruntime_lowering.hpp) writes it.
inline constexpr std::string_view kOnnxRuntimeAttention = "com.microsoft.Attention";

struct AsRunPlan {
  std::vector<bool> fused;         // per node: runs inside the kernel of the operator it reads
  std::vector<bool> dropped;       // per node: no graph output needs it (the runtime removes it)
  std::vector<TensorType> copies;  // the data copies the runtime adds, one entry per copy
};

// What `runtime` fuses and copies in a validated graph.
AsRunPlan as_run_plan(const Graph& graph, RuntimeFusions runtime);

struct AsRunCosts {
  std::vector<NodeCost> nodes;  // node_costs, with 0 for the fused and dropped operators
  std::size_t fused = 0;        // operators fused
  double copies_ms = 0;         // the copies: one model.cost of a relu over each copied tensor
  double total_ms = 0;          // the nodes' sum plus copies_ms
};

// The graph's costs as model.runtime_fusions() runs it. For a model of RuntimeFusions::kNone:
// node_costs, no copies, graph_cost.
AsRunCosts as_run_costs(const Graph& graph, const CostModel& model);
double as_run_cost(const Graph& graph, const CostModel& model);  // as_run_costs(..).total_ms

// `base`'s operator costs, for graphs run by `runtime`. Named "<base name> as <runtime> runs it".
class FusingCostModel final : public CostModel {
 public:
  FusingCostModel(std::shared_ptr<const CostModel> base, RuntimeFusions runtime);
  double cost(const OpInstance& instance) const override { return base_->cost(instance); }
  std::string name() const override;
  RuntimeFusions runtime_fusions() const override { return runtime_; }

 private:
  std::shared_ptr<const CostModel> base_;
  RuntimeFusions runtime_;
};

}  // namespace mctsat::tensor
