// The reference convolution (tensor/reference_conv_kernels.cpp) against its contract, bit for bit:
// every output is the sum of its terms in the order (input channel, ky, kx) from zero, padded
// cells skipped. Here the sum is written out per output; the kernel computes it plane by plane
// (and 1x1 kernels four input channels at a time), which must not change a single bit.
#include <algorithm>
#include <cstdint>
#include <random>

#include <doctest/doctest.h>

#include "tensor/reference_kernels.hpp"

using namespace mctsat::tensor;

namespace {

Tensor random_values(Shape shape, std::uint64_t seed) {
  Tensor t(std::move(shape));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& v : t.data) v = u(rng);
  return t;
}

// The contract's sum, output by output.
Tensor conv_by_outputs(const Tensor& x, const Tensor& w, std::int64_t stride, Padding pad,
                       const Shape& out_shape) {
  const std::int64_t channels = x.shape[1], height = x.shape[2], width = x.shape[3];
  const std::int64_t outs = w.shape[0], group_channels = w.shape[1], kh = w.shape[2],
                     kw = w.shape[3];
  const std::int64_t out_h = out_shape[2], out_w = out_shape[3];
  const std::int64_t outs_per_group = outs / (channels / group_channels);
  const std::int64_t top = kernels::pad_begin(pad, height, kh, stride, out_h);
  const std::int64_t left = kernels::pad_begin(pad, width, kw, stride, out_w);
  Tensor out(out_shape);
  for (std::int64_t n = 0; n < x.shape[0]; ++n)
    for (std::int64_t o = 0; o < outs; ++o)
      for (std::int64_t oy = 0; oy < out_h; ++oy)
        for (std::int64_t ox = 0; ox < out_w; ++ox) {
          double sum = 0;
          for (std::int64_t c = 0; c < group_channels; ++c)
            for (std::int64_t ky = 0; ky < kh; ++ky)
              for (std::int64_t kx = 0; kx < kw; ++kx) {
                const std::int64_t y = oy * stride - top + ky, xx = ox * stride - left + kx;
                if (y < 0 || y >= height || xx < 0 || xx >= width) continue;
                const std::int64_t channel = (o / outs_per_group) * group_channels + c;
                sum += w.data[static_cast<std::size_t>(((o * group_channels + c) * kh + ky) * kw +
                                                       kx)] *
                       x.data[static_cast<std::size_t>(
                           ((n * channels + channel) * height + y) * width + xx)];
              }
          out.data[static_cast<std::size_t>(((n * outs + o) * out_h + oy) * out_w + ox)] = sum;
        }
  return out;
}

}  // namespace

TEST_CASE("conv2d sums each output's terms in the contract's order, bit for bit") {
  struct Case {
    std::int64_t channels, outs, group_channels, kernel, stride;
    Padding pad;
  };
  // 1x1 kernels with 4, 7 (a block of four and three more) and 9 input channels, strided and
  // padded; a grouped 1x1; 3x3 and 5x5 windows.
  for (const Case& k : {Case{4, 3, 4, 1, 1, Padding::kValid}, Case{7, 5, 7, 1, 2, Padding::kSame},
                        Case{9, 2, 9, 1, 1, Padding::kSame}, Case{8, 4, 4, 1, 1, Padding::kValid},
                        Case{6, 4, 6, 3, 1, Padding::kSame}, Case{3, 3, 1, 5, 2, Padding::kSame},
                        Case{5, 2, 5, 3, 2, Padding::kSameLower}}) {
    CAPTURE(k.channels);
    CAPTURE(k.kernel);
    CAPTURE(k.stride);
    const std::int64_t size = 9;
    const Tensor x = random_values({2, k.channels, size, size}, 1);
    const Tensor w = random_values({k.outs, k.group_channels, k.kernel, k.kernel}, 2);
    const std::int64_t out_size = k.pad == Padding::kValid ? (size - k.kernel) / k.stride + 1
                                                           : (size + k.stride - 1) / k.stride;
    const Shape out_shape{2, k.outs, out_size, out_size};
    const Tensor expected = conv_by_outputs(x, w, k.stride, k.pad, out_shape);
    const Tensor actual =
        kernels::conv2d(x, w, k.stride, k.stride, k.pad, Activation::kNone, out_shape);
    CHECK(actual == expected);
  }
}
