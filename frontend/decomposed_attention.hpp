// Self-attention as exporters decompose it, recognised on import and replaced by the catalog's
// `attention heads causal scale q k v bias`, so that the search sees one operator per attention
// (its projections stay matrix products the rules can merge), the cost models price it as one
// kernel, and the ONNX Runtime lowering writes it as com.microsoft.Attention whatever the search
// did to the projections (onnxruntime_lowering.hpp). Three exporters' forms:
//
// - Hugging Face-style (and GPT-2's): q, k and v [B, S, N*h], each reshaped to [B, S, N, h] and
//   transposed (k to [B, N, h, S]), the scores q k^T divided by a constant (or multiplied by one),
//   then optionally plus an additive mask (rank <= 4, broadcasting to [B, N, S, S]: the bias) or
//   GPT-2's causal where(lower-triangular ones, scores, fill <= -1e4) (causal), softmax over the
//   last axis (a dropout may follow), times the values, transposed back and reshaped to [B, S,
//   N*h].
// - torch.nn.MultiheadAttention (its [S, B, E] layout): x [B, S, E] transposed to [S, B, E], one
//   packed projection ewadd(matmul(., W [E, 3E]), b [3E]) sliced into query, key and value, each
//   reshaped to [S, B*N, h] and transposed (key to [B*N, h, S]), the query divided by a constant,
//   softmax, times the values, transposed back and reshaped to [S*B, E]. The projection is
//   rewritten batch-major, ewadd(matmul(x, W), b) [B, S, 3E] split into q, k and v, and the
//   attention's [B, S, E] result is transposed (for B > 1) and reshaped to what the block's
//   readers read.
// - torchvision's Swin Transformer window attention: a packed projection P [B, S, 3C] reshaped to
//   [B, S, 3, N, h] and transposed to [3, B, N, S, h], query, key and value gathered from it (P
//   split into q, k and v), the query times a constant, the scores plus the relative position bias
//   (a weight: the bias), for shifted windows viewed as [B / nW, nW, N, S, S] plus the shift mask
//   (a weight) and viewed back (the two summed into one [B, N, S, S] weight), softmax (a dropout
//   may follow), times the values, transposed back and reshaped to [B, S, C].
//
// The scale is the reciprocal of the divisor (or the factor); a block without a mask gets a
// [1, 1, 1, 1] zero bias. Every intermediate tensor of a match must be read only inside it and be
// no graph output; the block's last node keeps its name. Anything else is left as it was.
#pragma once

#include <cstddef>

#include "tensor/graph.hpp"

namespace mctsat::frontend {

struct RecognisedAttention {
  tensor::Graph graph;  // validated, weights folded, unread nodes dropped
  std::size_t attentions = 0;
};

// Expects a validated graph whose weight-only subgraphs are folded (constants are weights).
RecognisedAttention recognise_attention(const tensor::Graph& graph);

}  // namespace mctsat::frontend
