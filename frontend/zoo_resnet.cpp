// The zoo's residual networks, TENSAT's `resnext50` (uwplse/tensat, src/resnext50.rs, after TASO's
// examples/resnext50.py) and `resnet50` (src/resnet50.rs, after TASO's examples/resnet50.py).
// Both are the 3-4-6-3 stack of 16 bottleneck blocks: a 1x1 convolution to
// the block's width, a 3x3 convolution (grouped in ResNeXt, strided in the first block of stages
// 2-4), a 1x1 convolution to the block's output channels, and a residual ewadd + relu; where the
// stride or the channel count changes (the first block of each stage), the shortcut is a strided
// 1x1 convolution. Batch normalization is folded away, as in TENSAT; as there, the two inner
// convolutions and the shortcut convolution carry a fused relu (the standard networks have none on
// the shortcut) and the stride sits on the 3x3 convolution (ResNet "v1.5").
//
// resnext50: 1x3x224x224 image, 7x7/2 convolution + 3x3/2 max pool stem, cardinality 32, widths
//   128-256-512-1024, output channels twice the width; output 1x2048x7x7. Operators: 86, as
//   TENSAT's: 2 stem + 16 x (3 conv + ewadd + relu) + 4 shortcut convolutions.
// resnet50: TENSAT starts from the stem's output, a 1x64x56x56 input (no stem, no classifier);
//   widths 64-128-256-512, output channels four times the width; output 1x2048x7x7. Operators: 84,
//   as TENSAT's: 16 x 5 + 4 shortcut convolutions. (The reference lists no count for it.)
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {
namespace {

using tensor::Activation;
using tensor::GraphBuilder;
using tensor::Padding;
using tensor::TensorRef;

struct Stage {
  int blocks;
  std::int64_t width;   // channels of the inner convolutions
  std::int64_t stride;  // of the stage's first block
};
constexpr Stage kStages[] = {{3, 1, 1}, {4, 2, 2}, {6, 4, 2}, {3, 8, 2}};  // width in base units

struct Bottleneck {
  std::int64_t groups;     // of the 3x3 convolution (1: plain ResNet)
  std::int64_t expansion;  // output channels / width
};

TensorRef bottleneck_block(GraphBuilder& b, const std::string& name, TensorRef x,
                           std::int64_t stride, std::int64_t width, const Bottleneck& kind) {
  const std::int64_t in_channels = b.type_of(x).shape.at(1);
  const std::int64_t out_channels = width * kind.expansion;
  auto conv = [&](const char* which, TensorRef in, tensor::Shape kernel, std::int64_t s,
                  Activation act) {
    return b.conv2d(in, b.weight(fmt::format("{}_{}_w", name, which), std::move(kernel)), s, s,
                    Padding::kSame, act);
  };
  TensorRef t = conv("conv1", x, {width, in_channels, 1, 1}, 1, Activation::kRelu);
  t = conv("conv2", t, {width, width / kind.groups, 3, 3}, stride, Activation::kRelu);
  t = conv("conv3", t, {out_channels, width, 1, 1}, 1, Activation::kNone);
  TensorRef shortcut = x;
  if (stride > 1 || in_channels != out_channels) {
    shortcut = conv("shortcut", x, {out_channels, in_channels, 1, 1}, stride, Activation::kRelu);
  }
  return b.relu(b.ewadd(shortcut, t));
}

// The 16 blocks; `base_width` is the first stage's width.
TensorRef bottleneck_stack(GraphBuilder& b, TensorRef x, std::int64_t base_width,
                           const Bottleneck& kind) {
  for (std::size_t s = 0; s < std::size(kStages); ++s) {
    const Stage& stage = kStages[s];
    for (int block = 0; block < stage.blocks; ++block) {
      const std::int64_t stride = block == 0 ? stage.stride : 1;
      x = bottleneck_block(b, fmt::format("stage{}_block{}", s + 1, block), x, stride,
                           base_width * stage.width, kind);
    }
  }
  return x;
}

}  // namespace

tensor::Graph build_resnext50() {
  GraphBuilder b;
  const TensorRef image = b.input("image", {1, 3, 224, 224});
  const TensorRef stem =
      b.conv2d(image, b.weight("stem_w", {64, 3, 7, 7}), 2, 2, Padding::kSame, Activation::kRelu);
  const TensorRef pooled = b.pool(tensor::Op::kPoolMax, stem, 3, 3, 2, 2, Padding::kSame);
  b.output("features", bottleneck_stack(b, pooled, 128, {.groups = 32, .expansion = 2}));
  return std::move(b).finish();
}

tensor::Graph build_resnet50() {
  GraphBuilder b;
  const TensorRef input = b.input("input", {1, 64, 56, 56});
  b.output("features", bottleneck_stack(b, input, 64, {.groups = 1, .expansion = 4}));
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
