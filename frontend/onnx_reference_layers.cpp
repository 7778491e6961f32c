// ONNX Conv, MaxPool, AveragePool, LSTM and GRU on concrete tensors (see
// onnx_reference_layers.hpp).
#include "frontend/onnx_reference_layers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "frontend/onnx_attributes.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Shape;
using tensor::Tensor;

const OnnxValue& required(ReferenceInputs inputs, std::size_t k, const char* op) {
  if (k >= inputs.size() || !inputs[k]) reject(fmt::format("{} needs input {}", op, k));
  return *inputs[k];
}

Tensor limited_tensor(const Shape& shape, std::int64_t limit, const char* op) {
  std::int64_t n = 1;
  for (auto d : shape) {
    if (d < 0 || (d != 0 && n > limit / d)) reject(fmt::format("{}: the result is too large", op));
    n *= d;
  }
  return Tensor(shape);
}

double rounded(double v, tensor::DType dtype) {
  return dtype == tensor::DType::kFloat32 ? static_cast<double>(static_cast<float>(v)) : v;
}

// What LSTM and GRU check alike: the inputs X, W and R, the layout, clip and activations we do
// not support, the direction, the shapes of W and R for `gates` gates, and sequence_lens equal to
// the sequence length. Y is allocated within `element_limit`.
struct RecurrentLayer {
  const OnnxValue& x;
  const Tensor& w;
  const Tensor& r;
  std::string direction;
  std::int64_t dirs, seq, batch, in, hidden;
  Tensor y;
};

RecurrentLayer checked_recurrent_layer(const onnx::NodeProto& node, ReferenceInputs inputs,
                                       std::int64_t element_limit, const char* op,
                                       std::int64_t gates) {
  const OnnxValue& x = required(inputs, 0, op);
  const Tensor &w = required(inputs, 1, op).value, &r = required(inputs, 2, op).value;
  if (onnx_attr::get_int(node, "layout", 0) != 0)
    reject(fmt::format("{}: layout 1 is not supported", op));
  if (onnx_attr::find(node, "clip") || onnx_attr::find(node, "activations"))
    reject(fmt::format("{}: clip and other activations are not supported", op));
  std::string direction = onnx_attr::get_string(node, "direction", "forward");
  const std::int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (x.value.shape.size() != 3) reject(fmt::format("{}: X must be [seq, batch, input]", op));
  const std::int64_t seq = x.value.shape[0], batch = x.value.shape[1], in = x.value.shape[2];
  const std::int64_t hidden = onnx_attr::get_int(node, "hidden_size", r.shape.back());
  if (w.shape != Shape{dirs, gates * hidden, in} || r.shape != Shape{dirs, gates * hidden, hidden})
    reject(fmt::format("{}: W or R does not match hidden_size and the input", op));
  if (const OnnxValue* lens = optional_input(inputs, 4))
    for (double v : lens->value.data)
      if (static_cast<std::int64_t>(v) != seq)
        reject(fmt::format("{}: sequence_lens is not supported", op));
  Tensor y = limited_tensor({seq, dirs, batch, hidden}, element_limit, op);
  return {x, w, r, std::move(direction), dirs, seq, batch, in, hidden, std::move(y)};
}

}  // namespace

