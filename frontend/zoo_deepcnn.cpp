// The zoo's generated `deepcnn-N`: a deep convolutional network of N residual bottleneck blocks at
// a constant 256 channels on a 1x256x14x14 feature map (ResNet-50's third stage, repeated): a 1x1
// convolution to 64 channels and a 3x3 one, both with a fused relu, a 1x1 convolution back to 256
// channels, and the residual ewadd + relu. 5 operators per block, so deepcnn-193 has 965. A model
// for studies of how the search scales with depth (zoo.hpp).
#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {

tensor::Graph build_deepcnn(int blocks) {
  using tensor::Activation;
  using tensor::Padding;
  using tensor::TensorRef;
  constexpr std::int64_t kChannels = 256, kWidth = 64, kSide = 14;
  tensor::GraphBuilder b;
  TensorRef x = b.input("features", {1, kChannels, kSide, kSide});
  for (int block = 0; block < blocks; ++block) {
    const auto weight = [&](const char* which, std::int64_t out, std::int64_t in, std::int64_t k) {
      return b.weight(fmt::format("block{}_{}", block, which), {out, in, k, k});
    };
    const TensorRef reduce = b.conv2d(x, weight("reduce", kWidth, kChannels, 1), 1, 1,
                                      Padding::kSame, Activation::kRelu);
    const TensorRef inner = b.conv2d(reduce, weight("inner", kWidth, kWidth, 3), 1, 1,
                                     Padding::kSame, Activation::kRelu);
    const TensorRef expand =
        b.conv2d(inner, weight("expand", kChannels, kWidth, 1), 1, 1, Padding::kSame);
    x = b.relu(b.ewadd(expand, x));
  }
  b.output("features_out", x);
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
