// ONNX tensor and type conversions (see onnx_tensor.hpp).
#include "frontend/onnx_tensor.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "support/error.hpp"

namespace mctsat::frontend::onnx_io {
namespace {

using onnx::TensorProto;
using tensor::DType;

struct TypePair {
  TensorProto::DataType onnx;
  DType dtype;
};
constexpr TypePair kTypes[] = {
    {TensorProto::FLOAT, DType::kFloat32},  {TensorProto::FLOAT16, DType::kFloat16},
    {TensorProto::DOUBLE, DType::kFloat64}, {TensorProto::INT64, DType::kInt64},
    {TensorProto::INT32, DType::kInt32},    {TensorProto::INT8, DType::kInt8},
    {TensorProto::UINT8, DType::kUInt8},    {TensorProto::BOOL, DType::kBool},
};

// IEEE half precision <-> double (round to nearest even on the way in).
double half_to_double(std::uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude = 0;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 0x1f)
    magnitude = mantissa == 0 ? HUGE_VAL : NAN;
  else
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -magnitude : magnitude;
}

std::uint16_t double_to_half(double value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(static_cast<float>(value));
  const std::uint32_t sign = (f >> 16) & 0x8000;
  const int exponent = static_cast<int>((f >> 23) & 0xff) - 127 + 15;
  std::uint32_t mantissa = f & 0x7fffff;
  if (((f >> 23) & 0xff) == 0xff)
    return static_cast<std::uint16_t>(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 0x1f) return static_cast<std::uint16_t>(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<std::uint16_t>(sign);
    mantissa |= 0x800000;
    const int shift = 14 - exponent;
    std::uint32_t half = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1))) ++half;  // may carry into the exponent
  return static_cast<std::uint16_t>(sign | half);
}

template <class T>
void read_raw(const std::string& raw, std::vector<double>& out) {
  const std::size_t count = raw.size() / sizeof(T);
  out.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(value);
  }
}

template <class T>
void write_raw(const std::vector<double>& values, std::string& raw) {
  raw.resize(values.size() * sizeof(T));
  for (std::size_t i = 0; i < values.size(); ++i) {
    T value;
    if constexpr (std::is_floating_point_v<T>) {
      value = static_cast<T>(values[i]);
    } else {
      // Saturated: INT64_MAX (a common Slice bound) is 2^63 as a double, beyond int64.
      const double rounded = std::nearbyint(values[i]);
      if (std::isnan(rounded))
        value = 0;
      else if (rounded >= static_cast<double>(std::numeric_limits<T>::max()))
        value = std::numeric_limits<T>::max();
      else if (rounded <= static_cast<double>(std::numeric_limits<T>::min()))
        value = std::numeric_limits<T>::min();
      else
        value = static_cast<T>(rounded);
    }
    std::memcpy(raw.data() + i * sizeof(T), &value, sizeof(T));
  }
}

}  // namespace

std::optional<DType> dtype_from_onnx(std::int32_t elem_type) {
  for (const TypePair& pair : kTypes) {
    if (pair.onnx == elem_type) return pair.dtype;
  }
  return std::nullopt;
}

std::int32_t dtype_to_onnx(DType dtype) {
  for (const TypePair& pair : kTypes) {
    if (pair.dtype == dtype) return pair.onnx;
  }
  MCTSAT_ASSERT(false && "every DType has an ONNX type");
}

std::string onnx_type_name(std::int32_t elem_type) {
  return TensorProto::DataType_IsValid(elem_type)
             ? TensorProto::DataType_Name(static_cast<TensorProto::DataType>(elem_type))
             : fmt::format("type {}", elem_type);
}