ReferenceOutputs reference_conv(const onnx::NodeProto& node, ReferenceInputs inputs,
                                std::int64_t element_limit) {
  const OnnxValue& x = required(inputs, 0, "Conv");
  const Tensor& w = required(inputs, 1, "Conv").value;
  const OnnxValue* bias = optional_input(inputs, 2);
  const Shape& xs = x.value.shape;
  if (xs.size() < 3 || w.shape.size() != xs.size())
    reject("Conv: input and weight must have the same rank, at least 3");
  const std::size_t dims = xs.size() - 2;
  const std::int64_t n = xs[0], c = xs[1], m = w.shape[0];
  const std::int64_t group = onnx_attr::get_int(node, "group", 1);
  if (group <= 0 || c % group != 0 || m % group != 0 || w.shape[1] * group != c)
    reject("Conv: the weight does not match the input channels and groups");
  auto per_axis = [&](const char* name, std::int64_t fill) {
    auto values = onnx_attr::get_ints(node, name).value_or(std::vector<std::int64_t>(dims, fill));
    if (values.size() != dims) reject(fmt::format("Conv: {} must have {} values", name, dims));
    return values;
  };
  const auto strides = per_axis("strides", 1), dilations = per_axis("dilations", 1);
  auto pads = onnx_attr::get_ints(node, "pads").value_or(std::vector<std::int64_t>(2 * dims, 0));
  if (pads.size() != 2 * dims) reject(fmt::format("Conv: pads must have {} values", 2 * dims));
  const std::string auto_pad = onnx_attr::get_string(node, "auto_pad", "NOTSET");
  Shape out_shape = {n, m};
  for (std::size_t a = 0; a < dims; ++a) {
    const std::int64_t in = xs[2 + a], k = (w.shape[2 + a] - 1) * dilations[a] + 1;
    if (strides[a] <= 0 || dilations[a] <= 0) reject("Conv: strides and dilations must be > 0");
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const std::int64_t out = (in + strides[a] - 1) / strides[a];
      const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * strides[a] + k - in);
      pads[a] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[dims + a] = total - pads[a];
    } else if (auto_pad == "VALID") {
      pads[a] = pads[dims + a] = 0;
    }
    const std::int64_t span = in + pads[a] + pads[dims + a] - k;
    if (span < 0) reject("Conv: the kernel is larger than the padded input");
    out_shape.push_back(span / strides[a] + 1);
  }
  Tensor y = limited_tensor(out_shape, element_limit, "Conv");
  std::vector<std::int64_t> out_strides(out_shape.size(), 1), in_strides(xs.size(), 1),
      w_strides(w.shape.size(), 1);
  for (std::size_t d = out_shape.size(); d-- > 1;) {
    out_strides[d - 1] = out_strides[d] * out_shape[d];
    in_strides[d - 1] = in_strides[d] * xs[d];
    w_strides[d - 1] = w_strides[d] * w.shape[d];
  }
  const std::int64_t kernel_size = w_strides[0];  // (C / group) * prod(kernel)
  const std::int64_t c_per_group = c / group, m_per_group = m / group;
  std::vector<std::int64_t> out_at(dims), k_at(dims);
  for (std::size_t i = 0; i < y.data.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i);
    const std::int64_t b = rest / out_strides[0];
    rest %= out_strides[0];
    const std::int64_t mo = rest / out_strides[1];
    rest %= out_strides[1];
    for (std::size_t a = 0; a < dims; ++a) {
      out_at[a] = rest / out_strides[2 + a];
      rest %= out_strides[2 + a];
    }
    const std::int64_t g = mo / m_per_group;
    double sum = bias ? bias->value.data.at(static_cast<std::size_t>(mo)) : 0.0;
    for (std::int64_t kk = 0; kk < kernel_size; ++kk) {
      const std::int64_t ci = kk / w_strides[1];
      std::int64_t r = kk % w_strides[1];
      std::int64_t at = (b * c + g * c_per_group + ci) * in_strides[1];
      bool inside = true;
      for (std::size_t a = 0; a < dims && inside; ++a) {
        k_at[a] = r / w_strides[2 + a];
        r %= w_strides[2 + a];
        const std::int64_t pos = out_at[a] * strides[a] + k_at[a] * dilations[a] - pads[a];
        inside = pos >= 0 && pos < xs[2 + a];
        at += pos * in_strides[2 + a];
      }
      if (!inside) continue;
      sum += x.value.data[static_cast<std::size_t>(at)] *
             w.data[static_cast<std::size_t>(mo * w_strides[0] + kk)];
    }
    y.data[i] = rounded(sum, x.dtype);
  }
  ReferenceOutputs outputs;
  outputs.emplace_back(OnnxValue{std::move(y), x.dtype});
  return outputs;
}

