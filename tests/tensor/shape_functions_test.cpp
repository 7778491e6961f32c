// Tests of the operator shape functions through their concrete instantiation (infer_types, and its
// quiet variant infer_types_into alongside): the output shapes of every operator, the element-type
// rules, signature checks and error messages, and the output_shapes encoding of opaque operators.
// Expected shapes are worked out by hand.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tensor/shape_inference.hpp"

using namespace mctsat::tensor;

namespace shape_functions_test {

Attr i(std::int64_t value) {
  return value;
}
Attr ints(std::vector<std::int64_t> values) {
  return values;
}
Attr real(double value) {
  return value;
}

TensorType f32(Shape shape) {
  return {std::move(shape), DType::kFloat32};
}
TensorType typed(Shape shape, DType dtype) {
  return {std::move(shape), dtype};
}

// infer_types, checked against infer_types_into (the quiet variant the e-graph's analysis uses):
// the same verdict and outputs, with one output buffer reused across every call of the tests.
InferResult infer(Op op, std::vector<TensorType> inputs, Attrs attrs = {},
                  DType leaf_dtype = DType::kFloat32) {
  InferResult result = infer_types(op, inputs, attrs, leaf_dtype);
  static std::vector<TensorType> reused;
  const bool ok = infer_types_into(op, inputs, attrs, leaf_dtype, reused);
  CHECK(ok == result.ok());
  if (ok && result.ok()) {
    REQUIRE(reused.size() == result.outputs.size());
    for (std::size_t k = 0; k < reused.size(); ++k) {
      CHECK(reused[k].shape == result.outputs[k].shape);
      CHECK(reused[k].dtype == result.outputs[k].dtype);
    }
  }
  return result;
}

// The single output shape of a successful inference (an empty marker shape otherwise, which no
// expected value below equals).
Shape shape_of(const InferResult& result) {
  CHECK_MESSAGE(result.ok(), "error: " << result.error);
  CHECK(result.outputs.size() == 1);
  if (!result.ok() || result.outputs.size() != 1) return {-1};
  return result.outputs[0].shape;
}

// Inference must fail and its message contain `text`.
#define CHECK_ERROR(expr, text)                                                                    \
  do {                                                                                             \
    const InferResult check_error_result = (expr);                                                 \
    CHECK_FALSE(check_error_result.ok());                                                          \
    CHECK(check_error_result.outputs.empty());                                                     \
    CHECK_MESSAGE(check_error_result.error.find(text) != std::string::npos,                        \
                  "error was: '" << check_error_result.error << "', expected '" << (text) << "'"); \
  } while (false)

TEST_CASE("input and weight take their shape attribute and the leaf element type") {
  CHECK(shape_of(infer(Op::kInput, {}, {ints({1, 3, 224, 224})})) == Shape{1, 3, 224, 224});
  CHECK(shape_of(infer(Op::kWeight, {}, {ints({64, 3, 7, 7})})) == Shape{64, 3, 7, 7});
  CHECK(shape_of(infer(Op::kInput, {}, {ints({})})) == Shape{});  // a scalar

  const auto ids = infer(Op::kInput, {}, {ints({8, 128})}, DType::kInt64);
  REQUIRE(ids.ok());
  CHECK(ids.outputs[0] == typed({8, 128}, DType::kInt64));
  const auto half = infer(Op::kWeight, {}, {ints({16})}, DType::kFloat16);
  REQUIRE(half.ok());
  CHECK(half.outputs[0].dtype == DType::kFloat16);

  CHECK_ERROR(infer(Op::kInput, {}, {ints({1, 0, 3})}),
              "shape dimension 1 must be positive, got 0");
  CHECK_ERROR(infer(Op::kWeight, {}, {ints({-2})}), "shape dimension 0 must be positive, got -2");
  CHECK_ERROR(infer(Op::kInput, {f32({2})}, {ints({2})}), "input takes 0 tensor inputs, got 1");
  CHECK_ERROR(infer(Op::kWeight, {}, {}), "weight takes 1 attribute, got 0");
  CHECK_ERROR(infer(Op::kInput, {}, {i(3)}),
              "input attribute shape must be an integer list, got an integer 3");
}

TEST_CASE("matmul: plain, batched with broadcast batch dimensions, and its errors") {
  CHECK(shape_of(infer(Op::kMatmul, {f32({64, 1024}), f32({1024, 512})}, {i(0)})) ==
        Shape{64, 512});
  // Batch dims [8,1] and [5] broadcast to [8,5].
  CHECK(shape_of(infer(Op::kMatmul, {f32({8, 1, 32, 64}), f32({5, 64, 16})}, {i(2)})) ==
        Shape{8, 5, 32, 16});
  CHECK(shape_of(infer(Op::kMatmul, {f32({2, 3, 4}), f32({4, 5})}, {i(3)})) == Shape{2, 3, 5});
  CHECK(shape_of(infer(Op::kMatmul, {f32({7, 4}), f32({6, 4, 9})}, {i(1)})) == Shape{6, 7, 9});

  CHECK_ERROR(infer(Op::kMatmul, {f32({64, 1024}), f32({512, 512})}, {i(0)}),
              "matmul: matmul inner dimensions differ: 1024 vs 512");
  CHECK_ERROR(infer(Op::kMatmul, {f32({4}), f32({4, 2})}, {i(0)}),
              "matmul needs operands of rank >= 2, got ranks 1 and 2");
  CHECK_ERROR(infer(Op::kMatmul, {f32({2, 3, 4}), f32({3, 4, 5})}, {i(0)}),
              "shapes do not broadcast: dimension 0 is 2 vs 3");
  CHECK_ERROR(infer(Op::kMatmul, {f32({2, 2}), f32({2, 2})}, {i(4)}),
              "attribute act = 4 is outside [0, 3]");
  CHECK_ERROR(infer(Op::kMatmul, {f32({2, 2}), f32({2, 2})}, {i(-1)}),
              "attribute act = -1 is outside [0, 3]");
  CHECK_ERROR(infer(Op::kMatmul, {f32({2, 2}), f32({2, 2})}, {ints({0})}),
              "matmul attribute act must be an integer, got an integer list [0]");
  CHECK_ERROR(infer(Op::kMatmul, {f32({2, 2})}, {i(0)}), "matmul takes 2 tensor inputs, got 1");
  CHECK_ERROR(infer(Op::kMatmul, {f32({2, 2}), f32({2, 2})}, {}),
              "matmul takes 1 attribute, got 0");
}

TEST_CASE("conv2d: SAME and VALID windows, strides, groups") {
  const auto conv = [](Shape x, Shape w, std::int64_t sh, std::int64_t sw, std::int64_t pad,
                       std::int64_t act = 0) {
    return infer(Op::kConv2d, {f32(std::move(x)), f32(std::move(w))},
                 {i(sh), i(sw), i(pad), i(act)});
  };
  // SAME: ceil(224 / 2) = 112. VALID: (224 - 7) / 2 + 1 = 109.
  CHECK(shape_of(conv({1, 3, 224, 224}, {64, 3, 7, 7}, 2, 2, 0, 2)) == Shape{1, 64, 112, 112});
  CHECK(shape_of(conv({1, 3, 224, 224}, {64, 3, 7, 7}, 2, 2, 1)) == Shape{1, 64, 109, 109});
  // SAME_LOWER has SAME's sizes, also with a kernel larger than the input.
  CHECK(shape_of(conv({1, 3, 224, 224}, {64, 3, 7, 7}, 2, 2, 2)) == Shape{1, 64, 112, 112});
  CHECK(shape_of(conv({1, 3, 5, 6}, {8, 3, 7, 7}, 1, 2, 2)) == Shape{1, 8, 5, 3});
  // SAME with an odd input: ceil(225 / 2) = 113; stride 1 keeps the size.
  CHECK(shape_of(conv({1, 3, 225, 225}, {8, 3, 3, 3}, 2, 2, 0)) == Shape{1, 8, 113, 113});
  CHECK(shape_of(conv({4, 64, 56, 56}, {64, 64, 3, 3}, 1, 1, 0, 3)) == Shape{4, 64, 56, 56});
  // Different strides and kernel sizes per axis: (32 - 3) / 1 + 1 = 30, (20 - 5) / 2 + 1 = 8.
  CHECK(shape_of(conv({2, 16, 32, 20}, {8, 16, 3, 5}, 1, 2, 1)) == Shape{2, 8, 30, 8});
  // Grouped: 64 input channels / 2 per group = 32 groups; 128 outputs = 4 per group.
  CHECK(shape_of(conv({1, 64, 56, 56}, {128, 2, 3, 3}, 1, 1, 0)) == Shape{1, 128, 56, 56});
  // Depthwise, stride 2: ceil(112 / 2) = 56.
  CHECK(shape_of(conv({1, 32, 112, 112}, {32, 1, 3, 3}, 2, 2, 0)) == Shape{1, 32, 56, 56});
  // SAME accepts a kernel larger than the input.
  CHECK(shape_of(conv({1, 3, 5, 5}, {8, 3, 7, 7}, 1, 1, 0)) == Shape{1, 8, 5, 5});
  // VALID with kernel == input gives 1x1.
  CHECK(shape_of(conv({1, 3, 7, 7}, {8, 3, 7, 7}, 3, 3, 1)) == Shape{1, 8, 1, 1});
}

TEST_CASE("conv2d errors") {
  const auto conv = [](Shape x, Shape w, Attrs attrs) {
    return infer(Op::kConv2d, {f32(std::move(x)), f32(std::move(w))}, std::move(attrs));
  };
  const Attrs same = {i(1), i(1), i(0), i(0)};
  const Attrs valid = {i(1), i(1), i(1), i(0)};
  CHECK_ERROR(conv({1, 6, 8, 8}, {4, 4, 3, 3}, same),
              "conv2d input channels 6 are not a multiple of the weight's 4 channels per group");
  CHECK_ERROR(conv({1, 8, 8, 8}, {6, 2, 3, 3}, same),
              "conv2d output channels 6 are not a multiple of the 4 groups");
  CHECK_ERROR(conv({1, 3, 5, 5}, {8, 3, 7, 7}, valid),
              "VALID padding needs input height (5) >= kernel height (7)");
  CHECK_ERROR(conv({1, 3, 8, 5}, {8, 3, 3, 7}, valid),
              "VALID padding needs input width (5) >= kernel width (7)");
  CHECK_ERROR(conv({1, 3, 8}, {8, 3, 3, 3}, same), "conv2d input must have rank 4, got rank 3");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3}, same), "conv2d weight must have rank 4, got rank 2");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3, 3, 3}, {i(0), i(1), i(0), i(0)}),
              "attribute stride_h = 0 is outside [1, 1048576]");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3, 3, 3}, {i(1), i(-3), i(0), i(0)}),
              "attribute stride_w = -3 is outside [1, 1048576]");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3, 3, 3}, {i(1), i(1), i(3), i(0)}),
              "attribute pad = 3 is outside [0, 2]");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3, 3, 3}, {i(1), i(1), i(0), i(4)}),
              "attribute act = 4 is outside [0, 3]");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3, 3, 3}, {i(1), i(1), i(0)}),
              "conv2d takes 4 attributes, got 3");
  CHECK_ERROR(conv({1, 3, 8, 8}, {8, 3, 3, 3}, {i(1), real(1.0), i(0), i(0)}),
              "conv2d attribute stride_w must be an integer, got a number 1");
}

