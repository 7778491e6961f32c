// Tests of the reference interpreter and its kernels: every operator against small hand-computed
// cases, the conv-kernel transforms against the convolutions they stand for, errors, and the
// determinism of seeded random values.
#include "tensor/interpreter.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <string>

#include "support/error.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {
namespace {

// Values start, start + 1, ... in row-major order.
Tensor iota(Shape shape, double start = 1.0) {
  Tensor t(std::move(shape));
  for (std::size_t i = 0; i < t.size(); ++i) t.data[i] = start + static_cast<double>(i);
  return t;
}

void check_tensor(const Tensor& got, const Shape& shape, const std::vector<double>& want,
                  double epsilon = 1e-12) {
  CHECK(shape_string(got.shape) == shape_string(shape));
  REQUIRE(got.data.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(got.data[i] == doctest::Approx(want[i]).epsilon(epsilon));
  }
}

void check_same(const Tensor& got, const Tensor& want, double epsilon = 1e-12) {
  check_tensor(got, want.shape, want.data, epsilon);
}

// A graph with one input node per argument ("x0", "x1", ...) feeding one `op` node whose outputs
// are the graph outputs; runs it through the interpreter.
std::vector<Tensor> run_op(Op op, const std::vector<Tensor>& args, Attrs attrs) {
  GraphBuilder builder;
  std::vector<TensorRef> refs;
  std::map<std::string, Tensor> inputs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string name = fmt::format("x{}", i);
    refs.push_back(builder.input(name, args[i].shape));
    inputs[name] = args[i];
  }
  const auto outs = builder.add(op, refs, std::move(attrs), "op");
  for (std::size_t i = 0; i < outs.size(); ++i) builder.output(fmt::format("y{}", i), outs[i]);
  const Graph graph = std::move(builder).finish();
  return interpret(graph, inputs);
}

Tensor run1(Op op, const std::vector<Tensor>& args, Attrs attrs) {
  auto outs = run_op(op, args, std::move(attrs));
  REQUIRE(outs.size() == 1);
  return outs[0];
}

std::int64_t code(Padding pad) {
  return static_cast<std::int64_t>(pad);
}
std::int64_t code(Activation act) {
  return static_cast<std::int64_t>(act);
}

Tensor conv(const Tensor& x, const Tensor& w, std::int64_t stride_h, std::int64_t stride_w,
            Padding pad, Activation act = Activation::kNone) {
  return run1(Op::kConv2d, {x, w}, {stride_h, stride_w, code(pad), code(act)});
}

Tensor pool(Op op, const Tensor& x, std::int64_t kh, std::int64_t kw, std::int64_t sh,
            std::int64_t sw, Padding pad, Activation act = Activation::kNone) {
  return run1(op, {x}, {kh, kw, sh, sw, code(pad), code(act)});
}

template <class F>
Error error_of(F&& f) {
  try {
    f();
  } catch (const Error& error) {
    return error;
  }
  FAIL("expected an mctsat::Error");
  return Error("");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// [-1, 0, 1] after each activation code.
constexpr double kSigmoidMinus1 = 0.2689414213699951, kSigmoid1 = 0.7310585786300049;
constexpr double kTanh1 = 0.7615941559557649;
const std::vector<std::vector<double>> kActivated = {
    {-1.0, 0.0, 1.0},                  // none
    {kSigmoidMinus1, 0.5, kSigmoid1},  // sigmoid
    {0.0, 0.0, 1.0},                   // relu
    {-kTanh1, 0.0, kTanh1},            // tanh
};

}  // namespace