ReferenceOutputs reference_pool(const onnx::NodeProto& node, ReferenceInputs inputs,
                                std::int64_t element_limit) {
  const bool max = node.op_type() == "MaxPool";
  const char* op = max ? "MaxPool" : "AveragePool";
  if (max && node.output_size() > 1 && !node.output(1).empty())
    reject("MaxPool: the Indices output is not supported");
  const OnnxValue& x = required(inputs, 0, op);
  const Shape& xs = x.value.shape;
  if (xs.size() < 3) reject(fmt::format("{}: the input must have rank 3 or more", op));
  const std::size_t dims = xs.size() - 2;
  const auto kernel =
      onnx_attr::get_ints(node, "kernel_shape").value_or(std::vector<std::int64_t>{});
  if (kernel.size() != dims) reject(fmt::format("{}: kernel_shape must have {} values", op, dims));
  auto per_axis = [&](const char* name, std::int64_t fill) {
    auto values = onnx_attr::get_ints(node, name).value_or(std::vector<std::int64_t>(dims, fill));
    if (values.size() != dims) reject(fmt::format("{}: {} must have {} values", op, name, dims));
    return values;
  };
  const auto strides = per_axis("strides", 1), dilations = per_axis("dilations", 1);
  auto pads = onnx_attr::get_ints(node, "pads").value_or(std::vector<std::int64_t>(2 * dims, 0));
  if (pads.size() != 2 * dims) reject(fmt::format("{}: pads must have {} values", op, 2 * dims));
  const bool ceil_mode = onnx_attr::get_int(node, "ceil_mode", 0) != 0;
  const bool include_pad = onnx_attr::get_int(node, "count_include_pad", 0) != 0;
  const std::string auto_pad = onnx_attr::get_string(node, "auto_pad", "NOTSET");
  Shape out_shape = {xs[0], xs[1]};
  for (std::size_t a = 0; a < dims; ++a) {
    const std::int64_t in = xs[2 + a];
    if (strides[a] <= 0 || dilations[a] <= 0 || kernel[a] <= 0)
      reject(fmt::format("{}: kernel_shape, strides and dilations must be > 0", op));
    const std::int64_t k = (kernel[a] - 1) * dilations[a] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const std::int64_t out = (in + strides[a] - 1) / strides[a];
      const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * strides[a] + k - in);
      pads[a] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[dims + a] = total - pads[a];
    } else if (auto_pad == "VALID") {
      pads[a] = pads[dims + a] = 0;
    }
    const std::int64_t span = in + pads[a] + pads[dims + a] - k;
    if (span < 0) reject(fmt::format("{}: the window is larger than the padded input", op));
    std::int64_t out = (ceil_mode ? (span + strides[a] - 1) / strides[a] : span / strides[a]) + 1;
    if (ceil_mode && (out - 1) * strides[a] >= in + pads[a]) --out;
    out_shape.push_back(out);
  }
  Tensor y = limited_tensor(out_shape, element_limit, op);
  std::vector<std::int64_t> out_strides(out_shape.size(), 1), in_strides(xs.size(), 1);
  for (std::size_t d = out_shape.size(); d-- > 1;) {
    out_strides[d - 1] = out_strides[d] * out_shape[d];
    in_strides[d - 1] = in_strides[d] * xs[d];
  }
  std::int64_t window = 1;
  for (auto k : kernel) window *= k;
  std::vector<std::int64_t> out_at(dims);
  for (std::size_t i = 0; i < y.data.size(); ++i) {
    std::int64_t rest = static_cast<std::int64_t>(i) % out_strides[1];
    const std::int64_t plane = static_cast<std::int64_t>(i) / out_strides[1];  // n * C + c
    for (std::size_t a = 0; a < dims; ++a) {
      out_at[a] = rest / out_strides[2 + a];
      rest %= out_strides[2 + a];
    }
    double result = max ? -std::numeric_limits<double>::infinity() : 0.0;
    std::int64_t counted = 0;
    for (std::int64_t w = 0; w < window; ++w) {
      std::int64_t r = w, at = plane * in_strides[1];
      bool inside = true, in_padding = true;
      for (std::size_t a = dims; a-- > 0;) {
        const std::int64_t ka = r % kernel[a];
        r /= kernel[a];
        const std::int64_t pos = out_at[a] * strides[a] + ka * dilations[a] - pads[a];
        inside = inside && pos >= 0 && pos < xs[2 + a];
        in_padding = in_padding && pos >= -pads[a] && pos < xs[2 + a] + pads[dims + a];
        at += pos * in_strides[2 + a];
      }
      if (inside) {
        const double v = x.value.data[static_cast<std::size_t>(at)];
        result = max ? std::max(result, v) : result + v;
      }
      counted += inside || (include_pad && in_padding);
    }
    if (!max) result = counted > 0 ? result / static_cast<double>(counted) : 0.0;
    y.data[i] = rounded(result, x.dtype);
  }
  ReferenceOutputs outputs;
  outputs.emplace_back(OnnxValue{std::move(y), x.dtype});
  return outputs;
}