TEST_CASE("elementwise binary operators broadcast like numpy") {
  for (Op op : {Op::kEwAdd, Op::kEwMul, Op::kEwSub, Op::kEwDiv}) {
    CAPTURE(op_name(op));
    CHECK(shape_of(infer(op, {f32({2, 3, 4}), f32({2, 3, 4})})) == Shape{2, 3, 4});
    CHECK(shape_of(infer(op, {f32({2, 3, 4}), f32({4})})) == Shape{2, 3, 4});
    CHECK(shape_of(infer(op, {f32({5, 1, 3}), f32({4, 1})})) == Shape{5, 4, 3});
    CHECK(shape_of(infer(op, {f32({1}), f32({6, 2})})) == Shape{6, 2});
    CHECK(shape_of(infer(op, {f32({}), f32({2, 2})})) == Shape{2, 2});
    CHECK_ERROR(infer(op, {f32({2, 3}), f32({3, 2})}),
                "shapes do not broadcast: dimension 0 is 2 vs 3");
    // Dimension indices count in the broadcast result: [4,3] vs [2,1,4] fails at index 2.
    CHECK_ERROR(infer(op, {f32({4, 3}), f32({2, 1, 4})}),
                "shapes do not broadcast: dimension 2 is 3 vs 4");
    CHECK_ERROR(infer(op, {f32({2})}), "takes 2 tensor inputs, got 1");
  }
}

