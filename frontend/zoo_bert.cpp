// The zoo's `bert`: TENSAT's BERT benchmark (uwplse/tensat, src/bert.rs).
// A 64x1024 input through a relu and 8 attention layers: Q, K, V projections
// (1024x1024), 16 heads of 64 (reshape + transpose), two batched products (logits = Q.K, out =
// logits.V), heads merged back and an output projection that feeds the next layer. Every layer's
// output is a graph output (TENSAT joins them with noop; our e-graph conversion adds the noops).
// `bert-L` (zoo.hpp's generated models) stacks L such layers.
// 113 operators, as TENSAT's: 1 relu + 8 x (6 matmul + 4 reshape + 4 transpose).
#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {

using tensor::GraphBuilder;
using tensor::TensorRef;

tensor::Graph build_bert(int layers) {
  return build_bert(BertSizes{.layers = layers});
}

tensor::Graph build_bert(const BertSizes& sizes) {
  const std::int64_t tokens = sizes.tokens, hidden = sizes.heads * sizes.head_size;
  GraphBuilder b;
  TensorRef x = b.relu(b.input("input", {tokens, hidden}));
  for (int layer = 0; layer < sizes.layers; ++layer) {
    auto heads = [&](const char* which) {
      const TensorRef w = b.weight(fmt::format("layer{}_w{}", layer, which), {hidden, hidden});
      return b.transpose(b.reshape(b.matmul(x, w), {tokens, sizes.heads, sizes.head_size}),
                         {1, 0, 2});
    };
    const TensorRef q = heads("q"), k = heads("k"), v = heads("v");
    const TensorRef attention = b.matmul(b.matmul(q, k), v);
    const TensorRef merged = b.reshape(b.transpose(attention, {1, 0, 2}), {tokens, hidden});
    x = b.matmul(merged, b.weight(fmt::format("layer{}_wo", layer), {hidden, hidden}));
    b.output(fmt::format("layer{}", layer), x);
  }
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
