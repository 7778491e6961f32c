// Builders of the built-in models.
#include "frontend/zoo.hpp"

#include <fmt/format.h>

#include "tensor/graph_builder.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Activation;
using tensor::GraphBuilder;
using tensor::Padding;
using tensor::TensorRef;

// A small two-branch graph: a 3x3 convolution followed by a separate relu (fusable), two 1x1
// convolutions sharing their input (mergeable into one wider convolution), and two matrix
// products sharing their input (mergeable into one wider product).
tensor::Graph build_demo() {
  GraphBuilder b;
  const TensorRef image = b.input("image", {1, 64, 56, 56});
  const TensorRef c1 =
      b.relu(b.conv2d(image, b.weight("conv1_w", {64, 64, 3, 3}), 1, 1, Padding::kSame));
  const TensorRef left =
      b.conv2d(c1, b.weight("conv2_w", {64, 64, 1, 1}), 1, 1, Padding::kSame, Activation::kRelu);
  const TensorRef right =
      b.conv2d(c1, b.weight("conv3_w", {64, 64, 1, 1}), 1, 1, Padding::kSame, Activation::kRelu);
  b.output("features", b.ewadd(left, right));

  const TensorRef tokens = b.input("tokens", {64, 512});
  const TensorRef a = b.matmul(tokens, b.weight("proj_a", {512, 512}));
  const TensorRef c = b.matmul(tokens, b.weight("proj_b", {512, 512}));
  b.output("mixed", b.ewadd(b.relu(a), b.tanh(c)));
  return std::move(b).finish();
}

// TENSAT's BERT benchmark: a 64x1024 input through a relu and 8 attention layers (Q, K, V
// projections, 16 heads of 64, two batched products, output projection); every layer's output is
// a graph output (TENSAT joins them with noop). 113 operators.
tensor::Graph build_bert() {
  constexpr int kLayers = 8;
  constexpr std::int64_t kTokens = 64, kHidden = 1024, kHeads = 16, kHeadSize = 64;
  GraphBuilder b;
  TensorRef x = b.relu(b.input("input", {kTokens, kHidden}));
  for (int layer = 0; layer < kLayers; ++layer) {
    auto heads = [&](const char* which) {
      const TensorRef w = b.weight(fmt::format("layer{}_w{}", layer, which), {kHidden, kHidden});
      return b.transpose(b.reshape(b.matmul(x, w), {kTokens, kHeads, kHeadSize}), {1, 0, 2});
    };
    const TensorRef q = heads("q"), k = heads("k"), v = heads("v");
    const TensorRef attention = b.matmul(b.matmul(q, k), v);
    const TensorRef merged = b.reshape(b.transpose(attention, {1, 0, 2}), {kTokens, kHidden});
    x = b.matmul(merged, b.weight(fmt::format("layer{}_wo", layer), {kHidden, kHidden}));
    b.output(fmt::format("layer{}", layer), x);
  }
  return std::move(b).finish();
}

struct Builder {
  ZooEntry entry;
  tensor::Graph (*build)();
};

const Builder kBuilders[] = {
    {{"demo", "small two-branch example: fusable relu, mergeable 1x1 convolutions and matmuls"},
     build_demo},
    {{"bert", "TENSAT's BERT: 8 attention layers, 64 tokens, hidden 1024, 16 heads"}, build_bert},
};

}  // namespace

std::vector<ZooEntry> zoo_models() {
  std::vector<ZooEntry> entries;
  for (const Builder& builder : kBuilders) entries.push_back(builder.entry);
  return entries;
}

std::optional<tensor::Graph> build_zoo_model(std::string_view name) {
  for (const Builder& builder : kBuilders) {
    if (builder.entry.name == name) return builder.build();
  }
  return std::nullopt;
}

}  // namespace mctsat::frontend