TEST_CASE("smul multiplies by a one-element tensor") {
  CHECK(shape_of(infer(Op::kSmul, {f32({2, 3}), f32({1})})) == Shape{2, 3});
  CHECK(shape_of(infer(Op::kSmul, {f32({2, 3}), f32({})})) == Shape{2, 3});
  CHECK(shape_of(infer(Op::kSmul, {f32({7}), f32({1, 1, 1})})) == Shape{7});
  CHECK_ERROR(infer(Op::kSmul, {f32({2, 3}), f32({1, 2})}),
              "smul's second operand must have one element, got a dimension of 2");
}

TEST_CASE("unary operators keep the shape and element type") {
  for (Op op : {Op::kRelu, Op::kTanh, Op::kSigmoid, Op::kDropout, Op::kIdentity}) {
    CAPTURE(op_name(op));
    const auto result = infer(op, {typed({3, 5}, DType::kFloat64)});
    REQUIRE(result.ok());
    REQUIRE(result.outputs.size() == 1);
    CHECK(result.outputs[0] == typed({3, 5}, DType::kFloat64));
    CHECK_ERROR(infer(op, {f32({3}), f32({3})}), "takes 1 tensor input, got 2");
    CHECK_ERROR(infer(op, {f32({3})}, {i(1)}), "takes 0 attributes, got 1");
  }
}

TEST_CASE("clip takes two numbers and keeps the shape") {
  CHECK(shape_of(infer(Op::kClip, {f32({1, 2, 3})}, {real(0.0), real(6.0)})) == Shape{1, 2, 3});
  CHECK_ERROR(infer(Op::kClip, {f32({1})}, {i(0), real(6.0)}),
              "clip attribute min must be a number, got an integer 0");
  CHECK_ERROR(infer(Op::kClip, {f32({1})}, {real(0.0)}), "clip takes 2 attributes, got 1");
}

