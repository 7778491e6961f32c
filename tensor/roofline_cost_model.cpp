// The roofline cost model: FLOP and byte counts per operator, and the time they take on a device.
#include "tensor/roofline_cost_model.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::tensor {
namespace {

double elements(const TensorType& type) {
  return static_cast<double>(numel(type.shape));
}

double elements(std::span<const TensorType> types) {
  double total = 0;
  for (const TensorType& type : types) total += elements(type);
  return total;
}

double tensor_bytes(const TensorType& type) {
  return elements(type) * static_cast<double>(dtype_bytes(type.dtype));
}

// The signature's arity, and at least one output for operators that compute something.
void check_instance(const OpInstance& instance) {
  const OpSignature& sig = signature(instance.op);
  const std::size_t want = sig.tensor_count();
  const std::size_t got = instance.inputs.size();
  if (sig.variadic() ? got < want : got != want)
    throw Error(fmt::format("cannot price {}: it takes {}{} tensor inputs, got {}", sig.name,
                            sig.variadic() ? "at least " : "", want, got));
  if (instance.attrs.size() != sig.attr_count())
    throw Error(fmt::format("cannot price {}: it takes {} attributes, got {}", sig.name,
                            sig.attr_count(), instance.attrs.size()));
  if (instance.outputs.empty())
    throw Error(fmt::format("cannot price {}: its output types are unknown", sig.name));
}

std::int64_t int_attr(const OpInstance& instance, std::size_t index) {
  const Attr& attr = instance.attrs[index];
  if (attr_kind(attr) != ParamKind::kInt)
    throw Error(fmt::format("cannot price {}: attribute {} ({}) is not an integer",
                            op_name(instance.op), index, signature(instance.op).attr(index).name));
  return attr_int(attr);
}

const TensorType& input_of_rank(const OpInstance& instance, std::size_t index,
                                std::size_t min_rank) {
  const TensorType& type = instance.inputs[index];
  if (type.shape.size() < min_rank)
    throw Error(fmt::format("cannot price {}: input {} has rank {}, expected at least {}",
                            op_name(instance.op), index, type.shape.size(), min_rank));
  return type;
}

double activation_flops(const OpInstance& instance, std::size_t attr_index) {
  const std::int64_t code = int_attr(instance, attr_index);
  switch (static_cast<Activation>(code)) {
    case Activation::kNone:
      return 0;
    case Activation::kRelu:
      return kReluFlops;
    case Activation::kSigmoid:
      return kSigmoidFlops;
    case Activation::kTanh:
      return kTanhFlops;
  }
  throw Error(
      fmt::format("cannot price {}: unknown activation code {}", op_name(instance.op), code));
}

}  // namespace

double operator_flops(const OpInstance& instance) {
  if (signature(instance.op).view) return 0;
  check_instance(instance);
  const double out = elements(instance.outputs[0]);
  switch (instance.op) {
    case Op::kMatmul: {
      const double k = static_cast<double>(input_of_rank(instance, 0, 2).shape.back());
      return 2 * out * k + activation_flops(instance, 0) * out;  // out = batch * m * n
    }
    case Op::kConv2d: {
      const Shape& w = input_of_rank(instance, 1, 4).shape;  // O, C / groups, KH, KW
      const double per_output =
          static_cast<double>(w[1]) * static_cast<double>(w[2]) * static_cast<double>(w[3]);
      return 2 * out * per_output + activation_flops(instance, 3) * out;  // out = N * O * Ho * Wo
    }
    case Op::kEwAdd:
    case Op::kEwMul:
    case Op::kEwSub:
    case Op::kEwDiv:
    case Op::kSmul:
      return out;
    case Op::kRelu:
      return kReluFlops * out;
    case Op::kTanh:
      return kTanhFlops * out;
    case Op::kSigmoid:
      return kSigmoidFlops * out;
    case Op::kClip:
      return kClipFlops * out;
    case Op::kSoftmax:
      return kSoftmaxFlops * out;
    case Op::kBatchNorm:
      return kBatchNormFlops * out;
    case Op::kLayerNorm:
      return kLayerNormFlops * out;
    case Op::kGelu:
      return (int_attr(instance, 0) == 1 ? kGeluTanhFlops : kGeluFlops) * out;
    case Op::kAttention: {
      const Shape& q = input_of_rank(instance, 0, 3).shape;  // B, S, D
      const Shape& k = input_of_rank(instance, 1, 3).shape;  // B, L, D
      const Shape& v = input_of_rank(instance, 2, 3).shape;  // B, L, E
      const double pairs = static_cast<double>(q[0]) * static_cast<double>(q[1]) *
                           static_cast<double>(k[1]);  // query-key pairs over the batch
      const double scores = pairs * static_cast<double>(int_attr(instance, 0));
      return 2 * pairs * static_cast<double>(q[2]) + 2 * pairs * static_cast<double>(v[2]) +
             kAttentionScoreFlops * scores;
    }
    case Op::kPoolMax:
    case Op::kPoolAvg: {
      const double window =
          static_cast<double>(int_attr(instance, 0)) * static_cast<double>(int_attr(instance, 1));
      return out * window + activation_flops(instance, 5) * out;
    }
    case Op::kGlobalAvgPool:
      return elements(instance.inputs[0]) + out;
    // Data movement only (their bytes are priced): no arithmetic. Views and leaves cost nothing.
    case Op::kInput:
    case Op::kWeight:
    case Op::kDropout:
    case Op::kIdentity:
    case Op::kTranspose:
    case Op::kReshape:
    case Op::kFlatten:
    case Op::kEnlarge:
    case Op::kConcat:
    case Op::kSplit:
    case Op::kMerge:
    case Op::kNoop:
    case Op::kOpaque:
      return 0;
  }
  // Every operator has a case above (no default: the compiler lists this switch for a new one).
  throw Error(fmt::format("cannot price operator {}: the roofline model has no FLOP count for it",
                          static_cast<int>(instance.op)));
}

