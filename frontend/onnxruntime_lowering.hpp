// Lowering a graph for ONNX Runtime: subgraphs that ONNX Runtime's own graph optimizer leaves
// unfused are rewritten into the contrib operators (domain com.microsoft) it runs as one kernel,
// as opaque operators the ONNX exporter writes back as they are; and a fusion it makes into a
// kernel it runs slower is avoided by writing its pattern in a form the fusion does not match.
//
// Self-attention becomes one com.microsoft.Attention (x [B, S, H], the packed [H, 3*N*h] query,
// key and value weight and [3*N*h] bias, num_heads N), in three exporters' forms:
// - Hugging Face-style: three projections of x (`ewadd(matmul(x, W), b)`, W and b weights with
//   values), each reshaped to [B, S, N, h] and transposed (key to [B, N, h, S]), the scores divided
//   by sqrt(h), plus an optional mask, softmax over the last axis, times the values, transposed
//   back and reshaped to [B, S, N*h]. An additive float mask is expanded to [B, N, S, S] as the
//   attention_bias; one made from token flags, (1 - float(flags[B, S])) * c with a finite c,
//   passes the flags (taken to be 0 or 1, as tokenizers write them: not checked) as int32
//   mask_index with mask_filter_value c (an infinite or NaN c stays an additive mask); GPT-2's
//   causal where(lower-triangular ones, scores, fill <= -1e4) sets unidirectional.
// - torch.nn.MultiheadAttention: x transposed to [S, B, E], one packed projection sliced into
//   query, key and value, reshaped to [S, B*N, h], the query divided by sqrt(h), ..., reshaped
//   back to [S*B, E] (the attention's [B, S, E] transposed to [S, B, E] and reshaped to it).
// - torchvision's Swin Transformer window attention: windows x [B, S, C], one packed projection
//   reshaped to [B, S, 3, N, h] and transposed to [3, B, N, S, h], query, key and value gathered
//   from it, the query times 1/sqrt(h), the scores plus the relative position bias (a weight, the
//   attention_bias), softmax (a dropout may follow), times the values, transposed back and
//   reshaped to [B, S, C]. Shifted windows add their shift mask (a weight) to the scores viewed as
//   [B / nW, nW, N, S, S]; the bias and each window's mask are summed into one [B, N, S, S]
//   attention_bias.
// A residual sum of two [B, S, H] tensors that only a layernorm reads (post-LN blocks) is written
// as the sum of [B*S, H] views of its operands, viewed back as [B, S, H]. ONNX Runtime fuses such a
// sum of rank-3 tensors and its layer norm into com.microsoft.SkipLayerNormalization, which 1.30
// runs about 5x slower than the sum and the LayerNormalization it runs otherwise (0.44 against
// 0.08-0.09 ms at [1, 128, 768] on the 2-core VM, bench/results/2026-12-06-flat-residual-sums); its
// fusion wants rank-3 operands. A sum the next residual also reads (pre-LN blocks) is one ONNX
// Runtime does not fuse, and is left. ONNX Runtime 1.20 fuses neither attention form itself (its
// matcher wants opset-12 operator versions, (0, 0, N, h) reshape shapes and a -10000 mask, and has
// no nn.MultiheadAttention pattern); written this way they run 2-9% faster
// (bench/results/2026-12-05-ort-fusion-gaps). Every intermediate tensor of a matched block must be
// read only inside it; the scale must be 1 / sqrt(h).
//
// The lowered graph is for the ONNX export only: mctsat's interpreter and executors do not run
// contrib operators (ONNX Runtime checks the output: the never-slower guard, the corpus tests).
#pragma once

#include <cstddef>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

struct OnnxRuntimeLowering {
  tensor::Graph graph;              // validated; the input graph when nothing matched
  std::size_t attention = 0;        // self-attention blocks written as com.microsoft.Attention
  std::size_t flat_sums = 0;        // residual sums before a layer norm, written flat
};

// Expects a validated graph.
OnnxRuntimeLowering lower_for_onnxruntime(const tensor::Graph& graph);

}  // namespace mctsat::frontend