void check_tensor_proto(const TensorProto& proto, const std::string& what) {
  std::uint64_t elements = 1;
  for (auto d : proto.dims()) {
    if (d < 0) throw Error(fmt::format("tensor '{}' has a negative dimension {}", what, d));
    if (d != 0 && elements > (std::uint64_t{1} << 62) / static_cast<std::uint64_t>(d))
      throw Error(fmt::format("tensor '{}' has more elements than can be counted", what));
    elements *= static_cast<std::uint64_t>(d);
  }
  if (proto.data_location() == TensorProto::EXTERNAL) return;
  // Bytes per element in raw_data, and how many values of its typed field make one element.
  std::uint64_t bytes = 0, values_per_element = 1;
  int typed = 0;
  switch (proto.data_type()) {
    case TensorProto::FLOAT:
      bytes = 4;
      typed = proto.float_data_size();
      break;
    case TensorProto::COMPLEX64:
      bytes = 8;
      values_per_element = 2;
      typed = proto.float_data_size();
      break;
    case TensorProto::DOUBLE:
      bytes = 8;
      typed = proto.double_data_size();
      break;
    case TensorProto::COMPLEX128:
      bytes = 16;
      values_per_element = 2;
      typed = proto.double_data_size();
      break;
    case TensorProto::INT64:
      bytes = 8;
      typed = proto.int64_data_size();
      break;
    case TensorProto::UINT32:
      bytes = 4;
      typed = proto.uint64_data_size();
      break;
    case TensorProto::UINT64:
      bytes = 8;
      typed = proto.uint64_data_size();
      break;
    case TensorProto::INT32:
      bytes = 4;
      typed = proto.int32_data_size();
      break;
    case TensorProto::INT16:
    case TensorProto::UINT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      bytes = 2;
      typed = proto.int32_data_size();
      break;
    case TensorProto::INT8:
    case TensorProto::UINT8:
    case TensorProto::BOOL:
      bytes = 1;
      typed = proto.int32_data_size();
      break;
    case TensorProto::STRING:
      typed = proto.string_data_size();
      break;
    default:
      return;  // a type mctsat has no reader for: refused where its values are needed
  }
  if (proto.has_raw_data() && bytes != 0) {
    if (proto.raw_data().size() != elements * bytes)
      throw Error(fmt::format("tensor '{}' has {} bytes of raw data, its {} elements need {}", what,
                              proto.raw_data().size(), elements, elements * bytes));
  } else if (static_cast<std::uint64_t>(typed) != elements * values_per_element) {
    throw Error(fmt::format("tensor '{}' holds {} values, its {} elements need {}", what, typed,
                            elements, elements * values_per_element));
  }
}

tensor::Tensor tensor_from_proto(const TensorProto& proto, const std::string& what) {
  check_tensor_proto(proto, what);
  if (proto.data_location() == TensorProto::EXTERNAL)
    throw Error(
        fmt::format("tensor '{}' keeps its data in an external file, which mctsat does not "
                    "read",
                    what));
  const auto dtype = dtype_from_onnx(proto.data_type());
  if (!dtype)
    throw Error(fmt::format("tensor '{}' has element type {}, which mctsat does not support", what,
                            onnx_type_name(proto.data_type())));
  tensor::Tensor out;
  out.shape.assign(proto.dims().begin(), proto.dims().end());  // checked by check_tensor_proto
  std::vector<double>& data = out.data;
  if (proto.has_raw_data()) {
    const std::string& raw = proto.raw_data();
    switch (*dtype) {
      case DType::kFloat32:
        read_raw<float>(raw, data);
        break;
      case DType::kFloat64:
        read_raw<double>(raw, data);
        break;
      case DType::kInt64:
        read_raw<std::int64_t>(raw, data);
        break;
      case DType::kInt32:
        read_raw<std::int32_t>(raw, data);
        break;
      case DType::kInt8:
        read_raw<std::int8_t>(raw, data);
        break;
      case DType::kUInt8:
      case DType::kBool:
        read_raw<std::uint8_t>(raw, data);
        break;
      case DType::kFloat16: {
        std::vector<double> bits;
        read_raw<std::uint16_t>(raw, bits);
        for (double b : bits) data.push_back(half_to_double(static_cast<std::uint16_t>(b)));
        break;
      }
    }
  } else {
    switch (*dtype) {
      case DType::kFloat32:
        data.assign(proto.float_data().begin(), proto.float_data().end());
        break;
      case DType::kFloat64:
        data.assign(proto.double_data().begin(), proto.double_data().end());
        break;
      case DType::kInt64:
        data.assign(proto.int64_data().begin(), proto.int64_data().end());
        break;
      case DType::kFloat16:
        for (auto b : proto.int32_data())
          data.push_back(half_to_double(static_cast<std::uint16_t>(b)));
        break;
      default:
        data.assign(proto.int32_data().begin(), proto.int32_data().end());
        break;
    }
  }
  return out;
}

