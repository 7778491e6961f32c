// Reference kernels for the window operators on NCHW tensors: grouped 2-D convolution, max and
// average pooling (SAME, VALID and SAME_LOWER padding), and the two convolution-kernel transforms
// (enlarge, merge) that rewrite rules use to combine convolutions.
#include <algorithm>
#include <limits>

#include "support/error.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::tensor::kernels {
namespace {

// Ceiling division for b > 0 and any a.
std::int64_t div_ceil(std::int64_t a, std::int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}
// Floor division for b > 0 and any a.
std::int64_t div_floor(std::int64_t a, std::int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The output positions [begin, end) whose input position `o * stride - pad + k` lies in [0, in).
struct Range {
  std::int64_t begin, end;
};
Range valid_outputs(std::int64_t in, std::int64_t out, std::int64_t stride, std::int64_t pad,
                    std::int64_t k) {
  const std::int64_t begin = std::max<std::int64_t>(0, div_ceil(pad - k, stride));
  const std::int64_t end = std::min(out, div_floor(in - 1 + pad - k, stride) + 1);
  return {begin, std::max(begin, end)};
}

}  // namespace

std::int64_t pad_begin(Padding pad, std::int64_t in, std::int64_t kernel, std::int64_t stride,
                       std::int64_t out) {
  if (pad == Padding::kValid) return 0;
  const std::int64_t total = std::max<std::int64_t>((out - 1) * stride + kernel - in, 0);
  // SAME (ONNX SAME_UPPER): the odd cell goes at the end; SAME_LOWER: at the start.
  return pad == Padding::kSameLower ? total - total / 2 : total / 2;
}

Tensor conv2d(const Tensor& x, const Tensor& w, std::int64_t stride_h, std::int64_t stride_w,
              Padding pad, Activation act, const Shape& out_shape) {
  const std::int64_t batch = x.shape[0], channels = x.shape[1], height = x.shape[2],
                     width = x.shape[3];
  const std::int64_t out_channels = w.shape[0], group_channels = w.shape[1], kernel_h = w.shape[2],
                     kernel_w = w.shape[3];
  const std::int64_t out_h = out_shape[2], out_w = out_shape[3];
  const std::int64_t groups = channels / group_channels;
  const std::int64_t outs_per_group = out_channels / groups;
  const std::int64_t pad_top = pad_begin(pad, height, kernel_h, stride_h, out_h);
  const std::int64_t pad_left = pad_begin(pad, width, kernel_w, stride_w, out_w);
  MCTSAT_ASSERT(out_shape[0] == batch && out_shape[1] == out_channels);

  Tensor out(out_shape);
  // Each weight scalar is applied to the whole output plane at once; padded cells contribute zero
  // and are skipped. Every output sums its terms in the order (input channel, ky, kx). A 1x1
  // kernel's input channels go four at a time, each output adding their four terms in that order
  // before it is stored again (the same sums, fewer loads and stores of the output plane).
  for (std::int64_t n = 0; n < batch; ++n) {
    for (std::int64_t o = 0; o < out_channels; ++o) {
      const std::int64_t first_channel = (o / outs_per_group) * group_channels;
      double* plane = out.data.data() + to_size((n * out_channels + o) * out_h * out_w);
      std::int64_t c = 0;
      if (kernel_h == 1 && kernel_w == 1) {
        const Range rows = valid_outputs(height, out_h, stride_h, pad_top, 0);
        const Range cols = valid_outputs(width, out_w, stride_w, pad_left, 0);
        for (; c + 4 <= group_channels; c += 4) {
          const double* in[4];
          double weight[4];
          for (std::int64_t i = 0; i < 4; ++i) {
            in[i] =
                x.data.data() + to_size((n * channels + first_channel + c + i) * height * width);
            weight[i] = w.data[to_size(o * group_channels + c + i)];
          }
          for (std::int64_t oy = rows.begin; oy < rows.end; ++oy) {
            const std::int64_t row = (oy * stride_h - pad_top) * width - pad_left;
            const double *in0 = in[0], *in1 = in[1], *in2 = in[2], *in3 = in[3];
            double* out_row = plane + oy * out_w;
            for (std::int64_t ox = cols.begin; ox < cols.end; ++ox) {
              const std::int64_t at = row + ox * stride_w;
              out_row[ox] = out_row[ox] + weight[0] * in0[at] + weight[1] * in1[at] +
                            weight[2] * in2[at] + weight[3] * in3[at];
            }
          }
        }
      }
      for (; c < group_channels; ++c) {
        const double* in_plane =
            x.data.data() + to_size((n * channels + first_channel + c) * height * width);
        for (std::int64_t ky = 0; ky < kernel_h; ++ky) {
          const Range rows = valid_outputs(height, out_h, stride_h, pad_top, ky);
          for (std::int64_t kx = 0; kx < kernel_w; ++kx) {
            const Range cols = valid_outputs(width, out_w, stride_w, pad_left, kx);
            const double weight =
                w.data[to_size(((o * group_channels + c) * kernel_h + ky) * kernel_w + kx)];
            const std::int64_t shift =
                kx - pad_left;  // input column of ox is ox * stride_w + shift
            for (std::int64_t oy = rows.begin; oy < rows.end; ++oy) {
              const double* in_row = in_plane + (oy * stride_h - pad_top + ky) * width;
              double* out_row = plane + oy * out_w;
              for (std::int64_t ox = cols.begin; ox < cols.end; ++ox)
                out_row[ox] += weight * in_row[ox * stride_w + shift];
            }
          }
        }
      }
    }
  }
  apply_activation(out, act);
  return out;
}

Tensor pool(Op op, const Tensor& x, std::int64_t kernel_h, std::int64_t kernel_w,
            std::int64_t stride_h, std::int64_t stride_w, Padding pad, Activation act,
            const Shape& out_shape) {
  MCTSAT_ASSERT(op == Op::kPoolMax || op == Op::kPoolAvg);
  const std::int64_t planes = x.shape[0] * x.shape[1], height = x.shape[2], width = x.shape[3];
  const std::int64_t out_h = out_shape[2], out_w = out_shape[3];
  const std::int64_t pad_top = pad_begin(pad, height, kernel_h, stride_h, out_h);
  const std::int64_t pad_left = pad_begin(pad, width, kernel_w, stride_w, out_w);
  const double window_size = static_cast<double>(kernel_h * kernel_w);

  Tensor out(out_shape);
  double* dst = out.data.data();
  for (std::int64_t p = 0; p < planes; ++p) {
    const double* plane = x.data.data() + to_size(p * height * width);
    for (std::int64_t oy = 0; oy < out_h; ++oy) {
      const std::int64_t y0 = oy * stride_h - pad_top;
      const std::int64_t y_begin = std::max<std::int64_t>(y0, 0),
                         y_end = std::min(y0 + kernel_h, height);
      for (std::int64_t ox = 0; ox < out_w; ++ox) {
        const std::int64_t x0 = ox * stride_w - pad_left;
        const std::int64_t x_begin = std::max<std::int64_t>(x0, 0),
                           x_end = std::min(x0 + kernel_w, width);
        // Only cells inside the input are visited: max ignores padding, average counts it as
        // zeros by dividing by the full window size.
        double result;
        if (op == Op::kPoolMax) {
          double top = -std::numeric_limits<double>::infinity();
          bool any = false;
          for (std::int64_t y = y_begin; y < y_end; ++y) {
            for (std::int64_t xx = x_begin; xx < x_end; ++xx) {
              top = std::max(top, plane[y * width + xx]);
              any = true;
            }
          }
          // A window of padding only (impossible under every padding mode) yields the value 0.
          result = any ? top : 0.0;
        } else {
          double sum = 0.0;
          for (std::int64_t y = y_begin; y < y_end; ++y) {
            for (std::int64_t xx = x_begin; xx < x_end; ++xx) sum += plane[y * width + xx];
          }
          result = sum / window_size;
        }
        *dst++ = result;
      }
    }
  }
  apply_activation(out, act);
  return out;
}

Tensor enlarge(const Tensor& w, const Shape& out_shape) {
  const std::int64_t filters = w.shape[0] * w.shape[1], kh = w.shape[2], kw = w.shape[3];
  const std::int64_t big_h = out_shape[2], big_w = out_shape[3];
  const std::int64_t top = (big_h - kh) / 2, left = (big_w - kw) / 2;
  Tensor out(out_shape);
  for (std::int64_t f = 0; f < filters; ++f) {
    for (std::int64_t y = 0; y < kh; ++y) {
      for (std::int64_t x = 0; x < kw; ++x) {
        out.data[to_size((f * big_h + y + top) * big_w + x + left)] =
            w.data[to_size((f * kh + y) * kw + x)];
      }
    }
  }
  return out;
}

Tensor merge(const Tensor& w, std::int64_t count) {
  // w is a grouped-convolution kernel with as many output as input channels per group (I).
  // Merged, `count` consecutive groups form one: output channel o keeps its weights for input
  // channel c at position ((o / I) % count) * I + c of the wider group, zeros elsewhere.
  const std::int64_t outs = w.shape[0], ins = w.shape[1], window = w.shape[2] * w.shape[3];
  Tensor out(Shape{outs, ins * count, w.shape[2], w.shape[3]});
  for (std::int64_t o = 0; o < outs; ++o) {
    const std::int64_t slot = ((o / ins) % count) * ins;
    for (std::int64_t c = 0; c < ins; ++c) {
      auto src = w.data.begin() + (o * ins + c) * window;
      std::copy(src, src + window, out.data.begin() + (o * ins * count + slot + c) * window);
    }
  }
  return out;
}

}  // namespace mctsat::tensor::kernels
