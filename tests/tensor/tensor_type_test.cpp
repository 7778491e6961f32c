// Tests of element types, shape and type printing, and attribute kinds and printing.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensor/attr.hpp"
#include "tensor/tensor_type.hpp"

using namespace mctsat::tensor;

TEST_CASE("element type names and sizes") {
  struct Expected {
    DType dtype;
    const char* name;
    std::int64_t bytes;
  };
  const std::vector<Expected> all = {
      {DType::kFloat32, "f32", 4}, {DType::kFloat16, "f16", 2}, {DType::kFloat64, "f64", 8},
      {DType::kInt64, "i64", 8},   {DType::kInt32, "i32", 4},   {DType::kInt8, "i8", 1},
      {DType::kUInt8, "u8", 1},    {DType::kBool, "bool", 1},
  };
  for (const Expected& e : all) {
    CAPTURE(e.name);
    CHECK(dtype_name(e.dtype) == e.name);
    CHECK(dtype_bytes(e.dtype) == e.bytes);
    DType parsed = e.dtype == DType::kBool ? DType::kFloat32 : DType::kBool;
    REQUIRE(parse_dtype(e.name, parsed));
    CHECK(parsed == e.dtype);
  }
  DType untouched = DType::kInt8;
  CHECK_FALSE(parse_dtype("float32", untouched));
  CHECK_FALSE(parse_dtype("", untouched));
  CHECK_FALSE(parse_dtype("F32", untouched));
  CHECK(untouched == DType::kInt8);
}

TEST_CASE("numel, shape_string and type_string") {
  CHECK(numel({}) == 1);
  CHECK(numel({7}) == 7);
  CHECK(numel({1, 3, 224, 224}) == 150528);
  CHECK(shape_string({}) == "scalar");
  CHECK(shape_string({64, 1024}) == "64x1024");
  CHECK(shape_string({5}) == "5");
  CHECK(type_string({{64, 1024}, DType::kFloat32}) == "f32[64x1024]");
  CHECK(type_string({{2, 3, 4}, DType::kInt64}) == "i64[2x3x4]");
  CHECK(type_string({{}, DType::kBool}) == "bool[]");
  CHECK(TensorType{{2}, DType::kFloat32} != TensorType{{2}, DType::kFloat16});
  CHECK(TensorType{{2}, DType::kFloat32} != TensorType{{2, 1}, DType::kFloat32});
}

TEST_CASE("attribute kinds and printing") {
  const Attr integer = std::int64_t{-3};
  const Attr list = std::vector<std::int64_t>{1, 0, 2};
  const Attr empty = std::vector<std::int64_t>{};
  const Attr real = 0.5;
  CHECK(attr_kind(integer) == ParamKind::kInt);
  CHECK(attr_kind(list) == ParamKind::kInts);
  CHECK(attr_kind(real) == ParamKind::kFloat);
  CHECK(attr_string(integer) == "-3");
  CHECK(attr_string(list) == "[1,0,2]");
  CHECK(attr_string(empty) == "[]");
  CHECK(attr_string(real) == "0.5");
  CHECK(attr_int(integer) == -3);
  CHECK(attr_ints(list) == std::vector<std::int64_t>{1, 0, 2});
  CHECK(attr_float(real) == 0.5);
}
