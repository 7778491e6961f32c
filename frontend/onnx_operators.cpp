// The operator half of the ONNX importer: one mapping per ONNX operator the catalog covers, with
// the conditions under which it applies (otherwise the node stays opaque, and `reason` says why).
//
//   Relu Sigmoid Tanh         relu sigmoid tanh                    (floating point)
//   Add Sub Mul Div           ewadd ewsub ewmul ewdiv              (floating point, broadcasting)
//   Identity, Dropout         identity, dropout                    (Dropout: inference, no mask)
//   Clip                      clip min max                         (constant bounds)
//   MatMul                    matmul 0                             (both operands of rank >= 2)
//   Gemm                      transpose / smul alpha / matmul / smul beta / ewadd
//   Conv                      conv2d (+ ewadd of the bias as C x 1 x 1)  (2-D, no dilation,
//                             padding equal to SAME, SAME_LOWER or VALID on both axes: auto_pad,
//                             or explicit pads such as PyTorch's symmetric (kernel - 1) / 2, or
//                             those of a zero Pad before it that only it reads, as tf2onnx writes)
//   MaxPool, AveragePool      poolmax, poolavg                     (2-D, as Conv; AveragePool
//                             only where no window reaches padding or count_include_pad = 1)
//   GlobalAveragePool         globalavgpool
//   BatchNormalization        batchnorm (another epsilon is added to the variance)  (inference)
//   Softmax                   softmax (opset < 13 on an inner axis: flatten, softmax, reshape)
//   LayerNormalization        layernorm epsilon                    (over the last axis, no Mean or
//                             InvStdDev output; a missing B is zeros)
//   Concat Split Transpose Reshape Flatten   concat split transpose reshape flatten (any type;
//                             Split and Reshape with constant sizes / shape, or Reshape with the
//                             shape ONNX infers)
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "frontend/onnx_attributes.hpp"
#include "frontend/onnx_importer.hpp"
#include "tensor/reference_kernels.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Activation;
using tensor::DType;
using tensor::Op;
using tensor::Padding;
using tensor::Shape;
using tensor::TensorRef;
using OnnxNode = onnx::NodeProto;
using onnx_attr::get_float;
using onnx_attr::get_int;
using onnx_attr::get_ints;
using onnx_attr::get_string;
using onnx_attr::has_input;
using onnx_attr::has_output;
using onnx_attr::normalize_axis;
using onnx_attr::to_ints;

bool floating(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64 || dtype == DType::kFloat16;
}
std::int64_t rank_of(OnnxImporter& im, TensorRef ref) {
  return static_cast<std::int64_t>(im.type_of(ref).shape.size());
}

using Mapping = std::function<bool(OnnxImporter&, const OnnxNode&, std::string&)>;

bool fail_with(std::string& reason, std::string why) {
  reason = std::move(why);
  return false;
}

Mapping unary(Op op) {
  return [op](OnnxImporter& im, const OnnxNode& node, std::string& reason) {
    const TensorRef x = im.tensor(node.input(0));
    if (!floating(im.type_of(x).dtype)) return fail_with(reason, "integer input");
    im.bind(node.output(0), im.add1(op, {x}, {}, im.node_name()));
    return true;
  };
}

Mapping binary(Op op) {
  return [op](OnnxImporter& im, const OnnxNode& node, std::string& reason) {
    const TensorRef a = im.tensor(node.input(0)), b = im.tensor(node.input(1));
    if (!floating(im.type_of(a).dtype)) return fail_with(reason, "integer arithmetic");
    im.bind(node.output(0), im.add1(op, {a, b}, {}, im.node_name()));
    return true;
  };
}

bool map_identity(OnnxImporter& im, const OnnxNode& node, std::string&) {
  im.bind(node.output(0), im.add1(Op::kIdentity, {im.tensor(node.input(0))}, {}, im.node_name()));
  return true;
}

bool map_dropout(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  // PyTorch names the mask output even when nothing reads it.
  if (has_output(node, 1) && im.readers(node.output(1)) > 0)
    return fail_with(reason, "the mask output is read");
  // Inference, or training with a ratio of 0 (torchvision's Swin exports attention dropout so):
  // the output is the input either way.
  if (has_input(node, 2)) {
    const auto training = im.constant(node.input(2));
    if (!training || training->data.empty()) return fail_with(reason, "training mode not constant");
    if (training->data[0] != 0) {
      const auto ratio = has_input(node, 1) ? im.constant(node.input(1)) : nullptr;
      if (!ratio || ratio->data.size() != 1 || ratio->data[0] != 0)
        return fail_with(reason, "training mode with a ratio other than 0");
    }
  }
  im.bind(node.output(0), im.add1(Op::kDropout, {im.tensor(node.input(0))}, {}, im.node_name()));
  return true;
}

