// Tests of the tensor language and TensorAnalysis: literal and operator data, rejection of
// ill-shaped and wrong-kind e-nodes (also as rewrite right-hand sides), weight-only propagation,
// the split hint, merges, and a small rule run to saturation.
#include "tensor/tensor_analysis.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "egraph/rewrite.hpp"
#include "egraph/runner.hpp"
#include "support/error.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {
namespace {

using egraph::ApplyStats;
using egraph::EGraph;
using egraph::Pattern;
using egraph::Rewrite;
using TGraph = EGraph<TensorAnalysis>;

// Leaves used by the tests: index 0.. in order.
std::shared_ptr<const TensorTables> make_tables() {
  auto tables = std::make_shared<TensorTables>();
  auto leaf = [&](std::string name, Op op, Shape shape) {
    tables->leaves.push_back({std::move(name), op, TensorType{std::move(shape)}, nullptr});
  };
  leaf("x", Op::kInput, {4, 8});          // 0
  leaf("w1", Op::kWeight, {8, 16});       // 1
  leaf("w2", Op::kWeight, {16, 2});       // 2
  leaf("y", Op::kInput, {4, 8});          // 3: same shape as x, distinct leaf
  leaf("img", Op::kInput, {1, 3, 8, 8});  // 4
  leaf("k", Op::kWeight, {6, 3, 3, 3});   // 5
  leaf("a", Op::kInput, {4, 3});          // 6
  leaf("b", Op::kInput, {4, 5});          // 7
  leaf("w3", Op::kWeight, {4, 8});        // 8
  leaf("s1", Op::kWeight, {4, 4});        // 9
  leaf("s2", Op::kWeight, {4, 4});        // 10
  // An opaque operator with two outputs and one with one output.
  Node two;
  two.name = "two";
  two.op = Op::kOpaque;
  two.inputs = {{0, 0}};
  const std::vector<TensorType> types = {TensorType{{4, 8}}, TensorType{{2, 2}, DType::kInt64}};
  two.attrs = {std::int64_t{0}, encode_output_types(types)};
  two.outputs = types;
  tables->opaque.push_back(two);
  Node one = two;
  one.name = "one";
  one.attrs = {std::int64_t{1}, encode_output_types(std::span(types).first(1))};
  one.outputs = {types[0]};
  tables->opaque.push_back(one);
  return tables;
}

TGraph make_graph() {
  return TGraph(TensorAnalysis(make_tables()));
}

Id leaf(TGraph& g, std::size_t index) {
  const LeafEntry& entry = g.analysis().tables().leaves.at(index);
  return g.add(op_code(entry.op), static_cast<std::int64_t>(index),
               {add_ints(g, std::span<const std::int64_t>(entry.type.shape))});
}

Id add(TGraph& g, Op op, std::initializer_list<Id> children, std::int64_t payload = 0) {
  return g.add(op_code(op), payload, children);
}

// Whether the analysis accepts the e-node (and its data when it does).
bool accepts(const TGraph& g, OpCode op, std::int64_t payload, std::vector<Id> children,
             TensorData* data = nullptr) {
  TensorData out;
  const bool ok =
      g.make_data_of_classes(egraph::ENodeRef{op, payload, egraph::id_span(children)}, out);
  if (data) *data = out;
  return ok;
}

Shape shape_of(const TensorData& data) {
  return Shape(data.shape().begin(), data.shape().end());
}

TEST_CASE("operator codes: catalog operators, then int, ints, float, proj, all named") {
  CHECK(op_code(Op::kMatmul) == static_cast<OpCode>(Op::kMatmul));
  CHECK(opcode_name(op_code(Op::kConv2d)) == "conv2d");
  CHECK(opcode_name(kIntOp) == "int");
  CHECK(opcode_name(kIntsOp) == "ints");
  CHECK(opcode_name(kFloatOp) == "float");
  CHECK(opcode_name(kProjOp) == "proj");
  CHECK(kIntOp == kOpCount);
  for (OpCode code = 0; code < kOpCodeCount; ++code) {
    CAPTURE(code);
    CHECK(find_opcode(opcode_name(code)) == code);
    CHECK(tensor_op(code).has_value() == (code < kOpCount));
  }
  CHECK_FALSE(find_opcode("split_0").has_value());
}

TEST_CASE("literal classes: int, ints and float data") {
  TGraph g = make_graph();
  const Id three = add_int(g, 3);
  CHECK(g.data(three).kind == ValueKind::kInt);
  CHECK(g.data(three).int_value() == 3);
  CHECK(add_int(g, 3) == three);  // hash-consed
  CHECK(g.data(add_int(g, -7)).int_value() == -7);

  const std::vector<std::int64_t> values = {1, 0, 2};
  const Id list = add_ints(g, std::span<const std::int64_t>(values));
  CHECK(g.data(list).kind == ValueKind::kInts);
  CHECK(std::vector<std::int64_t>(g.data(list).ints().begin(), g.data(list).ints().end()) ==
        values);
  CHECK(g.node(list).children.size() == 3);
  CHECK(g.data(g.node(list).children[2]).int_value() == 2);
  const Id empty = add_ints(g, std::span<const std::int64_t>());
  CHECK(g.data(empty).kind == ValueKind::kInts);
  CHECK(g.data(empty).rank == 0);

  const Id half = add_float(g, 0.5);
  CHECK(g.data(half).kind == ValueKind::kFloat);
  CHECK(g.data(half).float_value() == 0.5);
  CHECK(g.node(half).payload == std::bit_cast<std::int64_t>(0.5));
  CHECK(add_float(g, -0.5) != half);
  CHECK(data_string(g.data(list)) == "ints [1,0,2]");

  const std::vector<std::int64_t> nine(9, 1);
  CHECK_THROWS_AS(add_ints(g, std::span<const std::int64_t>(nine)), Error);
}

TEST_CASE("data of leaves and representative operators") {
  TGraph g = make_graph();
  const Id x = leaf(g, 0), w1 = leaf(g, 1), y = leaf(g, 3);
  CHECK(x != y);  // equal shapes, distinct leaves
  CHECK(g.data(x).is_tensor());
  CHECK(shape_of(g.data(x)) == Shape{4, 8});
  CHECK(g.data(x).dtype == DType::kFloat32);
  CHECK_FALSE(g.data(x).weight_only);
  CHECK(g.data(w1).weight_only);

  SUBCASE("matmul") {
    const Id mm = add(g, Op::kMatmul, {add_int(g, 0), x, w1});
    CHECK(shape_of(g.data(mm)) == Shape{4, 16});
    CHECK(data_string(g.data(mm)) == "f32[4x16]");
  }
  SUBCASE("conv2d") {
    const Id conv =
        add(g, Op::kConv2d,
            {add_int(g, 2), add_int(g, 2), add_int(g, 0), add_int(g, 2), leaf(g, 4), leaf(g, 5)});
    CHECK(shape_of(g.data(conv)) == Shape{1, 6, 4, 4});
  }
  SUBCASE("transpose and reshape") {
    const std::vector<std::int64_t> perm = {1, 0}, target = {2, 16};
    const Id t = add(g, Op::kTranspose, {x, add_ints(g, std::span<const std::int64_t>(perm))});
    CHECK(shape_of(g.data(t)) == Shape{8, 4});
    const Id r = add(g, Op::kReshape, {x, add_ints(g, std::span<const std::int64_t>(target))});
    CHECK(shape_of(g.data(r)) == Shape{2, 16});
  }
  SUBCASE("clip with float attributes") {
    const Id c = add(g, Op::kClip, {add_float(g, -1.0), add_float(g, 1.0), x});
    CHECK(shape_of(g.data(c)) == Shape{4, 8});
  }
  SUBCASE("concat with three inputs") {
    const Id c = add(g, Op::kConcat, {add_int(g, 0), add_int(g, 2), x, y, x});
    CHECK(shape_of(g.data(c)) == Shape{12, 8});
    CHECK_FALSE(g.data(c).has_split_hint());  // only two-input concats record one
  }
  SUBCASE("split: a tuple read through proj") {
    const std::vector<std::int64_t> sizes = {3, 5};
    const Id s =
        add(g, Op::kSplit, {add_int(g, 1), add_ints(g, std::span<const std::int64_t>(sizes)), x});
    const TensorData& tuple = g.data(s);
    CHECK(tuple.kind == ValueKind::kTuple);
    CHECK(tuple.outputs == 2);
    CHECK(g.analysis().output_types(tuple) ==
          std::vector<TensorType>{TensorType{{4, 3}}, TensorType{{4, 5}}});
    CHECK(shape_of(g.data(g.add(kProjOp, 0, {s}))) == Shape{4, 3});
    CHECK(shape_of(g.data(g.add(kProjOp, 1, {s}))) == Shape{4, 5});
    CHECK_FALSE(accepts(g, kProjOp, 2, {s}));
    CHECK_FALSE(accepts(g, kProjOp, -1, {s}));
  }
  SUBCASE("noop yields a value without data") {
    const Id n = add(g, Op::kNoop, {x, y});
    CHECK(g.data(n).kind == ValueKind::kNone);
    CHECK(accepts(g, op_code(Op::kNoop), 0, {n, x}));  // noops chain
    CHECK_FALSE(accepts(g, op_code(Op::kRelu), 0, {n}));
  }
  SUBCASE("opaque operators: one output is a tensor, several a tuple") {
    const Id one = add(g, Op::kOpaque, {x}, 1);
    CHECK(shape_of(g.data(one)) == Shape{4, 8});
    CHECK_FALSE(g.data(one).weight_only);
    const Id two = add(g, Op::kOpaque, {x}, 0);
    CHECK(g.data(two).kind == ValueKind::kTuple);
    const TensorData& second = g.data(g.add(kProjOp, 1, {two}));
    CHECK(shape_of(second) == Shape{2, 2});
    CHECK(second.dtype == DType::kInt64);
    CHECK_FALSE(accepts(g, op_code(Op::kOpaque), 2, {x}));     // not in the table
    CHECK_FALSE(accepts(g, op_code(Op::kOpaque), 0, {x, x}));  // recorded one input
    CHECK(accepts(g, op_code(Op::kOpaque), 0, {w1}));  // the table fixes outputs, not inputs
  }
}

TEST_CASE("ill-shaped and wrong-kind e-nodes are rejected") {
  TGraph g = make_graph();
  const Id x = leaf(g, 0), w1 = leaf(g, 1), w2 = leaf(g, 2);
  const Id zero = add_int(g, 0), half = add_float(g, 0.5);
  const std::vector<std::int64_t> perm = {1, 0};
  const Id perm_class = add_ints(g, std::span<const std::int64_t>(perm));
  const OpCode matmul = op_code(Op::kMatmul);

  CHECK(accepts(g, matmul, 0, {zero, x, w1}));
  CHECK_FALSE(accepts(g, matmul, 0, {zero, x, w2}));           // inner dimensions 8 vs 16
  CHECK_FALSE(accepts(g, matmul, 0, {x, x, w1}));              // a tensor where act is expected
  CHECK_FALSE(accepts(g, matmul, 0, {zero, zero, w1}));        // an int where a tensor is expected
  CHECK_FALSE(accepts(g, matmul, 0, {half, x, w1}));           // a float where an int is expected
  CHECK_FALSE(accepts(g, matmul, 0, {zero, x}));               // arity
  CHECK_FALSE(accepts(g, matmul, 0, {add_int(g, 9), x, w1}));  // act outside [0, 3]
  CHECK_FALSE(accepts(g, op_code(Op::kTranspose), 0, {x, zero}));           // int for an int list
  CHECK_FALSE(accepts(g, op_code(Op::kTranspose), 0, {perm_class, x}));     // swapped
  CHECK_FALSE(accepts(g, op_code(Op::kClip), 0, {zero, half, x}));          // int for a float
  CHECK_FALSE(accepts(g, op_code(Op::kConcat), 0, {zero, add_int(g, 2)}));  // no tensor

  // Literals of the wrong form.
  CHECK_FALSE(accepts(g, kIntOp, 1, {zero}));
  CHECK_FALSE(accepts(g, kFloatOp, 0, {zero}));
  CHECK_FALSE(accepts(g, kIntsOp, 0, {zero, half}));
  CHECK_FALSE(accepts(g, kIntsOp, 0, {x}));
  CHECK_FALSE(accepts(g, kIntsOp, 0, std::vector<Id>(9, zero)));
  CHECK(accepts(g, kIntsOp, 0, std::vector<Id>(8, zero)));
  CHECK_FALSE(accepts(g, kProjOp, 0, {x}));  // proj of a tensor
  CHECK_FALSE(accepts(g, kProjOp, 0, {}));
  CHECK_FALSE(accepts(g, static_cast<OpCode>(kOpCodeCount), 0, {}));

  // Leaves must match their table entry.
  const std::vector<std::int64_t> wrong = {4, 9};
  CHECK_FALSE(
      accepts(g, op_code(Op::kInput), 0, {add_ints(g, std::span<const std::int64_t>(wrong))}));
  CHECK_FALSE(accepts(g, op_code(Op::kWeight), 0, {g.node(x).children[0]}));  // x is an input
  CHECK_FALSE(accepts(g, op_code(Op::kInput), 99, {g.node(x).children[0]}));
  CHECK_FALSE(accepts(TGraph(), op_code(Op::kInput), 0, {}));

  // Rank 8 is the most a class holds (a 9-element shape list is not even a literal).
  const std::vector<std::int64_t> rank8 = {4, 8, 1, 1, 1, 1, 1, 1};
  const Id r = add(g, Op::kReshape, {x, add_ints(g, std::span<const std::int64_t>(rank8))});
  CHECK(g.data(r).rank == 8);
}

// (matmul 0 ?a ?b) => (matmul 0 ?b ?a): ill-shaped unless the operands are square.
Rewrite<TensorAnalysis> swap_matmul_rule() {
  Pattern lhs, rhs;
  lhs.node(op_code(Op::kMatmul), 0, {pattern_int(lhs, 0), lhs.var(0), lhs.var(1)});
  rhs.node(op_code(Op::kMatmul), 0, {pattern_int(rhs, 0), rhs.var(1), rhs.var(0)});
  return Rewrite<TensorAnalysis>("swap-matmul", {lhs}, {rhs}, 2);
}

TEST_CASE("a rewrite whose right-hand side is ill-shaped is skipped, counted and not added") {
  TGraph g = make_graph();
  const Id x = leaf(g, 0), w1 = leaf(g, 1);
  add(g, Op::kMatmul, {add_int(g, 0), x, w1});
  g.rebuild();
  const std::size_t nodes = g.num_nodes(), classes = g.num_classes();
  const Rewrite<TensorAnalysis> rule = swap_matmul_rule();
  const auto matches = rule.search(g);
  REQUIRE(matches.size() == 1);
  const ApplyStats stats = rule.apply(g, matches);
  CHECK(stats.invalid == 1);
  CHECK(stats.applied == 0);
  g.rebuild();
  CHECK(g.num_nodes() == nodes);
  CHECK(g.num_classes() == classes);

  // With square operands the same right-hand side is well-shaped and is added.
  TGraph square = make_graph();
  add(square, Op::kMatmul, {add_int(square, 0), leaf(square, 9), leaf(square, 10)});
  square.rebuild();
  const std::size_t square_nodes = square.num_nodes();
  const ApplyStats valid = rule.apply(square, rule.search(square));
  CHECK(valid.invalid == 0);
  CHECK(valid.applied == 1);
  square.rebuild();
  CHECK(square.num_nodes() == square_nodes + 1);
}

TEST_CASE("weight_only: weights, through operators and through merges") {
  TGraph g = make_graph();
  const Id x = leaf(g, 0), w1 = leaf(g, 1), w3 = leaf(g, 8);
  const std::vector<std::int64_t> perm = {1, 0};
  const Id perm_class = add_ints(g, std::span<const std::int64_t>(perm));
  const Id tw = add(g, Op::kTranspose, {w1, perm_class});
  CHECK(g.data(tw).weight_only);
  const Id xw = add(g, Op::kMatmul, {add_int(g, 0), x, w1});
  CHECK_FALSE(g.data(xw).weight_only);
  CHECK(g.data(add(g, Op::kMatmul, {add_int(g, 0), w3, w1})).weight_only);
  CHECK_FALSE(g.data(perm_class).weight_only);  // literals are not tensors

  // relu(x) (not weight-only) merged with w3 (same shape): the class and its parents become
  // weight-only once the e-graph is rebuilt.
  const Id rx = add(g, Op::kRelu, {x});
  const Id parent = add(g, Op::kTanh, {rx});
  const Id grandparent = add(g, Op::kSigmoid, {parent});
  CHECK_FALSE(g.data(grandparent).weight_only);
  g.merge(rx, w3);
  g.rebuild();
  CHECK(g.data(rx).weight_only);
  CHECK(g.data(parent).weight_only);
  CHECK(g.data(grandparent).weight_only);
  CHECK(g.data(x).weight_only == false);
}

TEST_CASE("the split hint: recorded by two-input concats, kept through merges") {
  TGraph g = make_graph();
  const Id a = leaf(g, 6), b = leaf(g, 7);  // 4x3, 4x5
  const Id cat = add(g, Op::kConcat, {add_int(g, 1), add_int(g, 2), a, b});
  REQUIRE(g.data(cat).has_split_hint());
  CHECK(g.data(cat).hint_axis == 1);
  CHECK(g.data(cat).split_hint_position() == 3);
  CHECK(shape_of(g.data(cat)) == Shape{4, 8});
  const Id cat0 = add(g, Op::kConcat, {add_int(g, 0), add_int(g, 2), a, a});
  CHECK(g.data(cat0).hint_axis == 0);
  CHECK(g.data(cat0).split_hint_position() == 4);

  SUBCASE("merged into a class without a hint") {
    const Id x = leaf(g, 0);  // 4x8, no hint; give it more parents so that it survives
    add(g, Op::kRelu, {x});
    add(g, Op::kTanh, {x});
    CHECK_FALSE(g.data(x).has_split_hint());
    g.merge(x, cat);
    g.rebuild();
    CHECK(g.find(x) == g.find(cat));
    CHECK(g.data(x).has_split_hint());
    CHECK(g.data(x).split_hint_position() == 3);
  }
  SUBCASE("analysis merge in both directions") {
    const TensorAnalysis& analysis = g.analysis();
    TensorData plain = g.data(leaf(g, 0));
    const TensorData hinted = g.data(cat);
    TensorData into = plain;
    auto result = analysis.merge(into, hinted);
    CHECK(result.into_changed);
    CHECK_FALSE(result.from_changed);
    CHECK(into.split_hint_position() == 3);
    into = hinted;
    result = analysis.merge(into, plain);
    CHECK_FALSE(result.into_changed);
    CHECK(result.from_changed);
    CHECK(into == hinted);
    // Two different hints: the surviving side's is kept.
    into = hinted;
    TensorData other = hinted;
    other.word = 5;
    result = analysis.merge(into, other);
    CHECK_FALSE(result.into_changed);
    CHECK(result.from_changed);
    CHECK(into.split_hint_position() == 3);
    // Equal data: nothing changes.
    into = plain;
    result = analysis.merge(into, plain);
    CHECK_FALSE(result.into_changed);
    CHECK_FALSE(result.from_changed);
  }
}

TEST_CASE("matmul associativity runs to saturation with consistent shapes") {
  // (matmul 0 (matmul 0 ?a ?b) ?c) => (matmul 0 ?a (matmul 0 ?b ?c))
  Pattern lhs, rhs;
  const OpCode mm = op_code(Op::kMatmul);
  {
    const auto inner = lhs.node(mm, 0, {pattern_int(lhs, 0), lhs.var(0), lhs.var(1)});
    lhs.node(mm, 0, {pattern_int(lhs, 0), inner, lhs.var(2)});
    const auto bc = rhs.node(mm, 0, {pattern_int(rhs, 0), rhs.var(1), rhs.var(2)});
    rhs.node(mm, 0, {pattern_int(rhs, 0), rhs.var(0), bc});
  }
  const Rewrite<TensorAnalysis> assoc("matmul-assoc", {lhs}, {rhs}, 3);

  TGraph g = make_graph();
  const Id x = leaf(g, 0), w1 = leaf(g, 1), w2 = leaf(g, 2);  // 4x8, 8x16, 16x2
  const Id zero = add_int(g, 0);
  const Id root = add(g, Op::kMatmul, {zero, add(g, Op::kMatmul, {zero, x, w1}), w2});
  g.rebuild();
  const std::size_t nodes_before = g.num_nodes();

  egraph::RunnerOptions<TensorAnalysis> options;
  options.limits.iterations = 10;
  egraph::SimpleScheduler scheduler;
  std::vector<const Rewrite<TensorAnalysis>*> rules = {&assoc};
  const egraph::RunReport report = egraph::Runner<TensorAnalysis>(options).run(g, rules, scheduler);
  CHECK(report.stop == egraph::StopReason::kSaturated);
  REQUIRE(!report.iterations.empty());
  CHECK(report.iterations[0].rules[0].apply.applied == 1);
  CHECK(g.num_nodes() == nodes_before + 2);  // w1 * w2 and x * (w1 * w2)

  // The root class holds both products, all of the same shape.
  const auto products = g.nodes_of(g.find(root), mm);
  CHECK(products.size() == 2);
  CHECK(shape_of(g.data(root)) == Shape{4, 2});
  CHECK_FALSE(g.data(root).weight_only);
  for (Id node : products) {
    for (Id child : g.node(node).children) {
      const TensorData& data = g.data(child);
      if (data.is_tensor()) {
        // x * (w1 * w2): the new inner product is 8x2 and weight-only.
        if (shape_of(data) == Shape{8, 2}) CHECK(data.weight_only);
      }
    }
  }
  const auto w1w2 = g.lookup(mm, 0, std::vector<Id>{g.find(zero), g.find(w1), g.find(w2)});
  REQUIRE(w1w2.has_value());
  CHECK(shape_of(g.data(*w1w2)) == Shape{8, 2});
  CHECK(g.data(*w1w2).weight_only);
}

}  // namespace
}  // namespace mctsat::tensor