TEST_CASE("transpose permutes dimensions and checks the permutation") {
  CHECK(shape_of(infer(Op::kTranspose, {f32({2, 3, 4})}, {ints({2, 0, 1})})) == Shape{4, 2, 3});
  CHECK(shape_of(infer(Op::kTranspose, {f32({5, 7})}, {ints({1, 0})})) == Shape{7, 5});
  CHECK(shape_of(infer(Op::kTranspose, {f32({5, 7})}, {ints({0, 1})})) == Shape{5, 7});

  CHECK_ERROR(infer(Op::kTranspose, {f32({2, 3, 4})}, {ints({0, 0, 1})}),
              "transpose permutation repeats 0");
  CHECK_ERROR(infer(Op::kTranspose, {f32({2, 3, 4})}, {ints({0, 1, 3})}),
              "transpose permutation entry 3 is outside [0, 3)");
  CHECK_ERROR(infer(Op::kTranspose, {f32({2, 3, 4})}, {ints({-1, 0, 1})}),
              "transpose permutation entry -1 is outside [0, 3)");
  CHECK_ERROR(infer(Op::kTranspose, {f32({2, 3, 4})}, {ints({1, 0})}),
              "transpose permutation has 2 entries for a tensor of rank 3");
  CHECK_ERROR(infer(Op::kTranspose, {f32({2, 3})}, {i(1)}),
              "transpose attribute perm must be an integer list, got an integer 1");
}

TEST_CASE("reshape keeps the element count") {
  CHECK(shape_of(infer(Op::kReshape, {f32({2, 3, 4})}, {ints({6, 4})})) == Shape{6, 4});
  CHECK(shape_of(infer(Op::kReshape, {f32({4, 6})}, {ints({24})})) == Shape{24});
  CHECK(shape_of(infer(Op::kReshape, {f32({1})}, {ints({})})) == Shape{});
  CHECK_ERROR(infer(Op::kReshape, {f32({2, 3})}, {ints({7})}),
              "reshape changes the element count from 6 to 7");
  CHECK_ERROR(infer(Op::kReshape, {f32({2, 3})}, {ints({6, 0})}),
              "reshape target dimension 1 must be positive, got 0");
  CHECK_ERROR(infer(Op::kReshape, {f32({2, 3})}, {ints({-1, 3})}),
              "reshape target dimension 0 must be positive, got -1");
}

TEST_CASE("flatten splits the dimensions at the axis") {
  const Shape x = {2, 3, 4, 5};
  CHECK(shape_of(infer(Op::kFlatten, {f32(x)}, {i(0)})) == Shape{1, 120});
  CHECK(shape_of(infer(Op::kFlatten, {f32(x)}, {i(1)})) == Shape{2, 60});
  CHECK(shape_of(infer(Op::kFlatten, {f32(x)}, {i(2)})) == Shape{6, 20});
  CHECK(shape_of(infer(Op::kFlatten, {f32(x)}, {i(4)})) == Shape{120, 1});
  CHECK_ERROR(infer(Op::kFlatten, {f32(x)}, {i(5)}), "flatten axis 5 exceeds the rank 4");
  CHECK_ERROR(infer(Op::kFlatten, {f32(x)}, {i(9)}), "attribute axis = 9 is outside [0, 8]");
}

TEST_CASE("enlarge pads a kernel to the reference's kernel size") {
  CHECK(shape_of(infer(Op::kEnlarge, {f32({64, 32, 1, 1}), f32({64, 32, 3, 3})})) ==
        Shape{64, 32, 3, 3});
  CHECK(shape_of(infer(Op::kEnlarge, {f32({16, 8, 3, 3}), f32({32, 4, 5, 7})})) ==
        Shape{16, 8, 5, 7});
  CHECK_ERROR(infer(Op::kEnlarge, {f32({8, 8, 3, 3}), f32({8, 8, 4, 4})}),
              "enlarge cannot centre a kernel of size 3 in 4");
  CHECK_ERROR(infer(Op::kEnlarge, {f32({8, 8, 5, 5}), f32({8, 8, 3, 3})}),
              "enlarge cannot centre a kernel of size 5 in 3");
  CHECK_ERROR(infer(Op::kEnlarge, {f32({8, 8, 3, 1}), f32({8, 8, 3, 4})}),
              "enlarge cannot centre a kernel of size 1 in 4");
  CHECK_ERROR(infer(Op::kEnlarge, {f32({8, 8}), f32({8, 8, 3, 3})}),
              "enlarge kernel must have rank 4, got rank 2");
  CHECK_ERROR(infer(Op::kEnlarge, {f32({8, 8, 1, 1}), f32({8, 8, 3})}),
              "enlarge reference must have rank 4, got rank 3");
}

