// The zoo's `demo`: a small two-branch graph with the patterns the TASO rules rewrite. Not a
// benchmark; it exists to show an optimization in a second.
#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {

using tensor::Activation;
using tensor::GraphBuilder;
using tensor::Padding;
using tensor::TensorRef;

// A 3x3 convolution followed by a separate relu (fusable), two 1x1 convolutions sharing their
// input (mergeable into one wider convolution), and two matrix products sharing their input
// (mergeable into one wider product).
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
  const TensorRef relu = b.relu(a);  // sequenced: node order must not depend on the compiler
  const TensorRef tanh = b.tanh(c);
  b.output("mixed", b.ewadd(relu, tanh));
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