TEST_CASE("matmul multiplies matrices") {
  const Tensor a({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor b({3, 2}, {7, 8, 9, 10, 11, 12});
  check_tensor(run1(Op::kMatmul, {a, b}, {std::int64_t{0}}), {2, 2}, {58, 64, 139, 154});
}

TEST_CASE("matmul applies each activation code") {
  // [1, -1] x [[1, 0, 2], [2, 0, 1]] = [-1, 0, 1]
  const Tensor a({1, 2}, {1, -1});
  const Tensor b({2, 3}, {1, 0, 2, 2, 0, 1});
  for (std::int64_t act = 0; act < 4; ++act) {
    INFO("act " << act);
    check_tensor(run1(Op::kMatmul, {a, b}, {act}), {1, 3},
                 kActivated[static_cast<std::size_t>(act)]);
  }
}

TEST_CASE("batched matmul broadcasts batch dimensions") {
  SUBCASE("both operands batched: [2,1] x [3] -> [2,3]") {
    // a0 = identity, a1 = row swap; b_j = consecutive 2x2 blocks of 1..12.
    const Tensor a({2, 1, 2, 2}, {1, 0, 0, 1, 0, 1, 1, 0});
    const Tensor b = iota({3, 2, 2});
    check_tensor(run1(Op::kMatmul, {a, b}, {std::int64_t{0}}), {2, 3, 2, 2},
                 {1, 2, 3, 4, 5, 6, 7, 8, 9,  10, 11, 12,    // a0 * b_j = b_j
                  3, 4, 1, 2, 7, 8, 5, 6, 11, 12, 9,  10});  // a1 * b_j swaps b_j's rows
  }
  SUBCASE("a rank-2 operand against a batched one") {
    const Tensor a({1, 2}, {1, 2});
    const Tensor b({2, 2, 1}, {3, 4, 5, 6});
    check_tensor(run1(Op::kMatmul, {a, b}, {std::int64_t{0}}), {2, 1, 1}, {11, 17});
  }
  SUBCASE("a batched left operand against a rank-2 one") {
    const Tensor a({2, 1, 2}, {1, 2, 3, 4});
    const Tensor b({2, 1}, {1, -1});
    check_tensor(run1(Op::kMatmul, {a, b}, {std::int64_t{2}}), {2, 1, 1}, {0, 0});
    check_tensor(run1(Op::kMatmul, {a, b}, {std::int64_t{0}}), {2, 1, 1}, {-1, -1});
  }
}

TEST_CASE("conv2d with VALID padding") {
  const Tensor x = iota({1, 1, 3, 3});
  const Tensor w({1, 1, 2, 2}, {1, 2, 3, 4});
  check_tensor(conv(x, w, 1, 1, Padding::kValid), {1, 1, 2, 2}, {37, 47, 67, 77});
}

TEST_CASE("conv2d with SAME padding puts the odd padding cell at the end") {
  // 3x3 input, 2x2 kernel: total padding 1, all of it after the last row and column.
  const Tensor x = iota({1, 1, 3, 3});
  const Tensor w({1, 1, 2, 2}, {1, 2, 3, 4});
  check_tensor(conv(x, w, 1, 1, Padding::kSame), {1, 1, 3, 3}, {37, 47, 21, 67, 77, 33, 23, 26, 9});
}

TEST_CASE("conv2d with SAME_LOWER padding puts the odd padding cell at the start") {
  // 3x3 input, 2x2 kernel: total padding 1, all of it before the first row and column.
  const Tensor x = iota({1, 1, 3, 3});
  const Tensor w({1, 1, 2, 2}, {1, 2, 3, 4});
  check_tensor(conv(x, w, 1, 1, Padding::kSameLower), {1, 1, 3, 3},
               {4, 11, 18, 18, 37, 47, 36, 67, 77});
  // An even total pads both sides, as SAME does.
  const Tensor ones({1, 1, 3, 3}, 1.0);
  check_tensor(conv(x, ones, 1, 1, Padding::kSameLower), {1, 1, 3, 3},
               {12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST_CASE("conv2d with SAME padding and an even total pads both sides") {
  // 3x3 input, 3x3 kernel of ones: total padding 2, one each side -> neighbourhood sums.
  const Tensor x = iota({1, 1, 3, 3});
  const Tensor w({1, 1, 3, 3}, 1.0);
  check_tensor(conv(x, w, 1, 1, Padding::kSame), {1, 1, 3, 3},
               {12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST_CASE("conv2d with strides") {
  const Tensor x = iota({1, 1, 4, 4});
  SUBCASE("SAME, stride 2: out 2x2, total padding 1 at the end") {
    const Tensor w({1, 1, 3, 3}, 1.0);
    check_tensor(conv(x, w, 2, 2, Padding::kSame), {1, 1, 2, 2}, {54, 45, 72, 54});
  }
  SUBCASE("SAME_LOWER, stride 2: out 2x2, total padding 1 at the start") {
    const Tensor w({1, 1, 3, 3}, 1.0);
    check_tensor(conv(x, w, 2, 2, Padding::kSameLower), {1, 1, 2, 2}, {14, 30, 57, 99});
  }
  SUBCASE("VALID, stride 1 x 2") {
    const Tensor w({1, 1, 2, 2}, {1, 2, 3, 4});
    check_tensor(conv(x, w, 1, 2, Padding::kValid), {1, 1, 3, 2}, {44, 64, 84, 104, 124, 144});
  }
}

TEST_CASE("conv2d mixes input channels and handles batches") {
  const Tensor x = iota({1, 2, 2, 2});  // channel 0 = 1..4, channel 1 = 5..8
  const Tensor w({2, 2, 1, 1}, {1, 2, -1, 1});
  // out0 = c0 + 2 c1, out1 = c1 - c0
  check_tensor(conv(x, w, 1, 1, Padding::kValid), {1, 2, 2, 2}, {11, 14, 17, 20, 4, 4, 4, 4});

  const Tensor batch = iota({2, 1, 1, 2});
  check_tensor(conv(batch, Tensor({1, 1, 1, 1}, {-3}), 1, 1, Padding::kSame), {2, 1, 1, 2},
               {-3, -6, -9, -12});
}

TEST_CASE("conv2d with groups") {
  SUBCASE("depthwise") {
    const Tensor x = iota({1, 2, 2, 2});
    check_tensor(conv(x, Tensor({2, 1, 1, 1}, {2, 3}), 1, 1, Padding::kValid), {1, 2, 2, 2},
                 {2, 4, 6, 8, 15, 18, 21, 24});
  }
  SUBCASE("depthwise with channel multiplier 2") {
    const Tensor x = iota({1, 2, 2, 2});
    check_tensor(conv(x, Tensor({4, 1, 1, 1}, {1, 2, 3, 4}), 1, 1, Padding::kValid), {1, 4, 2, 2},
                 {1, 2, 3, 4, 2, 4, 6, 8, 15, 18, 21, 24, 20, 24, 28, 32});
  }
  SUBCASE("two groups of two channels") {
    const Tensor x({1, 4, 1, 1}, {1, 2, 3, 4});
    // group 0 (channels 0, 1) -> out 0 = 1 + 2; group 1 (channels 2, 3) -> out 1 = 3 - 4
    check_tensor(conv(x, Tensor({2, 2, 1, 1}, {1, 1, 1, -1}), 1, 1, Padding::kValid), {1, 2, 1, 1},
                 {3, -1});
  }
  SUBCASE("grouped 3x3 with SAME padding") {
    // Two groups of one channel, one output each: out0 = neighbourhood sums of channel 0,
    // out1 = -(centre of channel 1).
    Tensor x({1, 2, 3, 3});
    for (std::size_t i = 0; i < 9; ++i) x.data[i] = static_cast<double>(i + 1);
    for (std::size_t i = 9; i < 18; ++i) x.data[i] = 10.0 * static_cast<double>(i - 8);
    Tensor w({2, 1, 3, 3}, 1.0);
    for (std::size_t i = 9; i < 18; ++i) w.data[i] = 0.0;
    w.data[13] = -1.0;
    check_tensor(conv(x, w, 1, 1, Padding::kSame), {1, 2, 3, 3},
                 {12, 21, 16, 27, 45, 33, 24, 39, 28, -10, -20, -30, -40, -50, -60, -70, -80, -90});
  }
}

TEST_CASE("conv2d applies each activation code") {
  const Tensor x({1, 1, 1, 3}, {-1, 0, 1});
  const Tensor w({1, 1, 1, 1}, {1});
  for (std::int64_t act = 0; act < 4; ++act) {
    INFO("act " << act);
    check_tensor(conv(x, w, 1, 1, Padding::kValid, static_cast<Activation>(act)), {1, 1, 1, 3},
                 kActivated[static_cast<std::size_t>(act)]);
  }
}

TEST_CASE("max and average pooling with VALID padding") {
  const Tensor x = iota({1, 1, 3, 3});
  check_tensor(pool(Op::kPoolMax, x, 2, 2, 1, 1, Padding::kValid), {1, 1, 2, 2}, {5, 6, 8, 9});
  check_tensor(pool(Op::kPoolAvg, x, 2, 2, 1, 1, Padding::kValid), {1, 1, 2, 2}, {3, 4, 6, 7});
  const Tensor two_channels = iota({1, 2, 2, 2});
  check_tensor(pool(Op::kPoolMax, two_channels, 2, 2, 1, 1, Padding::kValid), {1, 2, 1, 1}, {4, 8});
  check_tensor(pool(Op::kPoolAvg, two_channels, 2, 2, 2, 2, Padding::kValid), {1, 2, 1, 1},
               {2.5, 6.5});
}

TEST_CASE("pooling with strides") {
  const Tensor x = iota({1, 1, 4, 4});
  check_tensor(pool(Op::kPoolMax, x, 2, 2, 2, 2, Padding::kValid), {1, 1, 2, 2}, {6, 8, 14, 16});
  check_tensor(pool(Op::kPoolAvg, x, 2, 2, 2, 2, Padding::kValid), {1, 1, 2, 2},
               {3.5, 5.5, 11.5, 13.5});
  // 3x3 windows, stride 2: SAME pads one cell after the data, SAME_LOWER one before.
  check_tensor(pool(Op::kPoolMax, x, 3, 3, 2, 2, Padding::kSame), {1, 1, 2, 2}, {11, 12, 15, 16});
  check_tensor(pool(Op::kPoolMax, x, 3, 3, 2, 2, Padding::kSameLower), {1, 1, 2, 2},
               {6, 8, 14, 16});
  check_tensor(pool(Op::kPoolAvg, x, 3, 3, 2, 2, Padding::kSameLower), {1, 1, 2, 2},
               {14.0 / 9, 30.0 / 9, 57.0 / 9, 99.0 / 9});
  // 3x1 windows, stride 1 x 3, SAME: rows padded one each side, columns not at all (1x1 kernel).
  check_tensor(pool(Op::kPoolMax, x, 3, 1, 1, 3, Padding::kSame), {1, 1, 4, 2},
               {5, 8, 9, 12, 13, 16, 13, 16});
}

TEST_CASE("pooling with SAME padding") {
  const Tensor x = iota({1, 1, 3, 3});
  SUBCASE("odd total: the padding row and column come last") {
    check_tensor(pool(Op::kPoolMax, x, 2, 2, 1, 1, Padding::kSame), {1, 1, 3, 3},
                 {5, 6, 6, 8, 9, 9, 8, 9, 9});
    // padded cells count as zeros: divide by 4 everywhere
    check_tensor(pool(Op::kPoolAvg, x, 2, 2, 1, 1, Padding::kSame), {1, 1, 3, 3},
                 {3, 4, 2.25, 6, 7, 3.75, 3.75, 4.25, 2.25});
  }
  SUBCASE("even total: one padding cell each side") {
    check_tensor(
        pool(Op::kPoolAvg, x, 3, 3, 1, 1, Padding::kSame), {1, 1, 3, 3},
        {12.0 / 9, 21.0 / 9, 16.0 / 9, 27.0 / 9, 5, 33.0 / 9, 24.0 / 9, 39.0 / 9, 28.0 / 9});
  }
  SUBCASE("max ignores padding (negative inputs)") {
    const Tensor negative = iota({1, 1, 3, 3}, -9.0);  // -9 .. -1
    check_tensor(pool(Op::kPoolMax, negative, 3, 3, 1, 1, Padding::kSame), {1, 1, 3, 3},
                 {-5, -4, -4, -2, -1, -1, -2, -1, -1});
  }
}

TEST_CASE("pooling applies each activation code") {
  const Tensor x({1, 1, 1, 3}, {-1, 0, 1});
  for (Op op : {Op::kPoolMax, Op::kPoolAvg}) {
    for (std::int64_t act = 0; act < 4; ++act) {
      INFO(op_name(op) << " act " << act);
      check_tensor(pool(op, x, 1, 1, 1, 1, Padding::kValid, static_cast<Activation>(act)),
                   {1, 1, 1, 3}, kActivated[static_cast<std::size_t>(act)]);
    }
  }
}

TEST_CASE("globalavgpool averages every dimension from 2 on") {
  check_tensor(run1(Op::kGlobalAvgPool, {iota({1, 2, 2, 2})}, {}), {1, 2, 1, 1}, {2.5, 6.5});
  check_tensor(run1(Op::kGlobalAvgPool, {iota({2, 1, 3})}, {}), {2, 1, 1}, {2, 5});
}

TEST_CASE("elementwise binary operators broadcast") {
  struct Case {
    Op op;
    std::vector<double> row_vector;  // [2,3] (op) [3] with 1..6 and 10, 20, 30
    std::vector<double> outer;       // [2,1] (op) [1,3] with 10, 20 and 1, 2, 4
    std::vector<double> reversed;    // [3] (op) [2,3] with 10, 20, 30 and 1..6
  };
  const std::vector<Case> cases = {
      {Op::kEwAdd, {11, 22, 33, 14, 25, 36}, {11, 12, 14, 21, 22, 24}, {11, 22, 33, 14, 25, 36}},
      {Op::kEwMul,
       {10, 40, 90, 40, 100, 180},
       {10, 20, 40, 20, 40, 80},
       {10, 40, 90, 40, 100, 180}},
      {Op::kEwSub, {-9, -18, -27, -6, -15, -24}, {9, 8, 6, 19, 18, 16}, {9, 18, 27, 6, 15, 24}},
      {Op::kEwDiv,
       {0.1, 0.1, 0.1, 0.4, 0.25, 0.2},
       {10, 5, 2.5, 20, 10, 5},
       {10, 10, 10, 2.5, 4, 5}},
  };
  const Tensor m = iota({2, 3});
  const Tensor row({3}, {10, 20, 30});
  const Tensor column({2, 1}, {10, 20});
  const Tensor other({1, 3}, {1, 2, 4});
  for (const Case& c : cases) {
    INFO(op_name(c.op));
    check_tensor(run1(c.op, {m, row}, {}), {2, 3}, c.row_vector);
    check_tensor(run1(c.op, {column, other}, {}), {2, 3}, c.outer);
    check_tensor(run1(c.op, {row, m}, {}), {2, 3}, c.reversed);
  }
  // a rank-0 operand and identical shapes
  check_tensor(run1(Op::kEwMul, {iota({2, 2}), Tensor(Shape{}, {3})}, {}), {2, 2}, {3, 6, 9, 12});
  check_tensor(run1(Op::kEwSub, {iota({2, 2}), iota({2, 2}, 2)}, {}), {2, 2}, {-1, -1, -1, -1});
}

TEST_CASE("smul multiplies by the single element") {
  check_tensor(run1(Op::kSmul, {iota({2, 2}), Tensor({1, 1}, {-2})}, {}), {2, 2}, {-2, -4, -6, -8});
  check_tensor(run1(Op::kSmul, {iota({3}), Tensor(Shape{}, {0.5})}, {}), {3}, {0.5, 1, 1.5});
}

TEST_CASE("unary operators") {
  const Tensor x({3}, {-1, 0, 1});
  check_tensor(run1(Op::kRelu, {x}, {}), {3}, kActivated[2]);
  check_tensor(run1(Op::kSigmoid, {x}, {}), {3}, kActivated[1]);
  check_tensor(run1(Op::kTanh, {x}, {}), {3}, kActivated[3]);
  check_tensor(run1(Op::kDropout, {x}, {}), {3}, {-1, 0, 1});
  check_tensor(run1(Op::kIdentity, {x}, {}), {3}, {-1, 0, 1});
}

TEST_CASE("transpose permutes dimensions") {
  check_tensor(run1(Op::kTranspose, {iota({2, 3})}, {std::vector<std::int64_t>{1, 0}}), {3, 2},
               {1, 4, 2, 5, 3, 6});
  // out[i][j][k] = x[j][k][i] = 12 j + 4 k + i for x = 0..23 of shape [2,3,4]
  check_tensor(
      run1(Op::kTranspose, {iota({2, 3, 4}, 0)}, {std::vector<std::int64_t>{2, 0, 1}}), {4, 2, 3},
      {0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23});
  // out[i][j][k] = x[i][k][j]
  check_tensor(run1(Op::kTranspose, {iota({2, 2, 3}, 0)}, {std::vector<std::int64_t>{0, 2, 1}}),
               {2, 3, 2}, {0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11});
}

TEST_CASE("reshape and flatten keep the data") {
  const Tensor x = iota({2, 3, 4});
  const Tensor reshaped = run1(Op::kReshape, {x}, {std::vector<std::int64_t>{4, 6}});
  check_tensor(reshaped, {4, 6}, x.data);
  check_tensor(run1(Op::kFlatten, {x}, {std::int64_t{2}}), {6, 4}, x.data);
  check_tensor(run1(Op::kFlatten, {x}, {std::int64_t{0}}), {1, 24}, x.data);
}

TEST_CASE("enlarge centres a kernel in a bigger one") {
  check_tensor(run1(Op::kEnlarge, {Tensor({2, 1, 1, 1}, {1, 2}), Tensor({2, 1, 3, 3})}, {}),
               {2, 1, 3, 3}, {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0});
  check_tensor(run1(Op::kEnlarge, {Tensor({1, 1, 1, 3}, {1, 2, 3}), Tensor({4, 4, 3, 5})}, {}),
               {1, 1, 3, 5}, {0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("enlarge + conv2d equals the conv2d with the small kernel (SAME, stride 1)") {
  GraphBuilder builder;
  const TensorRef x = builder.input("x", {2, 3, 5, 4});
  const TensorRef small = builder.weight("small", {4, 3, 1, 1});
  const TensorRef big = builder.weight("big", {4, 3, 3, 3});
  const TensorRef direct = builder.conv2d(x, small, 1, 1, Padding::kSame, Activation::kRelu);
  const TensorRef enlarged = builder.add1(Op::kEnlarge, {small, big}, {});
  const TensorRef via_enlarge =
      builder.conv2d(x, enlarged, 1, 1, Padding::kSame, Activation::kRelu);
  builder.output("direct", direct);
  builder.output("via_enlarge", via_enlarge);
  const Graph graph = std::move(builder).finish();
  const auto outs = interpret(graph, random_inputs(graph, 11), {.random_weight_seed = 5});
  check_same(outs[1], outs[0]);
  CHECK(outs[0].shape == Shape{2, 4, 5, 4});
}

TEST_CASE("merge widens grouped kernels") {
  // Depthwise kernel [4,1,1,1], two groups at a time: output channel o keeps its weight at input
  // position o % 2 of its merged group.
  check_tensor(run1(Op::kMerge, {Tensor({4, 1, 1, 1}, {1, 2, 3, 4})}, {std::int64_t{2}}),
               {4, 2, 1, 1}, {1, 0, 0, 2, 3, 0, 0, 4});
  // [4,2,1,1] (two groups of two), merged into one group of four.
  check_tensor(run1(Op::kMerge, {iota({4, 2, 1, 1})}, {std::int64_t{2}}), {4, 4, 1, 1},
               {1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 5, 6, 0, 0, 7, 8});
}

TEST_CASE("conv2d with a merged kernel equals the grouped conv2d") {
  struct Case {
    Shape x, w;
    std::int64_t count;
  };
  for (const Case& c : {Case{{1, 4, 5, 5}, {4, 1, 3, 3}, 2}, Case{{2, 8, 4, 6}, {8, 2, 3, 3}, 2},
                        Case{{1, 8, 4, 4}, {8, 2, 3, 3}, 4}, Case{{1, 6, 3, 3}, {6, 3, 1, 1}, 2}}) {
    INFO("w " << shape_string(c.w) << " count " << c.count);
    GraphBuilder builder;
    const TensorRef x = builder.input("x", c.x);
    const TensorRef w = builder.weight("w", c.w);
    const TensorRef merged = builder.add1(Op::kMerge, {w}, {c.count});
    builder.output("grouped", builder.conv2d(x, w, 2, 1, Padding::kSame));
    builder.output("merged", builder.conv2d(x, merged, 2, 1, Padding::kSame));
    const Graph graph = std::move(builder).finish();
    const auto outs = interpret(graph, random_inputs(graph, 1), {.random_weight_seed = 2});
    check_same(outs[1], outs[0]);
  }
}

TEST_CASE("concat joins three inputs along axis 1") {
  const Tensor a({2, 1}, {1, 2}), b({2, 2}, {3, 4, 5, 6}), c({2, 1}, {7, 8});
  check_tensor(run1(Op::kConcat, {a, b, c}, {std::int64_t{1}, std::int64_t{2}}), {2, 4},
               {1, 3, 4, 7, 2, 5, 6, 8});
  check_tensor(run1(Op::kConcat, {a, c}, {std::int64_t{0}, std::int64_t{2}}), {4, 1}, {1, 2, 7, 8});
}

TEST_CASE("split cuts consecutive slices") {
  const Tensor x = iota({2, 6}, 0);
  const auto parts = run_op(Op::kSplit, {x}, {std::int64_t{1}, std::vector<std::int64_t>{1, 2, 3}});
  REQUIRE(parts.size() == 3);
  check_tensor(parts[0], {2, 1}, {0, 6});
  check_tensor(parts[1], {2, 2}, {1, 2, 7, 8});
  check_tensor(parts[2], {2, 3}, {3, 4, 5, 9, 10, 11});
  const auto rows = run_op(Op::kSplit, {x}, {std::int64_t{0}, std::vector<std::int64_t>{1, 1}});
  REQUIRE(rows.size() == 2);
  check_tensor(rows[1], {1, 6}, {6, 7, 8, 9, 10, 11});
}

TEST_CASE("batchnorm normalizes per channel") {
  // var + 1e-5 = 4 and 1: channel 0 -> 2 (x - 1) / 2 + 1 = x; channel 1 -> 0.5 (x - 3) - 1.
  const Tensor x = iota({2, 2, 1, 2});
  const Tensor scale({2}, {2, 0.5}), bias({2}, {1, -1}), mean({2}, {1, 3}),
      var({2}, {3.99999, 0.99999});
  check_tensor(run1(Op::kBatchNorm, {x, scale, bias, mean, var}, {}), {2, 2, 1, 2},
               {1, 2, -1, -0.5, 5, 6, 1, 1.5}, 1e-9);
}

TEST_CASE("softmax along an axis") {
  check_tensor(
      run1(Op::kSoftmax, {Tensor({2, 3}, {1, 2, 3, 1, 1, 1})}, {std::int64_t{1}}), {2, 3},
      {0.09003057317038046, 0.24472847105479767, 0.6652409557748219, 1.0 / 3, 1.0 / 3, 1.0 / 3});
  // axis 0 of [[1, 3], [1, 1]]: columns [0.5, 0.5] and [sigmoid(2), 1 - sigmoid(2)]
  check_tensor(run1(Op::kSoftmax, {Tensor({2, 2}, {1, 3, 1, 1})}, {std::int64_t{0}}), {2, 2},
               {0.5, 0.8807970779778823, 0.5, 0.11920292202211755});
  // large values do not overflow
  check_tensor(run1(Op::kSoftmax, {Tensor({1, 2}, {1000, 1000})}, {std::int64_t{1}}), {1, 2},
               {0.5, 0.5});
}

TEST_CASE("layernorm normalizes over the last axis, then scales and shifts") {
  const Tensor x({2, 3}, {1, 2, 3, 0, 0, 6}), scale({3}, {1, 2, 0.5}), bias({3}, {0, 1, -1});
  // rows: mean 2, variance 2/3 and 8 (biased)
  check_tensor(run1(Op::kLayerNorm, {x, scale, bias}, {0.0}), {2, 3},
               {-1.2247448713915890, 1, -0.3876275643042055, -0.7071067811865476,
                -0.4142135623730951, -0.2928932188134524},
               1e-12);
  // epsilon is added to the variance: a constant row normalizes to 0, the shift is left
  check_tensor(
      run1(Op::kLayerNorm, {Tensor({1, 2}, {5, 5}), Tensor({2}, {3, 3}), Tensor({2}, {0.5, -0.5})},
           {1e-5}),
      {1, 2}, {0.5, -0.5}, 1e-12);
}

TEST_CASE("gelu is x * Phi(x): the erf form, and its tanh approximation") {
  check_tensor(run1(Op::kGelu, {Tensor({4}, {-1, 0, 1, 2})}, {std::int64_t{0}}), {4},
               {-0.15865525393145707, 0, 0.8413447460685429, 1.9544997361036416}, 1e-12);
  // x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) / 2
  check_tensor(run1(Op::kGelu, {Tensor({4}, {-1, 0, 1, 2})}, {std::int64_t{1}}), {4},
               {-0.15880800939172324, 0, 0.8411919906082768, 1.954597694087775}, 1e-12);
}

TEST_CASE("attention: softmax(scale q k^T + bias) v per head, causal leaves later keys out") {
  // Two heads of depth 1: head 0 reads column 0 of q, k and v, head 1 column 1.
  const Tensor q({1, 2, 2}, {1, 0, 0, 1}), k({1, 2, 2}, {1, 2, 3, 0}),
      v({1, 2, 2}, {10, 20, 30, 40});
  const Tensor no_bias({1, 1, 1, 1}, {0});
  auto attention = [&](const Tensor& bias, std::int64_t causal, double scale) {
    return run1(Op::kAttention, {q, k, v, bias}, {std::int64_t{2}, causal, scale});
  };
  // Head 0, query 0: scores [1, 3], weights [0.1192, 0.8808] over values [10, 30]; query 1:
  // scores [0, 0]. Head 1, query 0: scores [0, 0]; query 1: scores [2, 0] over values [20, 40].
  check_tensor(attention(no_bias, 0, 1.0), {1, 2, 2},
               {27.615941559557646, 30, 20, 22.384058440442348}, 1e-12);
  check_tensor(attention(no_bias, 1, 1.0), {1, 2, 2}, {10, 20, 20, 22.384058440442348}, 1e-12);
  check_tensor(attention(no_bias, 0, 0.0), {1, 2, 2}, {20, 30, 20, 30}, 1e-12);  // uniform
  // A bias of -1000 on key 1 (broadcast over batch, heads and queries) leaves key 0 alone.
  check_tensor(attention(Tensor({2}, {0, -1000}), 0, 1.0), {1, 2, 2}, {10, 20, 10, 20}, 1e-12);
}

TEST_CASE("clip clamps to [min, max]") {
  check_tensor(run1(Op::kClip, {Tensor({6}, {-3, -1, 0, 1.5, 2, 5})}, {-1.0, 2.0}), {6},
               {-1, -1, 0, 1.5, 2, 2});
}

TEST_CASE("noop yields one rank-0 zero") {
  check_tensor(run1(Op::kNoop, {iota({2}), iota({3})}, {}), {}, {0});
}

TEST_CASE("a graph runs end to end with weights, shared tensors and several outputs") {
  GraphBuilder builder;
  const TensorRef x = builder.input("x", {1, 1, 2, 2});
  const TensorRef w =
      builder.weight("w", {1, 1, 1, 1},
                     std::make_shared<const Tensor>(Shape{1, 1, 1, 1}, std::vector<double>{-2}));
  const TensorRef y = builder.conv2d(x, w, 1, 1, Padding::kValid);
  const TensorRef doubled = builder.ewadd(y, y);  // one tensor read twice by one node
  const TensorRef flat = builder.reshape(doubled, {4});
  const auto halves = builder.split(flat, 0, {1, 3});
  builder.output("tail", halves[1]);
  builder.output("y", y);
  builder.output("y_again", y);
  const Graph graph = std::move(builder).finish();
  const auto outs = interpret(graph, {{"x", iota({1, 1, 2, 2})}, {"unused", iota({1})}});
  REQUIRE(outs.size() == 3);
  check_tensor(outs[0], {3}, {-8, -12, -16});
  check_tensor(outs[1], {1, 1, 2, 2}, {-2, -4, -6, -8});
  check_same(outs[2], outs[1]);
  // stored weight values win over a seed
  check_same(interpret(graph, {{"x", iota({1, 1, 2, 2})}}, {.random_weight_seed = 9})[1], outs[1]);
}

TEST_CASE("nodes no output depends on are not evaluated") {
  Graph graph;
  {
    GraphBuilder builder;
    const TensorRef x = builder.input("x", {2});
    builder.input("unused_input", {3});
    builder.weight("unused_weight", {3});
    builder.output("y", builder.relu(x));
    graph = builder.graph();
  }
  Node opaque;
  opaque.name = "dead_lrn";
  opaque.op = Op::kOpaque;
  opaque.inputs = {{0, 0}};
  opaque.attrs = {std::int64_t{0},
                  encode_output_types(std::vector<TensorType>{{{2}, DType::kFloat32}})};
  opaque.opaque = std::make_shared<const OpaqueInfo>(OpaqueInfo{"LRN", ""});
  graph.add_node(std::move(opaque));
  graph.infer_and_validate();
  check_tensor(interpret(graph, {{"x", Tensor({2}, {-1, 1})}})[0], {2}, {0, 1});
}

TEST_CASE("interpreter errors name the node") {
  GraphBuilder builder;
  const TensorRef x = builder.input("x", {2, 3});
  const TensorRef w = builder.weight("w", {3, 2});
  builder.output("y", builder.matmul(x, w));
  const Graph graph = std::move(builder).finish();
  const InterpretOptions seeded{.random_weight_seed = 1};

  SUBCASE("missing input") {
    const Error error = error_of([&] { interpret(graph, {}, seeded); });
    CHECK(error.where().node == "x");
    CHECK(contains(error.message(), "no value given for input 'x'"));
  }
  SUBCASE("input of the wrong shape") {
    const Error error = error_of([&] { interpret(graph, {{"x", iota({3, 2})}}, seeded); });
    CHECK(error.where().node == "x");
    CHECK(contains(error.message(), "has shape 3x2, the graph declares 2x3"));
  }
  SUBCASE("input with too few values") {
    const Error error = error_of([&] {
      interpret(graph, {{"x", Tensor({2, 3}, std::vector<double>{1})}}, seeded);
    });
    CHECK(error.where().node == "x");
  }
  SUBCASE("weight without values and without a seed") {
    const Error error = error_of([&] { interpret(graph, {{"x", iota({2, 3})}}); });
    CHECK(error.where().node == "w");
    CHECK(contains(error.message(), "weight 'w' has no values"));
  }
  SUBCASE("opaque operator") {
    Graph with_opaque = graph;
    Node node;
    node.name = "norm";
    node.op = Op::kOpaque;
    node.inputs = {{0, 0}};
    node.attrs = {std::int64_t{7},
                  encode_output_types(std::vector<TensorType>{{{2, 3}, DType::kFloat32}})};
    node.opaque = std::make_shared<const OpaqueInfo>(OpaqueInfo{"LRN", ""});
    const NodeId id = with_opaque.add_node(std::move(node));
    with_opaque.add_output("z", {id, 0});
    with_opaque.infer_and_validate();
    const Error error = error_of([&] { interpret(with_opaque, {{"x", iota({2, 3})}}, seeded); });
    CHECK(error.where().node == "norm");
    CHECK(error.message() == "opaque operator 'LRN' cannot be interpreted");
  }
}

TEST_CASE("evaluate_op checks shapes and recorded types") {
  const std::vector<Tensor> args = {iota({2, 3}), iota({2, 3})};
  CHECK_THROWS_AS(evaluate_op(Op::kMatmul, args, {std::int64_t{0}}), Error);
  CHECK_THROWS_AS(evaluate_op(Op::kMatmul, std::vector<Tensor>{iota({2, 3})}, {std::int64_t{0}}),
                  Error);
  CHECK_THROWS_AS(evaluate_op(Op::kWeight, {}, {std::vector<std::int64_t>{2}}), Error);
  CHECK_THROWS_AS(evaluate_op(Op::kOpaque, args, {}), Error);
  const std::vector<TensorType> wrong = {{{3, 2}, DType::kFloat32}};
  const Error error = error_of([&] { evaluate_op(Op::kEwAdd, args, {}, wrong); });
  CHECK(contains(error.message(), "disagrees"));
  const std::vector<TensorType> right = {{{2, 3}, DType::kFloat16}};  // dtypes are not compared
  check_tensor(evaluate_op(Op::kEwAdd, args, {}, right).at(0), {2, 3}, {2, 4, 6, 8, 10, 12});
}

TEST_CASE("random inputs and weights are deterministic per seed and name") {
  GraphBuilder small_builder;
  const TensorRef a = small_builder.input("a", {3, 4});
  const TensorRef w = small_builder.weight("w", {4, 2});
  small_builder.output("y", small_builder.matmul(a, w));
  const Graph small = std::move(small_builder).finish();

  GraphBuilder big_builder;
  const TensorRef extra = big_builder.input("extra", {3, 2});  // added first: ids shift
  const TensorRef a2 = big_builder.input("a", {3, 4});
  const TensorRef w0 = big_builder.weight("w0", {2, 2});
  const TensorRef w2 = big_builder.weight("w", {4, 2});
  big_builder.output("y", big_builder.matmul(a2, w2));
  big_builder.output("z", big_builder.matmul(extra, w0));
  const Graph big = std::move(big_builder).finish();

  const auto inputs = random_inputs(small, 42);
  REQUIRE(inputs.size() == 1);
  const Tensor& values = inputs.at("a");
  CHECK(values.shape == Shape{3, 4});
  for (double v : values.data) CHECK((v >= -1.0 && v < 1.0));
  CHECK(values.data[0] != values.data[1]);
  CHECK(random_inputs(small, 42) == inputs);
  CHECK(random_inputs(small, 43).at("a") != values);
  CHECK(random_inputs(big, 42).at("a") == values);  // other nodes do not disturb a's stream
  CHECK(random_inputs(big, 42).at("extra") != random_tensor({3, 2}, 42, "a"));

  const auto small_out = interpret(small, inputs, {.random_weight_seed = 7});
  CHECK(interpret(small, inputs, {.random_weight_seed = 7}) == small_out);
  CHECK(interpret(small, inputs, {.random_weight_seed = 8}) != small_out);
  CHECK(interpret(big, random_inputs(big, 42), {.random_weight_seed = 7})[0] == small_out[0]);
  // the weight's values are those of its named stream, scaled by 1/sqrt(fan-in) (4 rows)
  const Tensor expected =
      interpret(small, {{"a", Tensor({3, 4}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0})}},
                {.random_weight_seed = 7})[0];
  const Tensor stream = random_tensor({4, 2}, 7, "w");
  std::vector<double> scaled(stream.data.begin(), stream.data.begin() + 6);
  for (double& v : scaled) v /= 2.0;
  check_tensor(expected, {3, 2}, scaled);
  CHECK(random_weight({4, 2}, 7, "w").data[0] == doctest::Approx(stream.data[0] / 2.0));
  // a convolution kernel's fan-in is all but its first dimension: 2 * 3 * 3
  CHECK(random_weight({4, 2, 3, 3}, 7, "k").data[5] ==
        doctest::Approx(random_tensor({4, 2, 3, 3}, 7, "k").data[5] / std::sqrt(18.0)));
}

}  // namespace mctsat::tensor