TEST_CASE("poolmax and poolavg windows") {
  for (Op op : {Op::kPoolMax, Op::kPoolAvg}) {
    CAPTURE(op_name(op));
    const auto pool = [op](Shape x, std::int64_t kh, std::int64_t kw, std::int64_t sh,
                           std::int64_t sw, std::int64_t pad, std::int64_t act = 0) {
      return infer(op, {f32(std::move(x))}, {i(kh), i(kw), i(sh), i(sw), i(pad), i(act)});
    };
    // SAME: ceil(112 / 2) = 56; VALID: (112 - 3) / 2 + 1 = 55.
    CHECK(shape_of(pool({1, 64, 112, 112}, 3, 3, 2, 2, 0)) == Shape{1, 64, 56, 56});
    CHECK(shape_of(pool({1, 64, 112, 111}, 3, 3, 2, 2, 2)) == Shape{1, 64, 56, 56});
    CHECK(shape_of(pool({1, 64, 112, 112}, 3, 3, 2, 2, 1, 2)) == Shape{1, 64, 55, 55});
    CHECK(shape_of(pool({1, 192, 35, 35}, 3, 3, 1, 1, 0)) == Shape{1, 192, 35, 35});
    // (10 - 2) / 2 + 1 = 5 and (9 - 3) / 3 + 1 = 3: the attributes are not mixed up.
    CHECK(shape_of(pool({2, 4, 10, 9}, 2, 3, 2, 3, 1)) == Shape{2, 4, 5, 3});
    // SAME with strides 3 and 1: ceil(10 / 3) = 4, 9.
    CHECK(shape_of(pool({2, 4, 10, 9}, 5, 2, 3, 1, 0)) == Shape{2, 4, 4, 9});

    CHECK_ERROR(pool({1, 1, 2, 2}, 3, 1, 1, 1, 1),
                "VALID padding needs input height (2) >= kernel height (3)");
    CHECK_ERROR(pool({1, 1, 4, 2}, 1, 3, 1, 1, 1),
                "VALID padding needs input width (2) >= kernel width (3)");
    CHECK_ERROR(pool({1, 4, 4}, 2, 2, 2, 2, 0), "pooling input must have rank 4, got rank 3");
    CHECK_ERROR(pool({1, 1, 4, 4}, 0, 2, 2, 2, 0),
                "attribute kernel_h = 0 is outside [1, 1048576]");
    CHECK_ERROR(pool({1, 1, 4, 4}, 2, 2, 2, 0, 0),
                "attribute stride_w = 0 is outside [1, 1048576]");
    CHECK_ERROR(pool({1, 1, 4, 4}, 2, 2, 2, 2, 0, 7), "attribute act = 7 is outside [0, 3]");
    CHECK_ERROR(pool({1, 1, 4, 4}, 2, 2, 2, 2, -1), "attribute pad = -1 is outside [0, 2]");
  }
}

TEST_CASE("globalavgpool reduces every spatial dimension to 1") {
  CHECK(shape_of(infer(Op::kGlobalAvgPool, {f32({1, 2048, 7, 7})})) == Shape{1, 2048, 1, 1});
  CHECK(shape_of(infer(Op::kGlobalAvgPool, {f32({2, 5, 9})})) == Shape{2, 5, 1});
  CHECK(shape_of(infer(Op::kGlobalAvgPool, {f32({2, 3, 4, 5, 6})})) == Shape{2, 3, 1, 1, 1});
  CHECK_ERROR(infer(Op::kGlobalAvgPool, {f32({2, 5})}),
              "globalavgpool needs rank >= 3, got rank 2");
}

TEST_CASE("concat joins any number of inputs along the axis") {
  CHECK(shape_of(infer(Op::kConcat,
                       {f32({1, 64, 28, 28}), f32({1, 32, 28, 28}), f32({1, 16, 28, 28})},
                       {i(1), i(4)})) == Shape{1, 112, 28, 28});
  CHECK(shape_of(infer(Op::kConcat, {f32({2, 3}), f32({5, 3})}, {i(0), i(2)})) == Shape{7, 3});
  CHECK(shape_of(infer(Op::kConcat, {f32({2, 3})}, {i(0), i(2)})) == Shape{2, 3});
  CHECK(shape_of(infer(Op::kConcat, {f32({4, 1}), f32({4, 2}), f32({4, 3}), f32({4, 4})},
                       {i(1), i(2)})) == Shape{4, 10});

  CHECK_ERROR(infer(Op::kConcat, {f32({1, 2, 3, 4}), f32({1, 2, 3, 4})}, {i(1), i(3)}),
              "concat declares rank 3 and axis 1 but its first input has rank 4");
  CHECK_ERROR(infer(Op::kConcat, {f32({2, 3}), f32({2, 3})}, {i(2), i(2)}),
              "concat declares rank 2 and axis 2 but its first input has rank 2");
  CHECK_ERROR(infer(Op::kConcat, {f32({2, 3}), f32({2, 3}), f32({2, 3, 1})}, {i(0), i(2)}),
              "concat input 2 has rank 3, the first has rank 2");
  CHECK_ERROR(infer(Op::kConcat, {f32({1, 64, 28, 28}), f32({1, 32, 14, 28})}, {i(1), i(4)}),
              "concat input 1 differs in dimension 2: 14 vs 28");
  CHECK_ERROR(infer(Op::kConcat, {}, {i(0), i(2)}), "concat takes at least 1 tensor input, got 0");
  CHECK_ERROR(infer(Op::kConcat, {f32({2})}, {i(0), i(0)}), "attribute ndim = 0 is outside [1, 8]");
  CHECK_ERROR(infer(Op::kConcat, {f32({2})}, {i(-1), i(1)}),
              "attribute axis = -1 is outside [0, 7]");
}