namespace {
// Calls f(type) for every tensor the operator reads or writes. Enlarge reads only its kernel; its
// second input just supplies the target size.
template <class F>
void for_each_moved_tensor(const OpInstance& instance, F&& f) {
  const std::size_t inputs_read = instance.op == Op::kEnlarge ? 1 : instance.inputs.size();
  for (std::size_t i = 0; i < inputs_read; ++i) f(instance.inputs[i]);
  for (const TensorType& type : instance.outputs) f(type);
}
}  // namespace

double operator_bytes(const OpInstance& instance) {
  if (signature(instance.op).view) return 0;
  check_instance(instance);
  double bytes = 0;
  for_each_moved_tensor(instance, [&](const TensorType& type) { bytes += tensor_bytes(type); });
  return bytes;
}

double operator_compute_work(const OpInstance& instance) {
  if (signature(instance.op).view) return 0;
  check_instance(instance);
  if (instance.op == Op::kGlobalAvgPool) return elements(instance.inputs[0]);
  return elements(instance.outputs);
}

double operator_memory_work(const OpInstance& instance) {
  if (signature(instance.op).view) return 0;
  check_instance(instance);
  double moved = 0;
  for_each_moved_tensor(instance, [&](const TensorType& type) { moved += elements(type); });
  return moved;
}

double RooflineCostModel::Estimate::total_ms() const {
  return (std::max(compute_s, memory_s) + launch_s) * 1e3;
}

RooflineCostModel::RooflineCostModel(DeviceProfile profile) : profile_(std::move(profile)) {
  if (!(profile_.peak_flops > 0) || !(profile_.memory_bandwidth > 0) ||
      !(profile_.saturation_elements > 0) || !(profile_.launch_overhead_s >= 0))
    throw Error(
        fmt::format("device profile '{}' needs positive peak_flops, memory_bandwidth and "
                    "saturation_elements and a non-negative launch_overhead_s",
                    profile_.name));
}

RooflineCostModel::Estimate RooflineCostModel::estimate(const OpInstance& instance) const {
  Estimate estimate;
  if (signature(instance.op).view) return estimate;
  estimate.flops = operator_flops(instance);
  estimate.bytes = operator_bytes(instance);
  estimate.compute_work = std::max(operator_compute_work(instance), 1.0);
  estimate.memory_work = std::max(operator_memory_work(instance), 1.0);
  const double saturation = profile_.saturation_elements;
  estimate.compute_efficiency = estimate.compute_work / (estimate.compute_work + saturation);
  estimate.memory_efficiency = estimate.memory_work / (estimate.memory_work + saturation);
  estimate.compute_s = estimate.flops / (profile_.peak_flops * estimate.compute_efficiency);
  estimate.memory_s = estimate.bytes / (profile_.memory_bandwidth * estimate.memory_efficiency);
  estimate.launch_s = profile_.launch_overhead_s;
  return estimate;
}

std::string RooflineCostModel::name() const {
  return fmt::format("roofline({})", profile_.name);
}

}  // namespace mctsat::tensor
