// The ONNX reference operators for network layers the catalog cannot express and the importer
// keeps opaque: Conv of any rank (1-D audio front ends, dilations, odd pads), MaxPool and
// AveragePool (ceil_mode, odd pads), LayerNormalization, LSTM and GRU. Part of
// onnx_reference_ops (which lists them in its table); same conventions: float64 values with an
// element type, mctsat::Error without a location for inputs the operator does not accept or for
// uses it does not support ("not supported" in the message). Internal to frontend/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "frontend/onnx_reference_ops.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {

using ReferenceInputs = std::span<const std::optional<OnnxValue>>;
using ReferenceOutputs = std::vector<std::optional<OnnxValue>>;

// Rejects a use the reference operator does not accept (an Error without a location).
[[noreturn]] inline void reject(const std::string& message) {
  throw Error(message);
}

// Input k, or nullptr when the node leaves it out.
inline const OnnxValue* optional_input(ReferenceInputs inputs, std::size_t k) {
  return k < inputs.size() && inputs[k] ? &*inputs[k] : nullptr;
}

// Conv: N-D, groups, strides, dilations, explicit or automatic pads, optional bias.
ReferenceOutputs reference_conv(const onnx::NodeProto& node, ReferenceInputs inputs,
                                std::int64_t element_limit);
// MaxPool and AveragePool: N-D, strides, explicit or automatic pads, ceil_mode (a last window
// must start inside the input or its leading padding), dilations (MaxPool), count_include_pad
// (AveragePool: padding cells count, cells past the padding do not); not MaxPool's Indices output.
ReferenceOutputs reference_pool(const onnx::NodeProto& node, ReferenceInputs inputs,
                                std::int64_t element_limit);
// LSTM (layout 0): forward, reverse or bidirectional, with bias, initial states and peepholes;
// the default activations only, no clip, no input_forget, full-length sequences.
ReferenceOutputs reference_lstm(const onnx::NodeProto& node, ReferenceInputs inputs,
                                std::int64_t element_limit);
// LayerNormalization (opset 17): over the axes from `axis` on, with epsilon, Scale and an optional
// B of the normalized shape (or broadcast to it); not its Mean and InvStdDev outputs.
ReferenceOutputs reference_layer_norm(const onnx::NodeProto& node, ReferenceInputs inputs);
// GRU (layout 0): forward, reverse or bidirectional, with bias, initial state and either
// linear_before_reset (PyTorch's form); the default activations only, no clip, full-length
// sequences.
ReferenceOutputs reference_gru(const onnx::NodeProto& node, ReferenceInputs inputs,
                               std::int64_t element_limit);

}  // namespace mctsat::frontend