TEST_CASE("split gives one output per size") {
  const auto three =
      infer(Op::kSplit, {typed({1, 96, 28, 28}, DType::kFloat16)}, {i(1), ints({16, 32, 48})});
  REQUIRE(three.ok());
  REQUIRE(three.outputs.size() == 3);
  CHECK(three.outputs[0] == typed({1, 16, 28, 28}, DType::kFloat16));
  CHECK(three.outputs[1] == typed({1, 32, 28, 28}, DType::kFloat16));
  CHECK(three.outputs[2] == typed({1, 48, 28, 28}, DType::kFloat16));

  const auto rows = infer(Op::kSplit, {f32({6, 4})}, {i(0), ints({1, 5})});
  REQUIRE(rows.ok());
  REQUIRE(rows.outputs.size() == 2);
  CHECK(rows.outputs[0].shape == Shape{1, 4});
  CHECK(rows.outputs[1].shape == Shape{5, 4});

  CHECK(shape_of(infer(Op::kSplit, {f32({6, 4})}, {i(1), ints({4})})) == Shape{6, 4});

  CHECK_ERROR(infer(Op::kSplit, {f32({1, 96, 28, 28})}, {i(1), ints({32, 32, 26})}),
              "split sizes add up to 90 but the axis has 96");
  CHECK_ERROR(infer(Op::kSplit, {f32({6, 4})}, {i(2), ints({2, 2})}),
              "split axis 2 is not below the rank 2");
  CHECK_ERROR(infer(Op::kSplit, {f32({6, 4})}, {i(0), ints({})}), "split needs at least one size");
  CHECK_ERROR(infer(Op::kSplit, {f32({6, 4})}, {i(0), ints({6, 0})}),
              "split size dimension 1 must be positive, got 0");
  CHECK_ERROR(infer(Op::kSplit, {f32({6, 4})}, {ints({2}), ints({3, 3})}),
              "split attribute axis must be an integer, got an integer list [2]");
}

TEST_CASE("merge joins groups of a grouped-convolution kernel") {
  // 64 / 16 = 4 groups: joined 2 at a time or all 4 at once.
  CHECK(shape_of(infer(Op::kMerge, {f32({64, 16, 3, 3})}, {i(2)})) == Shape{64, 32, 3, 3});
  CHECK(shape_of(infer(Op::kMerge, {f32({64, 16, 3, 3})}, {i(4)})) == Shape{64, 64, 3, 3});
  CHECK(shape_of(infer(Op::kMerge, {f32({32, 1, 1, 5})}, {i(8)})) == Shape{32, 8, 1, 5});

  CHECK_ERROR(
      infer(Op::kMerge, {f32({64, 16, 3, 3})}, {i(3)}),
      "merge cannot join 3 groups of a kernel with 64 output and 16 input channels per group");
  CHECK_ERROR(infer(Op::kMerge, {f32({10, 4, 3, 3})}, {i(1)}), "merge cannot join 1 groups");
  CHECK_ERROR(infer(Op::kMerge, {f32({64, 16, 3, 3})}, {i(0)}),
              "attribute count = 0 is outside [1, 1048576]");
  CHECK_ERROR(infer(Op::kMerge, {f32({64, 16, 3})}, {i(2)}),
              "merge kernel must have rank 4, got rank 3");
}

TEST_CASE("batchnorm takes one parameter entry per channel") {
  const TensorType c64 = f32({64});
  CHECK(shape_of(infer(Op::kBatchNorm, {f32({1, 64, 56, 56}), c64, c64, c64, c64})) ==
        Shape{1, 64, 56, 56});
  CHECK(shape_of(infer(Op::kBatchNorm, {f32({8, 10}), f32({10}), f32({10}), f32({10}),
                                        f32({10})})) == Shape{8, 10});

  CHECK_ERROR(infer(Op::kBatchNorm, {f32({1, 64, 56, 56}), c64, c64, f32({32}), c64}),
              "batchnorm parameter 3 has 32 entries for 64 channels");
  CHECK_ERROR(infer(Op::kBatchNorm, {f32({1, 64, 56, 56}), f32({1, 64}), c64, c64, c64}),
              "batchnorm parameter must have rank 1, got rank 2");
  CHECK_ERROR(infer(Op::kBatchNorm, {f32({64}), c64, c64, c64, c64}),
              "batchnorm needs rank >= 2, got rank 1");
  CHECK_ERROR(infer(Op::kBatchNorm, {f32({1, 64, 56, 56}), c64, c64, c64}),
              "batchnorm takes 5 tensor inputs, got 4");
}

