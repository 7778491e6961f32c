// Lowering a graph for ONNX Runtime: subgraphs that ONNX Runtime's own graph optimizer leaves
// unfused are rewritten into the contrib operators (domain com.microsoft) it runs as one kernel,
// as opaque operators the ONNX exporter writes back as they are; and a fusion it makes into a
// kernel it runs slower is avoided by writing its pattern in a form the fusion does not match.
//
// An attention operator (recognised on import from three exporters' forms,
// decomposed_attention.hpp) becomes one com.microsoft.Attention (x [B, S, H], the packed [H, 3*N*h]
// query, key and value weight and [3*N*h] bias, num_heads N, scale) when its q, k and v are three
// projections ewadd(matmul(x, W), b) of one x (W and b weights with values) or the three parts of
// one such projection split along its last axis, each read only by the attention. Its bias is
// expanded to [B, N, S, S] as the attention_bias, unless it is a zero weight (none) or a mask made
// from token flags, (1 - float(flags[B, S])) * c with a finite c, which passes the flags (taken to
// be 0 or 1, as tokenizers write them: not checked) as int32 mask_index with mask_filter_value c
// (an infinite or NaN c stays an additive mask); causal attention sets unidirectional. Any other
// attention is exported as its decomposition (onnx_export.hpp). ONNX Runtime 1.20 fuses no
// exporter's attention itself (its matcher wants opset-12 operator versions, (0, 0, N, h) reshape
// shapes and a -10000 mask, and has no nn.MultiheadAttention pattern); as Attention they run 2-9%
// faster (bench/results/2026-12-05-ort-fusion-gaps). A residual sum of two [B, S, H] tensors that
// only a layernorm reads (post-LN blocks) is written as the sum of [B*S, H] views of its operands,
// viewed back as [B, S, H]. ONNX Runtime fuses such a sum of rank-3 tensors and its layer norm into
// com.microsoft.SkipLayerNormalization, which 1.30 runs about 5x slower than the sum and the
// LayerNormalization it runs otherwise (0.44 against 0.08-0.09 ms at [1, 128, 768] on the 2-core
// VM, bench/results/2026-12-06-flat-residual-sums); its fusion wants rank-3 operands. A sum the
// next residual also reads (pre-LN blocks) is one ONNX Runtime does not fuse, and is left.
//
// The lowered graph is for the ONNX export only: mctsat's interpreter and executors do not run
// contrib operators (ONNX Runtime checks the output: the never-slower guard, the corpus tests).
#pragma once

#include <cstddef>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

struct OnnxRuntimeLowering {
  tensor::Graph graph;              // validated; the input graph when nothing matched
  std::size_t attention = 0;        // attention operators written as com.microsoft.Attention
  std::size_t flat_sums = 0;        // residual sums before a layer norm, written flat
};

// Expects a validated graph.
OnnxRuntimeLowering lower_for_onnxruntime(const tensor::Graph& graph);

}  // namespace mctsat::frontend
