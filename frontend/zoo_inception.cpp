// The zoo's Inception-v3, the fourth CNN TENSAT benchmarks from a TASO .model export, rebuilt from
// the published architecture (Szegedy et al., "Rethinking the Inception Architecture", 2016) in
// the layout of that export: every convolution carries its relu as the fused activation, the
// branches of a module are joined by concatenations in the export's grouping, and the pooling
// kinds are the export's (average pooling in the first reduction, max pooling in the last two
// modules' pooling branches). Tests compare it with TENSAT's export
// (tests/data/tensat/model/inceptionv3.model). Weights carry no values.
#include <string>

#include <fmt/format.h>

#include "frontend/zoo_builders.hpp"
#include "tensor/graph_builder.hpp"

namespace mctsat::frontend::zoo {

using tensor::Activation;
using tensor::GraphBuilder;
using tensor::Op;
using tensor::Padding;
using tensor::TensorRef;

namespace {

// A kernel_h x kernel_w convolution with relu and a fresh out x in x kernel_h x kernel_w weight.
TensorRef conv(GraphBuilder& b, TensorRef x, std::int64_t out, std::int64_t kernel_h,
               std::int64_t kernel_w, std::int64_t stride, Padding pad, const std::string& name) {
  const std::int64_t in = b.type_of(x).shape[1];
  return b.conv2d(x, b.weight(name + "_w", {out, in, kernel_h, kernel_w}), stride, stride, pad,
                  Activation::kRelu);
}

// A SAME 1x1 or square convolution with stride 1 and relu.
TensorRef conv(GraphBuilder& b, TensorRef x, std::int64_t out, std::int64_t kernel,
               const std::string& name) {
  return conv(b, x, out, kernel, kernel, 1, Padding::kSame, name);
}

TensorRef pool3x3(GraphBuilder& b, Op op, TensorRef x, std::int64_t stride, Padding pad,
                  Activation act = Activation::kNone) {
  return b.pool(op, x, 3, 3, stride, stride, pad, act);
}

// 35x35 module (torchvision's InceptionA): 1x1; 1x1 -> 5x5; 1x1 -> 3x3 -> 3x3; 3x3 average
// pooling (with relu, as exported) -> 1x1 with `pool_channels`.
TensorRef module_a(GraphBuilder& b, TensorRef x, std::int64_t pool_channels,
                   const std::string& name) {
  const TensorRef b1 = conv(b, x, 64, 1, name + "_1x1");
  const TensorRef b5 = conv(b, conv(b, x, 48, 1, name + "_5x5a"), 64, 5, name + "_5x5b");
  TensorRef b3 = conv(b, x, 64, 1, name + "_3x3a");
  b3 = conv(b, conv(b, b3, 96, 3, name + "_3x3b"), 96, 3, name + "_3x3c");
  const TensorRef pool = conv(b, pool3x3(b, Op::kPoolAvg, x, 1, Padding::kSame, Activation::kRelu),
                              pool_channels, 1, name + "_pool");
  return b.concat(1, {b.concat(1, {b1, b5}), b.concat(1, {b3, pool})});
}

// 35x35 -> 17x17 reduction (InceptionB): VALID stride-2 3x3; 1x1 -> 3x3 -> VALID stride-2 3x3;
// VALID stride-2 3x3 average pooling.
TensorRef reduction_a(GraphBuilder& b, TensorRef x, const std::string& name) {
  const TensorRef b3 = conv(b, x, 384, 3, 3, 2, Padding::kValid, name + "_3x3");
  TensorRef dbl = conv(b, conv(b, x, 64, 1, name + "_dbl_a"), 96, 3, name + "_dbl_b");
  dbl = conv(b, dbl, 96, 3, 3, 2, Padding::kValid, name + "_dbl_c");
  const TensorRef pool = pool3x3(b, Op::kPoolAvg, x, 2, Padding::kValid);
  return b.concat(1, {pool, b.concat(1, {b3, dbl})});
}

// 17x17 module (InceptionC) with `c7` channels inside its factorized 7x7 branches: 1x1;
// 1x1 -> 1x7 -> 7x1; 1x1 -> 7x1 -> 1x7 -> 7x1 -> 1x7; 3x3 average pooling (relu) -> 1x1.
TensorRef module_c(GraphBuilder& b, TensorRef x, std::int64_t c7, const std::string& name) {
  const TensorRef b1 = conv(b, x, 192, 1, name + "_1x1");
  TensorRef b7 = conv(b, x, c7, 1, name + "_7a");
  b7 = conv(b, b7, c7, 1, 7, 1, Padding::kSame, name + "_7b");
  b7 = conv(b, b7, 192, 7, 1, 1, Padding::kSame, name + "_7c");
  TensorRef dbl = conv(b, x, c7, 1, name + "_dbl_a");
  dbl = conv(b, dbl, c7, 7, 1, 1, Padding::kSame, name + "_dbl_b");
  dbl = conv(b, dbl, c7, 1, 7, 1, Padding::kSame, name + "_dbl_c");
  dbl = conv(b, dbl, c7, 7, 1, 1, Padding::kSame, name + "_dbl_d");
  dbl = conv(b, dbl, 192, 1, 7, 1, Padding::kSame, name + "_dbl_e");
  const TensorRef pool = conv(b, pool3x3(b, Op::kPoolAvg, x, 1, Padding::kSame, Activation::kRelu),
                              192, 1, name + "_pool");
  return b.concat(1, {b.concat(1, {b1, b7}), b.concat(1, {dbl, pool})});
}

// 17x17 -> 8x8 reduction (InceptionD): 1x1 -> VALID stride-2 3x3 (320); 1x1 -> 1x7 -> 7x1 ->
// VALID stride-2 3x3 (192); VALID stride-2 3x3 max pooling; one concatenation of the three.
TensorRef reduction_b(GraphBuilder& b, TensorRef x, const std::string& name) {
  const TensorRef b3 =
      conv(b, conv(b, x, 192, 1, name + "_3x3a"), 320, 3, 3, 2, Padding::kValid, name + "_3x3b");
  TensorRef b7 = conv(b, x, 192, 1, name + "_7a");
  b7 = conv(b, b7, 192, 1, 7, 1, Padding::kSame, name + "_7b");
  b7 = conv(b, b7, 192, 7, 1, 1, Padding::kSame, name + "_7c");
  b7 = conv(b, b7, 192, 3, 3, 2, Padding::kValid, name + "_7d");
  return b.concat(1, {b3, b7, pool3x3(b, Op::kPoolMax, x, 2, Padding::kValid)});
}

// 8x8 module (InceptionE): 1x1 (320); 1x1 (384) -> 1x3 and 3x1 side by side; 1x1 (448) -> 3x3
// (384) -> 1x3 and 3x1 side by side; SAME 3x3 max pooling -> 1x1 (192); one concatenation.
TensorRef module_e(GraphBuilder& b, TensorRef x, const std::string& name) {
  // The two factorized halves of a 3x3, each 384 channels, joined.
  auto split_3x3 = [&](TensorRef y, const std::string& prefix) {
    return b.concat(1, {conv(b, y, 384, 1, 3, 1, Padding::kSame, prefix + "_1x3"),
                        conv(b, y, 384, 3, 1, 1, Padding::kSame, prefix + "_3x1")});
  };
  const TensorRef b1 = conv(b, x, 320, 1, name + "_1x1");
  const TensorRef b3 = split_3x3(conv(b, x, 384, 1, name + "_3x3a"), name + "_3x3");
  const TensorRef dbl = split_3x3(
      conv(b, conv(b, x, 448, 1, name + "_dbl_a"), 384, 3, name + "_dbl_b"), name + "_dbl");
  const TensorRef pool =
      conv(b, pool3x3(b, Op::kPoolMax, x, 1, Padding::kSame), 192, 1, name + "_pool");
  return b.concat(1, {b1, b3, dbl, pool});
}

}  // namespace

// Inception-v3 on a 299x299 image: a stem of five convolutions (VALID stride-2 3x3 to 32, VALID
// 3x3 to 32, SAME 3x3 to 64, 1x1 to 80, VALID 3x3 to 192) with two VALID stride-2 3x3 max poolings,
// three 35x35 modules (pooling branches of 32, 64, 64), a reduction to 17x17, four 17x17 modules
// (128, 160, 160, 192 channels in the 7x7 branches), a reduction to 8x8, two 8x8 modules and 8x8
// average pooling to 1 x 2048 x 1 x 1 (the export stops there). 138 operators.
tensor::Graph build_inceptionv3() {
  GraphBuilder b;
  TensorRef x = b.input("image", {1, 3, 299, 299});
  x = conv(b, x, 32, 3, 3, 2, Padding::kValid, "stem1");
  x = conv(b, x, 32, 3, 3, 1, Padding::kValid, "stem2");
  x = conv(b, x, 64, 3, "stem3");
  x = pool3x3(b, Op::kPoolMax, x, 2, Padding::kValid);
  x = conv(b, x, 80, 1, 1, 1, Padding::kValid, "stem4");
  x = conv(b, x, 192, 3, 3, 1, Padding::kValid, "stem5");
  x = pool3x3(b, Op::kPoolMax, x, 2, Padding::kValid);
  const std::int64_t pool_channels[] = {32, 64, 64};
  for (int i = 0; i < 3; ++i) x = module_a(b, x, pool_channels[i], fmt::format("mixed{}", i));
  x = reduction_a(b, x, "mixed3");
  const std::int64_t c7[] = {128, 160, 160, 192};
  for (int i = 0; i < 4; ++i) x = module_c(b, x, c7[i], fmt::format("mixed{}", i + 4));
  x = reduction_b(b, x, "mixed8");
  for (int i = 0; i < 2; ++i) x = module_e(b, x, fmt::format("mixed{}", i + 9));
  b.output("features", b.pool(Op::kPoolAvg, x, 8, 8, 1, 1, Padding::kValid));
  return std::move(b).finish();
}

}  // namespace mctsat::frontend::zoo