ReferenceOutputs reference_lstm(const onnx::NodeProto& node, ReferenceInputs inputs,
                                std::int64_t element_limit) {
  if (onnx_attr::get_int(node, "input_forget", 0) != 0)
    reject("LSTM: input_forget is not supported");
  RecurrentLayer layer = checked_recurrent_layer(node, inputs, element_limit, "LSTM", 4);
  // Plain references, not a structured binding: the lambdas below capture them.
  const OnnxValue& x = layer.x;
  const Tensor &w = layer.w, &r = layer.r;
  const std::string& direction = layer.direction;
  const std::int64_t dirs = layer.dirs, seq = layer.seq, batch = layer.batch, in = layer.in,
                     hidden = layer.hidden;
  Tensor& y = layer.y;
  const OnnxValue *b = optional_input(inputs, 3), *h0 = optional_input(inputs, 5),
                  *c0 = optional_input(inputs, 6), *p = optional_input(inputs, 7);
  Tensor y_h({dirs, batch, hidden}), y_c({dirs, batch, hidden});
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  for (std::int64_t d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    std::vector<double> h(static_cast<std::size_t>(batch * hidden), 0.0), c = h;
    for (std::int64_t i = 0; i < batch * hidden; ++i) {
      if (h0)
        h[static_cast<std::size_t>(i)] =
            h0->value.data.at(static_cast<std::size_t>(d * batch * hidden + i));
      if (c0)
        c[static_cast<std::size_t>(i)] =
            c0->value.data.at(static_cast<std::size_t>(d * batch * hidden + i));
    }
    auto W = [&](std::int64_t row, std::int64_t col) {
      return w.data[static_cast<std::size_t>((d * 4 * hidden + row) * in + col)];
    };
    auto R = [&](std::int64_t row, std::int64_t col) {
      return r.data[static_cast<std::size_t>((d * 4 * hidden + row) * hidden + col)];
    };
    auto bias = [&](std::int64_t row) {
      if (!b) return 0.0;
      return b->value.data.at(static_cast<std::size_t>(d * 8 * hidden + row)) +
             b->value.data.at(static_cast<std::size_t>(d * 8 * hidden + 4 * hidden + row));
    };
    auto peep = [&](std::int64_t gate, std::int64_t j) {  // gates i, o, f
      return p ? p->value.data.at(static_cast<std::size_t>(d * 3 * hidden + gate * hidden + j))
               : 0.0;
    };
    for (std::int64_t step = 0; step < seq; ++step) {
      const std::int64_t t = reverse ? seq - 1 - step : step;
      std::vector<double> next_h(h.size()), next_c(c.size());
      for (std::int64_t bi = 0; bi < batch; ++bi) {
        for (std::int64_t j = 0; j < hidden; ++j) {
          double gates[4];  // i, o, f, c
          for (std::int64_t g = 0; g < 4; ++g) {
            const std::int64_t row = g * hidden + j;
            double sum = bias(row);
            for (std::int64_t k = 0; k < in; ++k)
              sum += W(row, k) * x.value.data[static_cast<std::size_t>((t * batch + bi) * in + k)];
            for (std::int64_t k = 0; k < hidden; ++k)
              sum += R(row, k) * h[static_cast<std::size_t>(bi * hidden + k)];
            gates[g] = sum;
          }
          const double c_prev = c[static_cast<std::size_t>(bi * hidden + j)];
          const double i_gate = sigmoid(gates[0] + peep(0, j) * c_prev);
          const double f_gate = sigmoid(gates[2] + peep(2, j) * c_prev);
          const double cell = f_gate * c_prev + i_gate * std::tanh(gates[3]);
          const double o_gate = sigmoid(gates[1] + peep(1, j) * cell);
          next_c[static_cast<std::size_t>(bi * hidden + j)] = cell;
          next_h[static_cast<std::size_t>(bi * hidden + j)] = o_gate * std::tanh(cell);
        }
      }
      h = std::move(next_h);
      c = std::move(next_c);
      for (std::int64_t i = 0; i < batch * hidden; ++i)
        y.data[static_cast<std::size_t>(((t * dirs + d) * batch) * hidden + i)] =
            rounded(h[static_cast<std::size_t>(i)], x.dtype);
    }
    for (std::int64_t i = 0; i < batch * hidden; ++i) {
      y_h.data[static_cast<std::size_t>(d * batch * hidden + i)] =
          rounded(h[static_cast<std::size_t>(i)], x.dtype);
      y_c.data[static_cast<std::size_t>(d * batch * hidden + i)] =
          rounded(c[static_cast<std::size_t>(i)], x.dtype);
    }
  }
  ReferenceOutputs outputs;
  outputs.emplace_back(OnnxValue{std::move(y), x.dtype});
  outputs.emplace_back(OnnxValue{std::move(y_h), x.dtype});
  outputs.emplace_back(OnnxValue{std::move(y_c), x.dtype});
  return outputs;
}