void tensor_to_proto(const tensor::Tensor& value, DType dtype, TensorProto& proto) {
  proto.set_data_type(dtype_to_onnx(dtype));
  proto.clear_dims();
  for (auto d : value.shape) proto.add_dims(d);
  std::string& raw = *proto.mutable_raw_data();
  switch (dtype) {
    case DType::kFloat32:
      write_raw<float>(value.data, raw);
      break;
    case DType::kFloat64:
      write_raw<double>(value.data, raw);
      break;
    case DType::kInt64:
      write_raw<std::int64_t>(value.data, raw);
      break;
    case DType::kInt32:
      write_raw<std::int32_t>(value.data, raw);
      break;
    case DType::kInt8:
      write_raw<std::int8_t>(value.data, raw);
      break;
    case DType::kUInt8:
    case DType::kBool:
      write_raw<std::uint8_t>(value.data, raw);
      break;
    case DType::kFloat16: {
      std::vector<double> bits;
      for (double v : value.data) bits.push_back(double_to_half(v));
      write_raw<std::uint16_t>(bits, raw);
      break;
    }
  }
}

std::optional<tensor::TensorType> type_from_proto(const onnx::TypeProto& type,
                                                  std::string* dynamic) {
  auto unknown = [&](std::string why) -> std::optional<tensor::TensorType> {
    if (dynamic) *dynamic = std::move(why);
    return std::nullopt;
  };
  if (!type.has_tensor_type()) return unknown("it is not a tensor");
  const auto& tensor_type = type.tensor_type();
  const auto dtype = dtype_from_onnx(tensor_type.elem_type());
  if (!dtype)
    return unknown(tensor_type.elem_type() == TensorProto::UNDEFINED
                       ? std::string("its element type is unknown")
                       : fmt::format("its element type {} is not supported",
                                     onnx_type_name(tensor_type.elem_type())));
  if (!tensor_type.has_shape()) return unknown("its shape is unknown");
  tensor::TensorType out;
  out.dtype = *dtype;
  for (int i = 0; i < tensor_type.shape().dim_size(); ++i) {
    const auto& dim = tensor_type.shape().dim(i);
    if (dim.has_dim_value() && dim.dim_value() > 0) {
      out.shape.push_back(dim.dim_value());
    } else if (dim.has_dim_value()) {
      return unknown(fmt::format("dimension {} is {}", i, dim.dim_value()));
    } else if (dim.has_dim_param()) {
      return unknown(fmt::format("dimension {} is '{}'", i, dim.dim_param()));
    } else {
      return unknown(fmt::format("dimension {} is unknown", i));
    }
  }
  return out;
}

void type_to_proto(const tensor::TensorType& type, onnx::TypeProto& proto) {
  auto* tensor_type = proto.mutable_tensor_type();
  tensor_type->set_elem_type(dtype_to_onnx(type.dtype));
  auto* shape = tensor_type->mutable_shape();
  shape->clear_dim();
  for (auto d : type.shape) shape->add_dim()->set_dim_value(d);
}

}  // namespace mctsat::frontend::onnx_io
