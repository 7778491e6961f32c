// The zoo's classic CNNs that TENSAT benchmarks from TASO's .model exports: VGG-19, SqueezeNet
// (v1.1) and MobileNet-v2, rebuilt from their published architectures in the layout of those
// exports (operator for operator: the same operators, attributes and shapes; tests compare them
// with TENSAT's .model exports vendored in tests/data/tensat/model/). Weights carry no values.
#include <string>

#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {

using tensor::GraphBuilder;
using tensor::Op;
using tensor::Padding;
using tensor::TensorRef;

namespace {

// A convolution with a fresh weight of `out` x (in / groups) x k x k.
TensorRef conv(GraphBuilder& b, TensorRef x, std::int64_t out, std::int64_t k, std::int64_t stride,
               Padding pad, const std::string& name, std::int64_t groups = 1) {
  const std::int64_t in = b.type_of(x).shape[1];
  return b.conv2d(x, b.weight(name + "_w", {out, in / groups, k, k}), stride, stride, pad);
}

// A fully connected layer as TASO writes it: reshape to [1, n], the product with the transposed
// out x n weight (a weight-only transpose).
TensorRef dense(GraphBuilder& b, TensorRef x, std::int64_t out, const std::string& name) {
  const std::int64_t n = tensor::numel(b.type_of(x).shape);
  const TensorRef flat = b.reshape(x, {1, n});
  return b.matmul(flat, b.transpose(b.weight(name + "_w", {out, n}), {1, 0}));
}

TensorRef batchnorm(GraphBuilder& b, TensorRef x, const std::string& name) {
  const std::int64_t c = b.type_of(x).shape[1];
  return b.batchnorm(x, b.weight(name + "_scale", {c}), b.weight(name + "_bias", {c}),
                     b.weight(name + "_mean", {c}), b.weight(name + "_var", {c}));
}

}  // namespace

// VGG-19: 16 SAME 3x3 convolutions with relu in five stages (64, 128, 256, 512, 512 channels;
// 2, 2, 4, 4, 4 convolutions), each stage closed by 2x2 max pooling, then three fully connected
// layers (4096, 4096, 1000; relu and dropout after the first two). 50 operators.
tensor::Graph build_vgg19() {
  GraphBuilder b;
  TensorRef x = b.input("image", {1, 3, 224, 224});
  const std::int64_t channels[] = {64, 128, 256, 512, 512}, convs[] = {2, 2, 4, 4, 4};
  for (int stage = 0; stage < 5; ++stage) {
    for (int i = 0; i < convs[stage]; ++i)
      x = b.relu(conv(b, x, channels[stage], 3, 1, Padding::kSame,
                      fmt::format("conv{}_{}", stage + 1, i + 1)));
    x = b.pool(Op::kPoolMax, x, 2, 2, 2, 2, Padding::kValid);
  }
  x = b.add1(Op::kDropout, {b.relu(dense(b, x, 4096, "fc6"))}, {});
  x = b.add1(Op::kDropout, {b.relu(dense(b, x, 4096, "fc7"))}, {});
  b.output("logits", dense(b, x, 1000, "fc8"));
  return std::move(b).finish();
}

// SqueezeNet v1.1: a VALID 3x3 stride-2 convolution, eight fire modules (squeeze 1x1, then
// expand 1x1 and 3x3 concatenated, all with relu) with VALID 3x3 stride-2 max pooling after the
// stem and fires 2 and 4, dropout, a 1x1 convolution to 1000 classes with relu, 13x13 average
// pooling and a reshape. 66 operators.
tensor::Graph build_squeezenet() {
  GraphBuilder b;
  TensorRef x = b.input("image", {1, 3, 224, 224});
  x = b.relu(conv(b, x, 64, 3, 2, Padding::kValid, "conv1"));
  x = b.pool(Op::kPoolMax, x, 3, 3, 2, 2, Padding::kValid);
  const std::int64_t squeeze[] = {16, 16, 32, 32, 48, 48, 64, 64};
  for (int i = 0; i < 8; ++i) {
    const std::string name = fmt::format("fire{}", i + 2);
    const TensorRef s = b.relu(conv(b, x, squeeze[i], 1, 1, Padding::kSame, name + "_squeeze"));
    const TensorRef e1 =
        b.relu(conv(b, s, 4 * squeeze[i], 1, 1, Padding::kSame, name + "_expand1x1"));
    const TensorRef e3 =
        b.relu(conv(b, s, 4 * squeeze[i], 3, 1, Padding::kSame, name + "_expand3x3"));
    x = b.concat(1, {e1, e3});
    if (i == 1 || i == 3) x = b.pool(Op::kPoolMax, x, 3, 3, 2, 2, Padding::kValid);
  }
  x = b.add1(Op::kDropout, {x}, {});
  x = b.relu(conv(b, x, 1000, 1, 1, Padding::kSame, "conv10"));
  x = b.pool(Op::kPoolAvg, x, 13, 13, 13, 13, Padding::kValid);
  b.output("logits", b.reshape(x, {1, 1000}));
  return std::move(b).finish();
}

// MobileNet-v2 as in TASO's export: a 3x3 stride-2 stem (32) padded as TASO pads (SAME_LOWER), 17
// inverted residual blocks (expand 1x1, depthwise 3x3, project 1x1, each with batch normalization,
// relu after the first two; a residual add where shapes allow), a 1x1 convolution to 1280, 7x7
// average pooling, a 1x1 convolution to 1000 classes and a reshape. TASO's file expands the first
// block too (32 -> 32) and places the stride-2 blocks at the stages of 24, 32, 96 and 160 channels.
// 155 operators.
tensor::Graph build_mobilenetv2() {
  struct Stage {
    std::int64_t expansion, channels, blocks, stride;
  };
  const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 1},
                          {6, 96, 3, 2}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  GraphBuilder b;
  TensorRef x = b.input("image", {1, 3, 224, 224});
  x = b.relu(batchnorm(b, conv(b, x, 32, 3, 2, Padding::kSameLower, "stem"), "stem_bn"));
  int block = 0;
  for (const Stage& stage : stages) {
    for (std::int64_t i = 0; i < stage.blocks; ++i, ++block) {
      const std::string name = fmt::format("block{}", block);
      const std::int64_t in = b.type_of(x).shape[1], hidden = in * stage.expansion;
      const std::int64_t stride = i == 0 ? stage.stride : 1;
      TensorRef y = b.relu(
          batchnorm(b, conv(b, x, hidden, 1, 1, Padding::kSame, name + "_expand"), name + "_bn1"));
      y = b.relu(batchnorm(
          b,
          conv(b, y, hidden, 3, stride, stride == 2 ? Padding::kSameLower : Padding::kSame,
               name + "_depthwise", hidden),
          name + "_bn2"));
      y = batchnorm(b, conv(b, y, stage.channels, 1, 1, Padding::kSame, name + "_project"),
                    name + "_bn3");
      x = stride == 1 && in == stage.channels ? b.ewadd(y, x) : y;
    }
  }
  x = b.relu(batchnorm(b, conv(b, x, 1280, 1, 1, Padding::kSame, "head"), "head_bn"));
  x = b.pool(Op::kPoolAvg, x, 7, 7, 1, 1, Padding::kValid);
  x = conv(b, x, 1000, 1, 1, Padding::kSame, "classifier");
  b.output("logits", b.reshape(x, {1, 1000}));
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