ReferenceOutputs reference_layer_norm(const onnx::NodeProto& node, ReferenceInputs inputs) {
  const OnnxValue& x = required(inputs, 0, "LayerNormalization");
  const Tensor& scale = required(inputs, 1, "LayerNormalization").value;
  const OnnxValue* bias = optional_input(inputs, 2);
  if (node.output_size() > 1 &&
      !(node.output(1).empty() && (node.output_size() < 3 || node.output(2).empty())))
    reject("LayerNormalization: the Mean and InvStdDev outputs are not supported");
  const auto rank = static_cast<std::int64_t>(x.value.shape.size());
  std::int64_t axis = onnx_attr::get_int(node, "axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) reject("LayerNormalization: axis out of range");
  const double epsilon = onnx_attr::get_float(node, "epsilon", 1e-5);
  const Shape normalized(x.value.shape.begin() + axis, x.value.shape.end());
  const std::int64_t width = tensor::numel(normalized);
  // Scale and B hold the normalized shape, or one value (broadcast).
  auto at = [&](const Tensor& t, std::int64_t k) {
    if (t.size() == 1) return t.data[0];
    if (t.shape != normalized)
      reject("LayerNormalization: Scale and B must have the normalized shape");
    return t.data[static_cast<std::size_t>(k)];
  };
  Tensor y(x.value.shape);
  for (std::int64_t row = 0; row * width < static_cast<std::int64_t>(x.value.size()); ++row) {
    const auto first = static_cast<std::size_t>(row * width);
    double mean = 0, variance = 0;
    for (std::int64_t k = 0; k < width; ++k)
      mean += x.value.data[first + static_cast<std::size_t>(k)];
    mean /= static_cast<double>(width);
    for (std::int64_t k = 0; k < width; ++k) {
      const double d = x.value.data[first + static_cast<std::size_t>(k)] - mean;
      variance += d * d;
    }
    variance /= static_cast<double>(width);
    const double inverse = 1 / std::sqrt(variance + epsilon);
    for (std::int64_t k = 0; k < width; ++k) {
      const auto i = first + static_cast<std::size_t>(k);
      y.data[i] =
          (x.value.data[i] - mean) * inverse * at(scale, k) + (bias ? at(bias->value, k) : 0.0);
    }
  }
  return {OnnxValue{std::move(y), x.dtype}};
}

ReferenceOutputs reference_gru(const onnx::NodeProto& node, ReferenceInputs inputs,
                               std::int64_t element_limit) {
  RecurrentLayer layer = checked_recurrent_layer(node, inputs, element_limit, "GRU", 3);
  // Plain references, not a structured binding: the lambdas below capture them.
  const OnnxValue& x = layer.x;
  const Tensor &w = layer.w, &r = layer.r;
  const std::string& direction = layer.direction;
  const std::int64_t dirs = layer.dirs, seq = layer.seq, batch = layer.batch, in = layer.in,
                     hidden = layer.hidden;
  Tensor& y = layer.y;
  const OnnxValue *b = optional_input(inputs, 3), *h0 = optional_input(inputs, 5);
  const bool linear_before_reset = onnx_attr::get_int(node, "linear_before_reset", 0) != 0;
  Tensor y_h({dirs, batch, hidden});
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  for (std::int64_t d = 0; d < dirs; ++d) {
    const bool reverse = direction == "reverse" || d == 1;
    std::vector<double> h(static_cast<std::size_t>(batch * hidden), 0.0);
    if (h0)
      for (std::int64_t i = 0; i < batch * hidden; ++i)
        h[static_cast<std::size_t>(i)] =
            h0->value.data.at(static_cast<std::size_t>(d * batch * hidden + i));
    // Gate g (z, r, h) row j: the input part with W's bias, the recurrent part with R's.
    auto input_part = [&](std::int64_t t, std::int64_t bi, std::int64_t g, std::int64_t j) {
      const std::int64_t row = g * hidden + j;
      double sum = b ? b->value.data.at(static_cast<std::size_t>(d * 6 * hidden + row)) : 0.0;
      for (std::int64_t k = 0; k < in; ++k)
        sum += w.data[static_cast<std::size_t>((d * 3 * hidden + row) * in + k)] *
               x.value.data[static_cast<std::size_t>((t * batch + bi) * in + k)];
      return sum;
    };
    auto recurrent_part = [&](const std::vector<double>& state, std::int64_t bi, std::int64_t g,
                              std::int64_t j) {
      const std::int64_t row = g * hidden + j;
      double sum =
          b ? b->value.data.at(static_cast<std::size_t>(d * 6 * hidden + 3 * hidden + row)) : 0.0;
      for (std::int64_t k = 0; k < hidden; ++k)
        sum += r.data[static_cast<std::size_t>((d * 3 * hidden + row) * hidden + k)] *
               state[static_cast<std::size_t>(bi * hidden + k)];
      return sum;
    };
    for (std::int64_t step = 0; step < seq; ++step) {
      const std::int64_t t = reverse ? seq - 1 - step : step;
      std::vector<double> next(h.size());
      for (std::int64_t bi = 0; bi < batch; ++bi) {
        // The reset gate of every unit first: without linear_before_reset, r (.) H feeds R_h.
        std::vector<double> reset(static_cast<std::size_t>(hidden)), gated(h.size());
        for (std::int64_t j = 0; j < hidden; ++j)
          reset[static_cast<std::size_t>(j)] =
              sigmoid(input_part(t, bi, 1, j) + recurrent_part(h, bi, 1, j));
        for (std::int64_t j = 0; j < hidden; ++j)
          gated[static_cast<std::size_t>(bi * hidden + j)] =
              reset[static_cast<std::size_t>(j)] * h[static_cast<std::size_t>(bi * hidden + j)];
        for (std::int64_t j = 0; j < hidden; ++j) {
          const double z = sigmoid(input_part(t, bi, 0, j) + recurrent_part(h, bi, 0, j));
          const double candidate = std::tanh(
              input_part(t, bi, 2, j) + (linear_before_reset ? reset[static_cast<std::size_t>(j)] *
                                                                   recurrent_part(h, bi, 2, j)
                                                             : recurrent_part(gated, bi, 2, j)));
          const double previous = h[static_cast<std::size_t>(bi * hidden + j)];
          next[static_cast<std::size_t>(bi * hidden + j)] = (1 - z) * candidate + z * previous;
        }
      }
      h = std::move(next);
      for (std::int64_t i = 0; i < batch * hidden; ++i)
        y.data[static_cast<std::size_t>(((t * dirs + d) * batch) * hidden + i)] =
            rounded(h[static_cast<std::size_t>(i)], x.dtype);
    }
    for (std::int64_t i = 0; i < batch * hidden; ++i)
      y_h.data[static_cast<std::size_t>(d * batch * hidden + i)] =
          rounded(h[static_cast<std::size_t>(i)], x.dtype);
  }
  ReferenceOutputs outputs;
  outputs.emplace_back(OnnxValue{std::move(y), x.dtype});
  outputs.emplace_back(OnnxValue{std::move(y_h), x.dtype});
  return outputs;
}

}  // namespace mctsat::frontend