TEST_CASE("softmax checks its axis") {
  CHECK(shape_of(infer(Op::kSoftmax, {f32({8, 10})}, {i(1)})) == Shape{8, 10});
  CHECK(shape_of(infer(Op::kSoftmax, {f32({8, 10})}, {i(0)})) == Shape{8, 10});
  CHECK_ERROR(infer(Op::kSoftmax, {f32({8, 10})}, {i(2)}),
              "softmax axis 2 is not below the rank 2");
  CHECK_ERROR(infer(Op::kSoftmax, {f32({8, 10})}, {i(8)}), "attribute axis = 8 is outside [0, 7]");
  CHECK(shape_of(infer(Op::kLayerNorm, {f32({2, 4, 8}), f32({8}), f32({8})}, {1e-5})) ==
        Shape{2, 4, 8});
  CHECK_ERROR(infer(Op::kLayerNorm, {f32({2, 4, 8}), f32({4}), f32({8})}, {1e-5}),
              "layernorm scale has 4 entries for a last axis of 8");
  CHECK_ERROR(infer(Op::kLayerNorm, {f32({2, 4, 8}), f32({8}), f32({1, 8})}, {1e-5}),
              "layernorm bias");
  CHECK(shape_of(infer(Op::kGelu, {f32({3, 5})}, {i(1)})) == Shape{3, 5});
}

TEST_CASE("attention checks its operands, heads and bias") {
  const Attrs two_heads = {i(2), i(0), 0.5};
  CHECK(shape_of(infer(Op::kAttention,
                       {f32({2, 5, 8}), f32({2, 7, 8}), f32({2, 7, 6}), f32({2, 1, 1, 7})},
                       two_heads)) == Shape{2, 5, 6});
  CHECK(shape_of(infer(Op::kAttention, {f32({2, 5, 8}), f32({2, 7, 8}), f32({2, 7, 6}), f32({7})},
                       two_heads)) == Shape{2, 5, 6});
  CHECK_ERROR(infer(Op::kAttention,
                    {f32({2, 5, 8}), f32({2, 7, 4}), f32({2, 7, 6}), f32({1, 1, 1, 1})}, two_heads),
              "attention operands do not fit");
  CHECK_ERROR(
      infer(Op::kAttention, {f32({2, 5, 8}), f32({2, 5, 8}), f32({2, 5, 8}), f32({1, 1, 1, 1})},
            {i(3), i(0), 0.5}),
      "attention widths 8 and 8 are not multiples of 3 heads");
  CHECK_ERROR(
      infer(Op::kAttention, {f32({2, 5, 8}), f32({2, 7, 8}), f32({2, 7, 8}), f32({1, 1, 1, 1})},
            {i(2), i(1), 0.5}),
      "causal attention needs as many keys as queries");
  CHECK_ERROR(infer(Op::kAttention,
                    {f32({2, 5, 8}), f32({2, 7, 8}), f32({2, 7, 8}), f32({1, 3, 1, 1})}, two_heads),
              "attention bias dimension 1 is 3, neither 1 nor the scores' 2");
  CHECK_ERROR(infer(Op::kAttention, {f32({2, 5}), f32({2, 5}), f32({2, 5}), f32({1})}, two_heads),
              "attention query must have rank 3");
}

TEST_CASE("noop joins two tensors into one scalar output") {
  const auto result = infer(Op::kNoop, {typed({2, 3}, DType::kInt8), f32({4})});
  REQUIRE(result.ok());
  REQUIRE(result.outputs.size() == 1);
  CHECK(result.outputs[0] == typed({}, DType::kInt8));
  CHECK_ERROR(infer(Op::kNoop, {f32({2})}), "noop takes 2 tensor inputs, got 1");
}