bool map_clip(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef x = im.tensor(node.input(0));
  if (!floating(im.type_of(x).dtype)) return fail_with(reason, "integer input");
  double bounds[2] = {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
  if (im.opset() < 11) {
    bounds[0] = get_float(node, "min", bounds[0]);
    bounds[1] = get_float(node, "max", bounds[1]);
  } else {
    for (int k = 1; k <= 2; ++k) {
      if (!has_input(node, k)) continue;
      const auto value = im.constant(node.input(k));
      if (!value || value->data.size() != 1)
        return fail_with(reason, "bounds that are not constant");
      bounds[k - 1] = value->data[0];
    }
  }
  im.bind(node.output(0), im.add1(Op::kClip, {x}, {bounds[0], bounds[1]}, im.node_name()));
  return true;
}

bool map_softmax(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef x = im.tensor(node.input(0));
  if (!floating(im.type_of(x).dtype)) return fail_with(reason, "integer input");
  const std::int64_t rank = rank_of(im, x);
  const std::int64_t axis = normalize_axis(get_int(node, "axis", im.opset() < 13 ? 1 : -1), rank);
  if (axis < 0) return fail_with(reason, "axis out of range");
  if (im.opset() >= 13 || axis == rank - 1) {
    im.bind(node.output(0), im.add1(Op::kSoftmax, {x}, {axis}, im.node_name()));
    return true;
  }
  // Before opset 13, Softmax normalizes over all dimensions from `axis` on.
  const TensorRef flat = im.add1(Op::kFlatten, {x}, {axis});
  const TensorRef soft = im.add1(Op::kSoftmax, {flat}, {std::int64_t{1}});
  im.bind(node.output(0), im.add1(Op::kReshape, {soft}, {im.type_of(x).shape}, im.node_name()));
  return true;
}

bool map_flatten(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef x = im.tensor(node.input(0));
  const std::int64_t rank = rank_of(im, x);
  std::int64_t axis = get_int(node, "axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return fail_with(reason, "axis out of range");
  im.bind(node.output(0), im.add1(Op::kFlatten, {x}, {axis}, im.node_name()));
  return true;
}

bool map_transpose(OnnxImporter& im, const OnnxNode& node, std::string&) {
  const TensorRef x = im.tensor(node.input(0));
  std::vector<std::int64_t> perm;
  if (auto given = get_ints(node, "perm")) {
    perm = *given;
  } else {
    for (std::int64_t i = rank_of(im, x) - 1; i >= 0; --i) perm.push_back(i);
  }
  im.bind(node.output(0), im.add1(Op::kTranspose, {x}, {perm}, im.node_name()));
  return true;
}

bool map_reshape(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef x = im.tensor(node.input(0));
  const Shape& in = im.type_of(x).shape;
  std::optional<std::vector<std::int64_t>> target;
  if (im.opset() < 5) {
    target = get_ints(node, "shape");
  } else if (auto value = im.constant(node.input(1))) {
    target = to_ints(*value);
  }
  Shape shape;
  if (target) {
    // 0 copies the input's dimension (unless allowzero), -1 takes what is left.
    const bool allow_zero = get_int(node, "allowzero", 0) != 0;
    std::int64_t known = 1, infer_at = -1;
    for (std::size_t i = 0; i < target->size(); ++i) {
      std::int64_t d = (*target)[i];
      if (d == 0 && !allow_zero) {
        if (i >= in.size()) return fail_with(reason, "a 0 in the shape beyond the input's rank");
        d = in[i];
      }
      if (d == -1) {
        infer_at = static_cast<std::int64_t>(i);
      } else {
        known *= d;
      }
      shape.push_back(d);
    }
    if (infer_at >= 0) {
      if (known <= 0 || tensor::numel(in) % known != 0)
        return fail_with(reason, "the -1 dimension cannot be inferred");
      shape[static_cast<std::size_t>(infer_at)] = tensor::numel(in) / known;
    }
  } else if (auto type = im.onnx_type(node.output(0))) {
    shape = type->shape;  // a computed shape that ONNX's data propagation resolved
  } else {
    return fail_with(reason, "the shape is neither constant nor inferred");
  }
  for (auto d : shape) {
    if (d <= 0) return fail_with(reason, "an empty dimension");
  }
  im.bind(node.output(0), im.add1(Op::kReshape, {x}, {shape}, im.node_name()));
  return true;
}

bool map_concat(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  std::vector<TensorRef> inputs;
  for (const auto& in : node.input()) inputs.push_back(im.tensor(in));
  const std::int64_t rank = rank_of(im, inputs.at(0));
  const std::int64_t axis = normalize_axis(get_int(node, "axis", 0), rank);
  if (axis < 0) return fail_with(reason, "axis out of range");
  im.bind(node.output(0), im.add1(Op::kConcat, inputs, {axis, rank}, im.node_name()));
  return true;
}

bool map_split(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef x = im.tensor(node.input(0));
  const Shape& shape = im.type_of(x).shape;
  const std::int64_t axis =
      normalize_axis(get_int(node, "axis", 0), static_cast<std::int64_t>(shape.size()));
  if (axis < 0) return fail_with(reason, "axis out of range");
  std::vector<std::int64_t> sizes;
  if (im.opset() < 13) {
    if (auto given = get_ints(node, "split")) sizes = *given;
  } else if (has_input(node, 1)) {
    const auto value = im.constant(node.input(1));
    if (!value) return fail_with(reason, "split sizes that are not constant");
    sizes = to_ints(*value);
  }
  const auto outputs = static_cast<std::int64_t>(node.output_size());
  if (sizes.empty()) {
    const std::int64_t along = shape[static_cast<std::size_t>(axis)];
    if (along % outputs != 0) return fail_with(reason, "uneven equal split");
    sizes.assign(static_cast<std::size_t>(outputs), along / outputs);
  }
  for (auto s : sizes) {
    if (s <= 0) return fail_with(reason, "an empty part");
  }
  const auto parts = im.add(Op::kSplit, {x}, {axis, sizes}, im.node_name());
  for (int k = 0; k < node.output_size(); ++k) {
    if (!node.output(k).empty()) im.bind(node.output(k), parts.at(static_cast<std::size_t>(k)));
  }
  return true;
}

bool map_matmul(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef a = im.tensor(node.input(0)), b = im.tensor(node.input(1));
  if (!floating(im.type_of(a).dtype)) return fail_with(reason, "integer input");
  if (rank_of(im, a) < 2 || rank_of(im, b) < 2) return fail_with(reason, "a vector operand");
  im.bind(node.output(0), im.add1(Op::kMatmul, {a, b}, {std::int64_t{0}}, im.node_name()));
  return true;
}

// A one-element weight holding `value`, of the element type of `like`.
TensorRef scalar(OnnxImporter& im, double value, TensorRef like) {
  return im.add_weight(tensor::Tensor({1}, value), im.type_of(like).dtype);
}

bool map_gemm(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  TensorRef a = im.tensor(node.input(0)), b = im.tensor(node.input(1));
  if (!floating(im.type_of(a).dtype)) return fail_with(reason, "integer input");
  const std::vector<std::int64_t> swap = {1, 0};
  const double alpha = get_float(node, "alpha", 1.0), beta = get_float(node, "beta", 1.0);
  if (get_int(node, "transA", 0)) a = im.add1(Op::kTranspose, {a}, {swap});
  if (get_int(node, "transB", 0)) b = im.add1(Op::kTranspose, {b}, {swap});
  if (alpha != 1.0) b = im.add1(Op::kSmul, {b, scalar(im, alpha, b)}, {});
  const bool bias = has_input(node, 2) && beta != 0.0;
  TensorRef y = im.add1(Op::kMatmul, {a, b}, {std::int64_t{0}}, bias ? "" : im.node_name());
  if (bias) {
    TensorRef c = im.tensor(node.input(2));
    if (beta != 1.0) c = im.add1(Op::kSmul, {c, scalar(im, beta, c)}, {});
    y = im.add1(Op::kEwAdd, {y, c}, {}, im.node_name());
  }
  im.bind(node.output(0), y);
  return true;
}

// The padding of a 2-D window operator (Conv, MaxPool, AveragePool) as one of the catalog's modes
// (the mode auto_pad names, then SAME, VALID, SAME_LOWER, tried in that order: a window with
// explicit pads that reads the same cells under several codes, such as a 1x1 stride-1 kernel under
// SAME and VALID, gets SAME, the code the rules' literal 0 matches; mctsat's exporter writes
// auto_pad, so its models read back with their own codes), if it is one of them: per axis, ONNX's
// output size and padding before the data must be those of the mode, and both axes must agree on
// it. The padding after the data need not match: cells past the last window are never read.
struct Window {
  std::int64_t kernel[2], stride[2], out[2], begin[2];
  std::optional<Padding> named;  // by auto_pad
};

// `extra` pads [top, left, bottom, right] are added to the node's explicit ones (a Pad the
// operator absorbs).
std::optional<Window> window_of(const OnnxNode& node, const Shape& x, std::int64_t kernel_h,
                                std::int64_t kernel_w, std::string& reason,
                                const std::vector<std::int64_t>& extra = {0, 0, 0, 0}) {
  auto reject = [&](const char* why) {
    reason = why;
    return std::optional<Window>();
  };
  Window w{{kernel_h, kernel_w}, {1, 1}, {0, 0}, {0, 0}, std::nullopt};
  if (auto strides = get_ints(node, "strides")) {
    if (strides->size() != 2) return reject("strides of the wrong length");
    w.stride[0] = (*strides)[0];
    w.stride[1] = (*strides)[1];
  }
  if (auto dilations = get_ints(node, "dilations")) {
    for (auto d : *dilations) {
      if (d != 1) return reject("dilation");
    }
  }
  const std::string auto_pad = get_string(node, "auto_pad", "NOTSET");
  std::vector<std::int64_t> pads(4, 0);
  if (auto given = get_ints(node, "pads"); given && auto_pad == "NOTSET") pads = *given;
  if (pads.size() != 4) return reject("pads of the wrong length");
  if (auto_pad == "NOTSET") {
    for (std::size_t i = 0; i < 4; ++i) pads[i] += extra[i];
  } else if (extra != std::vector<std::int64_t>{0, 0, 0, 0}) {
    return reject("a Pad before automatic padding");
  }
  if (auto_pad == "SAME_UPPER") w.named = Padding::kSame;
  if (auto_pad == "SAME_LOWER") w.named = Padding::kSameLower;
  if (auto_pad == "VALID") w.named = Padding::kValid;
  const bool ceil_mode = get_int(node, "ceil_mode", 0) != 0;
  for (int i = 0; i < 2; ++i) {
    const std::int64_t in = x[static_cast<std::size_t>(2 + i)], k = w.kernel[i], s = w.stride[i];
    std::int64_t begin = pads[static_cast<std::size_t>(i)],
                 end = pads[static_cast<std::size_t>(2 + i)];
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const std::int64_t out = (in + s - 1) / s;
      const std::int64_t total = std::max<std::int64_t>((out - 1) * s + k - in, 0);
      begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    }
    const std::int64_t span = in + begin + end - k;
    if (span < 0) return reject("a kernel larger than the padded input");
    w.out[i] = span / s + 1;
    if (ceil_mode && span % s != 0) return reject("ceil_mode rounding");
    w.begin[i] = begin;
  }
  return w;
}

std::optional<Padding> padding_of(const Shape& x, const Window& w) {
  std::vector<Padding> modes = {Padding::kSame, Padding::kValid, Padding::kSameLower};
  if (w.named) modes.insert(modes.begin(), *w.named);
  for (Padding mode : modes) {
    bool all = true;
    for (int i = 0; i < 2; ++i) {
      const std::int64_t in = x[static_cast<std::size_t>(2 + i)], s = w.stride[i];
      const std::int64_t out =
          mode == Padding::kValid ? (in - w.kernel[i]) / s + 1 : (in + s - 1) / s;
      all = all && in >= (mode == Padding::kValid ? w.kernel[i] : 0) && out == w.out[i] &&
            w.begin[i] == tensor::kernels::pad_begin(mode, in, w.kernel[i], s, out);
    }
    if (all) return mode;
  }
  return std::nullopt;
}

// A zero Pad of the spatial axes before a Conv, read by the Conv alone, as pads [top, left,
// bottom, right] the Conv can take instead (tf2onnx writes TensorFlow's explicit padding as Pad
// followed by a Conv without pads); nullopt if it is not one.
std::optional<std::vector<std::int64_t>> absorbable_pad(OnnxImporter& im, const OnnxNode& conv) {
  const OnnxNode* pad = im.producer(conv.input(0));
  if (pad == nullptr || pad->op_type() != "Pad" || im.readers(conv.input(0)) != 1 ||
      get_string(*pad, "mode", "constant") != "constant")
    return std::nullopt;
  std::optional<std::vector<std::int64_t>> pads;
  if (im.opset() < 11) {
    pads = get_ints(*pad, "pads");
    if (get_float(*pad, "value", 0.0) != 0.0) return std::nullopt;
  } else {
    const auto given = im.constant(pad->input(1));
    if (!given) return std::nullopt;
    pads = to_ints(*given);
    if (has_input(*pad, 2)) {
      const auto fill = im.constant(pad->input(2));
      if (!fill || fill->data.size() != 1 || fill->data[0] != 0.0) return std::nullopt;
    }
    if (has_input(*pad, 3)) return std::nullopt;  // axes (opset 18)
  }
  const std::vector<std::int64_t>& p = *pads;
  if (p.size() != 8 || p[0] != 0 || p[1] != 0 || p[4] != 0 || p[5] != 0) return std::nullopt;
  for (auto v : p) {
    if (v < 0) return std::nullopt;
  }
  return std::vector<std::int64_t>{p[2], p[3], p[6], p[7]};
}

bool map_conv(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  TensorRef x = im.tensor(node.input(0));
  const TensorRef w = im.tensor(node.input(1));
  if (!floating(im.type_of(x).dtype)) return fail_with(reason, "integer input");
  if (rank_of(im, x) != 4 || rank_of(im, w) != 4) return fail_with(reason, "not 2-D");
  const Shape& ws = im.type_of(w).shape;
  std::optional<Window> window;
  std::optional<Padding> pad;
  if (const auto extra = absorbable_pad(im, node)) {
    const TensorRef unpadded = im.tensor(im.producer(node.input(0))->input(0));
    std::string ignored;
    window = window_of(node, im.type_of(unpadded).shape, ws[2], ws[3], ignored, *extra);
    if (window) pad = padding_of(im.type_of(unpadded).shape, *window);
    if (pad) x = unpadded;
  }
  const Shape xs = im.type_of(x).shape;
  if (!pad) {
    window = window_of(node, xs, ws[2], ws[3], reason);
    if (!window) return false;
    pad = padding_of(xs, *window);
  }
  if (!pad) return fail_with(reason, "padding that is not SAME, SAME_LOWER or VALID");
  const bool bias = has_input(node, 2);
  TensorRef y = im.add1(
      Op::kConv2d, {x, w},
      {window->stride[0], window->stride[1], static_cast<std::int64_t>(*pad), std::int64_t{0}},
      bias ? "" : im.node_name());
  if (bias) {
    const TensorRef b = im.tensor(node.input(2));
    const TensorRef column = im.add1(Op::kReshape, {b}, {Shape{ws[0], 1, 1}});
    y = im.add1(Op::kEwAdd, {y, column}, {}, im.node_name());
  }
  im.bind(node.output(0), y);
  return true;
}

Mapping pool(Op op) {
  return [op](OnnxImporter& im, const OnnxNode& node, std::string& reason) {
    const TensorRef x = im.tensor(node.input(0));
    if (!floating(im.type_of(x).dtype)) return fail_with(reason, "integer input");
    if (rank_of(im, x) != 4) return fail_with(reason, "not 2-D");
    if (has_output(node, 1)) return fail_with(reason, "the indices output is used");
    const auto kernel = get_ints(node, "kernel_shape");
    if (!kernel || kernel->size() != 2) return fail_with(reason, "not 2-D");
    const Shape& xs = im.type_of(x).shape;
    const auto window = window_of(node, xs, (*kernel)[0], (*kernel)[1], reason);
    if (!window) return false;
    const auto pad = padding_of(xs, *window);
    if (!pad) return fail_with(reason, "padding that is not SAME, SAME_LOWER or VALID");
    if (op == Op::kPoolAvg && !get_int(node, "count_include_pad", 0)) {
      // The catalog counts padded cells; ONNX here does not: they agree where no window reaches
      // the padding.
      for (int i = 0; i < 2; ++i) {
        if (window->begin[i] > 0 || (window->out[i] - 1) * window->stride[i] + window->kernel[i] >
                                        xs[2 + static_cast<std::size_t>(i)])
          return fail_with(reason, "padding excluded from the average");
      }
    }
    im.bind(node.output(0),
            im.add1(op, {x},
                    {window->kernel[0], window->kernel[1], window->stride[0], window->stride[1],
                     static_cast<std::int64_t>(*pad), static_cast<std::int64_t>(Activation::kNone)},
                    im.node_name()));
    return true;
  };
}

bool map_global_avg_pool(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  const TensorRef x = im.tensor(node.input(0));
  if (!floating(im.type_of(x).dtype)) return fail_with(reason, "integer input");
  im.bind(node.output(0), im.add1(Op::kGlobalAvgPool, {x}, {}, im.node_name()));
  return true;
}

bool map_batchnorm(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  if (has_output(node, 1) || has_output(node, 2)) return fail_with(reason, "training outputs");
  if (get_int(node, "training_mode", 0)) return fail_with(reason, "training mode");
  std::vector<TensorRef> inputs;
  for (int k = 0; k < 5; ++k) inputs.push_back(im.tensor(node.input(k)));
  if (!floating(im.type_of(inputs[0]).dtype)) return fail_with(reason, "integer input");
  constexpr double kCatalogEpsilon = 1e-5;  // the catalog's batchnorm
  const double epsilon = get_float(node, "epsilon", 1e-5);
  if (std::abs(epsilon - kCatalogEpsilon) > 1e-12)
    inputs[4] =
        im.add1(Op::kEwAdd, {inputs[4], scalar(im, epsilon - kCatalogEpsilon, inputs[4])}, {});
  im.bind(node.output(0), im.add1(Op::kBatchNorm, inputs, {}, im.node_name()));
  return true;
}

bool map_layer_norm(OnnxImporter& im, const OnnxNode& node, std::string& reason) {
  if (has_output(node, 1) || has_output(node, 2))
    return fail_with(reason, "Mean or InvStdDev output");
  const TensorRef x = im.tensor(node.input(0));
  const tensor::TensorType type = im.type_of(x);
  if (!floating(type.dtype)) return fail_with(reason, "integer input");
  const auto rank = static_cast<std::int64_t>(type.shape.size());
  if (rank == 0) return fail_with(reason, "a scalar input");
  if (normalize_axis(get_int(node, "axis", -1), rank) != rank - 1)
    return fail_with(reason, "normalized over more than the last axis");
  if (!has_input(node, 1)) return fail_with(reason, "no Scale");
  const TensorRef scale = im.tensor(node.input(1));
  const Shape width = {type.shape.back()};
  TensorRef bias;
  if (has_input(node, 2)) {
    bias = im.tensor(node.input(2));
  } else {
    bias = im.add_weight(tensor::Tensor(width, 0.0), type.dtype);
  }
  if (im.type_of(scale).shape != width || im.type_of(bias).shape != width)
    return fail_with(reason, "Scale or B not of the last axis' shape");
  im.bind(node.output(0), im.add1(Op::kLayerNorm, {x, scale, bias},
                                  {get_float(node, "epsilon", 1e-5)}, im.node_name()));
  return true;
}

const std::map<std::string, Mapping, std::less<>>& mappings() {
  static const std::map<std::string, Mapping, std::less<>> table = {
      {"Relu", unary(Op::kRelu)},
      {"Sigmoid", unary(Op::kSigmoid)},
      {"Tanh", unary(Op::kTanh)},
      {"Add", binary(Op::kEwAdd)},
      {"Sub", binary(Op::kEwSub)},
      {"Mul", binary(Op::kEwMul)},
      {"Div", binary(Op::kEwDiv)},
      {"Identity", map_identity},
      {"Dropout", map_dropout},
      {"Clip", map_clip},
      {"Softmax", map_softmax},
      {"Flatten", map_flatten},
      {"Transpose", map_transpose},
      {"Reshape", map_reshape},
      {"Concat", map_concat},
      {"Split", map_split},
      {"MatMul", map_matmul},
      {"Gemm", map_gemm},
      {"Conv", map_conv},
      {"MaxPool", pool(Op::kPoolMax)},
      {"AveragePool", pool(Op::kPoolAvg)},
      {"GlobalAveragePool", map_global_avg_pool},
      {"BatchNormalization", map_batchnorm},
      {"LayerNormalization", map_layer_norm},
  };
  return table;
}

}  // namespace

bool OnnxImporter::map_node(const onnx::NodeProto& node, std::string& reason) {
  const auto found = mappings().find(node.op_type());
  if (found == mappings().end()) {
    reason = "not in the catalog";
    return false;
  }
  return found->second(*this, node, reason);
}

}  // namespace mctsat::frontend