TEST_CASE("opaque operators carry their output types") {
  // f32[1x3x5] and i64[2]: dtype code, rank, dims per output.
  const auto two =
      infer(Op::kOpaque, {typed({1, 3, 5}, DType::kInt32)}, {i(7), ints({0, 3, 1, 3, 5, 3, 1, 2})});
  REQUIRE(two.ok());
  REQUIRE(two.outputs.size() == 2);
  CHECK(two.outputs[0] == typed({1, 3, 5}, DType::kFloat32));  // not the input's i32
  CHECK(two.outputs[1] == typed({2}, DType::kInt64));
  const auto scalar = infer(Op::kOpaque, {f32({4}), f32({4}), f32({4})}, {i(0), ints({7, 0})});
  REQUIRE(scalar.ok());
  REQUIRE(scalar.outputs.size() == 1);
  CHECK(scalar.outputs[0] == typed({}, DType::kBool));

  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), ints({0, 3, 1, 3})}),
              "output_shapes is malformed at entry 0");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), ints({0, 1, 4, 9, 1, 4})}),
              "output_shapes is malformed at entry 3");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), ints({0, -1})}),
              "output_shapes is malformed at entry 0");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), ints({0, 1, 4, 0})}),
              "output_shapes is malformed at entry 3");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), ints({0, 2, 3, 0})}),
              "output_shapes holds a non-positive dimension 0");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), ints({})}),
              "output_shapes describes no output");
  CHECK_ERROR(
      infer(Op::kOpaque, {f32({4})}, {i(0), ints({0, std::numeric_limits<std::int64_t>::max()})}),
      "output_shapes is malformed at entry 0");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(-1), ints({0, 1, 4})}),
              "opaque: attribute id = -1 is outside [0, 9223372036854775807]");
  CHECK_ERROR(infer(Op::kOpaque, {}, {i(0), ints({0, 1, 4})}),
              "opaque takes at least 1 tensor input, got 0");
  CHECK_ERROR(infer(Op::kOpaque, {f32({4})}, {i(0), i(4)}),
              "opaque attribute output_shapes must be an integer list, got an integer 4");
}

TEST_CASE("non-leaf operators take their first input's element type") {
  const auto mm =
      infer(Op::kMatmul, {typed({2, 3}, DType::kFloat16), f32({3, 4})}, {i(0)}, DType::kInt8);
  REQUIRE(mm.ok());
  CHECK(mm.outputs[0] == typed({2, 4}, DType::kFloat16));
  const auto add = infer(Op::kEwAdd, {typed({2}, DType::kInt64), typed({2}, DType::kInt32)});
  REQUIRE(add.ok());
  CHECK(add.outputs[0].dtype == DType::kInt64);
  const auto cat =
      infer(Op::kConcat, {typed({2}, DType::kUInt8), f32({3})}, {i(0), i(1)}, DType::kFloat64);
  REQUIRE(cat.ok());
  CHECK(cat.outputs[0] == typed({5}, DType::kUInt8));
  // leaf_dtype only applies to leaves.
  const auto relu = infer(Op::kRelu, {f32({2})}, {}, DType::kInt64);
  REQUIRE(relu.ok());
  CHECK(relu.outputs[0].dtype == DType::kFloat32);
}

TEST_CASE("encode_output_types and decode_output_types round-trip") {
  const std::vector<TensorType> types = {typed({1, 3, 224, 224}, DType::kFloat32),
                                         typed({}, DType::kInt64), typed({5, 1}, DType::kBool)};
  const std::vector<std::int64_t> encoded = encode_output_types(types);
  CHECK(encoded == std::vector<std::int64_t>{0, 4, 1, 3, 224, 224, 3, 0, 7, 2, 5, 1});

  std::vector<TensorType> decoded = {f32({9})};  // replaced, not appended to
  std::string error;
  REQUIRE(decode_output_types(encoded, decoded, error));
  CHECK(error.empty());
  CHECK(decoded == types);

  CHECK(encode_output_types(std::vector<TensorType>{typed({2, 2}, DType::kFloat16)}) ==
        std::vector<std::int64_t>{1, 2, 2, 2});
  CHECK(encode_output_types(std::vector<TensorType>{}).empty());

  CHECK_FALSE(decode_output_types(std::vector<std::int64_t>{8, 1, 2}, decoded, error));
  CHECK(error.find("malformed at entry 0") != std::string::npos);
  CHECK_FALSE(decode_output_types(std::vector<std::int64_t>{0}, decoded, error));
  CHECK(error.find("malformed at entry 0") != std::string::npos);
}

TEST_CASE("huge shapes are rejected instead of overflowing") {
  using mctsat::tensor::infer_types;
  const std::int64_t big = std::int64_t{1} << 32;
  const auto leaf = infer_types(Op::kInput, {}, {Shape{big, big}});
  CHECK(leaf.error == "input: the output 4294967296x4294967296 has more than 2^40 elements");
  const TensorType x{{1 << 20, 1 << 20}, DType::kFloat32};
  const auto reshape =
      infer_types(Op::kReshape, std::vector<TensorType>{x}, {Shape{big, big, big}});
  CHECK(reshape.error ==
        "reshape: reshape changes the element count from 1099511627776 to 9223372036854775807");
  const auto concat =
      infer_types(Op::kConcat, std::vector<TensorType>{x, x}, {std::int64_t{0}, std::int64_t{2}});
  CHECK(concat.error == "concat: the output 2097152x1048576 has more than 2^40 elements");
}

}  // namespace shape_functions_test
