// Tests of Graph (validation, topological order, weight-only analysis) and GraphBuilder.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/graph.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/shape_inference.hpp"

using namespace mctsat::tensor;
using mctsat::Error;

namespace {

Node leaf(std::string name, Op op, Shape shape) {
  Node node;
  node.name = std::move(name);
  node.op = op;
  node.attrs = {std::move(shape)};
  return node;
}

Node op_node(std::string name, Op op, std::vector<TensorRef> inputs, Attrs attrs = {}) {
  Node node;
  node.name = std::move(name);
  node.op = op;
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  return node;
}

TensorRef ref(NodeId node, std::uint32_t output = 0) {
  return {node, output};
}

// The error infer_and_validate throws (fails the test if it throws none).
Error validation_error(Graph& graph) {
  try {
    graph.infer_and_validate();
  } catch (const Error& e) {
    return e;
  }
  FAIL("infer_and_validate accepted an invalid graph");
  return Error("unreachable");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every node appears once in `order`, after all of its inputs.
void check_topological(const Graph& graph, const std::vector<NodeId>& order) {
  REQUIRE(order.size() == graph.size());
  std::vector<std::size_t> position(graph.size(), graph.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    REQUIRE(order[k] < graph.size());
    CHECK(position[order[k]] == graph.size());  // not seen before
    position[order[k]] = k;
  }
  for (NodeId id = 0; id < graph.size(); ++id) {
    for (const TensorRef& in : graph.node(id).inputs) {
      CAPTURE(graph.node(id).name);
      CHECK(position[in.node] < position[id]);
    }
  }
}

}  // namespace

TEST_CASE("GraphBuilder builds a graph and infers types as nodes are added") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {64, 784});
  const TensorRef w1 = b.weight("w1", {784, 256});
  const TensorRef h = b.matmul(x, w1, Activation::kRelu);
  CHECK(b.type_of(h) == TensorType{{64, 256}, DType::kFloat32});
  const TensorRef bias = b.weight("b1", {256});
  const TensorRef y = b.ewadd(h, bias);
  CHECK(b.type_of(y).shape == Shape{64, 256});
  b.output("y", y);
  const Graph g = std::move(b).finish();

  REQUIRE(g.size() == 5);
  CHECK(g.node(0).name == "x");
  CHECK(g.node(2).name == "matmul_0");  // fresh names: operator and counter
  CHECK(g.node(4).name == "ewadd_1");
  CHECK(g.node(2).op == Op::kMatmul);
  CHECK(g.node(2).attrs == Attrs{std::int64_t{2}});
  CHECK(g.node(2).inputs == std::vector<TensorRef>{ref(0), ref(1)});
  CHECK(g.find("w1") == NodeId{1});
  CHECK_FALSE(g.find("nope").has_value());
  REQUIRE(g.outputs().size() == 1);
  CHECK(g.outputs()[0].name == "y");
  CHECK(g.outputs()[0].tensor == ref(4));
  CHECK(g.type_of(ref(4)) == TensorType{{64, 256}, DType::kFloat32});
}

TEST_CASE("GraphBuilder: convolution block with split, concat and batchnorm") {
  GraphBuilder b;
  const TensorRef x = b.input("image", {1, 3, 224, 224});
  const TensorRef w = b.weight("w", {64, 3, 7, 7});
  const TensorRef c = b.conv2d(x, w, 2, 2, Padding::kSame, Activation::kRelu);
  CHECK(b.type_of(c).shape == Shape{1, 64, 112, 112});
  const TensorRef p = b.pool(Op::kPoolMax, c, 3, 3, 2, 2, Padding::kValid);
  CHECK(b.type_of(p).shape == Shape{1, 64, 55, 55});  // (112 - 3) / 2 + 1
  const std::vector<TensorRef> parts = b.split(p, 1, {16, 48});
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].node == parts[1].node);
  CHECK(parts[1].output == 1);
  CHECK(b.type_of(parts[0]).shape == Shape{1, 16, 55, 55});
  CHECK(b.type_of(parts[1]).shape == Shape{1, 48, 55, 55});
  const TensorRef cat = b.concat(1, {parts[1], parts[0], parts[1]});
  CHECK(b.type_of(cat).shape == Shape{1, 112, 55, 55});
  CHECK(b.graph().node(cat.node).attrs == Attrs{std::int64_t{1}, std::int64_t{4}});
  const TensorRef s = b.weight("s", {112});
  const TensorRef bn = b.batchnorm(cat, s, s, s, s);
  const TensorRef t = b.transpose(bn, {0, 2, 3, 1});
  CHECK(b.type_of(t).shape == Shape{1, 55, 55, 112});
  const TensorRef r = b.reshape(t, {55, 6160});
  b.output("out", b.sigmoid(b.tanh(b.relu(r))));
  const Graph g = std::move(b).finish();
  CHECK(g.size() == 13);
  CHECK(tensor_ref_string(g, parts[1]) == "split_2:1");
  CHECK(tensor_ref_string(g, parts[0]) == "split_2");
  CHECK(g.type_of(g.outputs()[0].tensor).shape == Shape{55, 6160});
}

TEST_CASE("GraphBuilder keeps the element type of inputs") {
  GraphBuilder b;
  const TensorRef ids = b.input("ids", {4, 16}, DType::kInt64);
  const TensorRef r = b.relu(ids);
  CHECK(b.type_of(ids) == TensorType{{4, 16}, DType::kInt64});
  CHECK(b.type_of(r).dtype == DType::kInt64);
  b.output("r", r);
  const Graph g = std::move(b).finish();
  CHECK(g.node(0).leaf_dtype == DType::kInt64);
  CHECK(g.type_of(ref(1)).dtype == DType::kInt64);
}

TEST_CASE("GraphBuilder rejects an invalid node with an error naming it") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {8, 16});
  const TensorRef w = b.weight("w", {32, 4});
  try {
    b.matmul(x, w);
    FAIL("matmul of 8x16 and 32x4 was accepted");
  } catch (const Error& e) {
    CHECK(e.where().node == "matmul_0");
    CHECK(contains(e.message(), "inner dimensions differ: 16 vs 32"));
  }
  CHECK(b.graph().size() == 2);  // nothing added

  try {
    b.add1(Op::kTranspose, {x}, {std::vector<std::int64_t>{0, 0}}, "tr");
    FAIL("a repeated permutation was accepted");
  } catch (const Error& e) {
    CHECK(e.where().node == "tr");
    CHECK(contains(e.message(), "transpose permutation repeats 0"));
    CHECK(contains(e.what(), "node 'tr': error: transpose:"));
  }

  try {
    b.input("bad", {3, 0});
    FAIL("an input with a zero dimension was accepted");
  } catch (const Error& e) {
    CHECK(e.where().node == "bad");
    CHECK(contains(e.message(), "shape dimension 1 must be positive, got 0"));
  }

  try {
    b.weight("wv", {3, 3}, std::make_shared<Tensor>(Shape{2, 2}));
    FAIL("weight values of the wrong shape were accepted");
  } catch (const Error& e) {
    CHECK(e.where().node == "wv");
    CHECK(contains(e.message(), "weight values have shape 2x2, declared 3x3"));
  }
  CHECK(b.graph().size() == 2);
}

TEST_CASE("GraphBuilder::finish validates the whole graph") {
  GraphBuilder b;
  const TensorRef x = b.input("a", {2});
  b.add1(Op::kRelu, {x}, {}, "a");
  b.output("y", x);
  try {
    std::move(b).finish();
    FAIL("two nodes named 'a' were accepted");
  } catch (const Error& e) {
    CHECK(e.where().node == "a");
    CHECK(contains(e.message(), "two nodes have this name"));
  }
}

TEST_CASE("infer_and_validate fills in output types, in any node order") {
  Graph g;
  // A diamond added consumers first: c = ewadd(relu(x), tanh(x)).
  g.add_node(op_node("c", Op::kEwAdd, {ref(1), ref(2)}));
  g.add_node(op_node("a", Op::kRelu, {ref(3)}));
  g.add_node(op_node("b", Op::kTanh, {ref(3)}));
  g.add_node(leaf("x", Op::kInput, {2, 5}));
  g.add_output("c", ref(0));
  g.infer_and_validate();
  for (const Node& node : g.nodes()) {
    CAPTURE(node.name);
    REQUIRE(node.outputs.size() == 1);
    CHECK(node.outputs[0] == TensorType{{2, 5}, DType::kFloat32});
  }
  // Validating again with the recorded types succeeds.
  CHECK_NOTHROW(g.infer_and_validate());

  check_topological(g, g.topological_order());
}

TEST_CASE("infer_and_validate: names") {
  SUBCASE("duplicate names") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2}));
    g.add_node(op_node("x", Op::kRelu, {ref(0)}));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "x");
    CHECK(contains(e.message(), "two nodes have this name"));
  }
  SUBCASE("empty name") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2}));
    g.add_node(op_node("", Op::kRelu, {ref(0)}));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(contains(e.message(), "node #1 (relu) has no name"));
  }
}

TEST_CASE("infer_and_validate: inputs") {
  SUBCASE("a missing node") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2}));
    g.add_node(op_node("r", Op::kRelu, {ref(5)}));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "r");
    CHECK(contains(e.message(), "input refers to missing node #5"));
  }
  SUBCASE("an output index that does not exist") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {6}));
    g.add_node(
        op_node("s", Op::kSplit, {ref(0)}, {std::int64_t{0}, std::vector<std::int64_t>{2, 4}}));
    g.add_node(op_node("r", Op::kRelu, {ref(1, 2)}));
    g.add_output("y", ref(2));
    const Error e = validation_error(g);
    CHECK(e.where().node == "r");
    CHECK(contains(e.message(), "input 's' has 2 output(s), output 2 was asked for"));
  }
  SUBCASE("an operator that rejects its inputs") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2, 3}));
    g.add_node(op_node("t", Op::kTranspose, {ref(0)}, {std::vector<std::int64_t>{0, 2}}));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "t");
    CHECK(contains(e.message(), "transpose permutation entry 2 is outside [0, 2)"));
  }
  SUBCASE("the wrong number of inputs") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2, 3}));
    g.add_node(op_node("m", Op::kEwMul, {ref(0)}));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "m");
    CHECK(contains(e.message(), "ewmul takes 2 tensor inputs, got 1"));
  }
}

TEST_CASE("infer_and_validate and topological_order reject cycles") {
  SUBCASE("two nodes") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2}));
    g.add_node(op_node("a", Op::kEwAdd, {ref(0), ref(2)}));
    g.add_node(op_node("b", Op::kRelu, {ref(1)}));
    g.add_output("y", ref(2));
    const Error e = validation_error(g);
    CHECK((e.where().node == "a" || e.where().node == "b"));
    CHECK(contains(e.message(), "cycle"));
    CHECK_THROWS_AS(g.topological_order(), Error);
  }
  SUBCASE("a self-loop") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2}));
    g.add_node(op_node("s", Op::kEwAdd, {ref(0), ref(1)}));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "s");
    CHECK(contains(e.message(), "cycle"));
  }
  SUBCASE("a longer cycle behind valid nodes") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2}));
    g.add_node(op_node("r", Op::kRelu, {ref(0)}));
    g.add_node(op_node("p", Op::kEwAdd, {ref(1), ref(4)}));
    g.add_node(op_node("q", Op::kTanh, {ref(2)}));
    g.add_node(op_node("s", Op::kSigmoid, {ref(3)}));
    g.add_output("y", ref(4));
    const Error e = validation_error(g);
    CHECK((e.where().node == "p" || e.where().node == "q" || e.where().node == "s"));
    CHECK(contains(e.message(), "cycle"));
  }
}

TEST_CASE("infer_and_validate: recorded output types must agree with inference") {
  SUBCASE("a single output") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {3, 3}));
    Node r = op_node("r", Op::kRelu, {ref(0)});
    r.outputs = {TensorType{{2, 2}, DType::kFloat32}};
    g.add_node(std::move(r));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "r");
    CHECK(contains(e.message(),
                   "recorded type f32[2x2] of output 0 disagrees with the inferred f32[3x3]"));
  }
  SUBCASE("the element type") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {3}));
    Node r = op_node("r", Op::kRelu, {ref(0)});
    r.outputs = {TensorType{{3}, DType::kFloat16}};
    g.add_node(std::move(r));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "r");
    CHECK(contains(e.message(), "f16[3]"));
    CHECK(contains(e.message(), "f32[3]"));
  }
  SUBCASE("the second output of a split") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {6}));
    Node s = op_node("s", Op::kSplit, {ref(0)}, {std::int64_t{0}, std::vector<std::int64_t>{2, 4}});
    s.outputs = {TensorType{{2}, DType::kFloat32}, TensorType{{3}, DType::kFloat32}};
    g.add_node(std::move(s));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "s");
    CHECK(contains(e.message(),
                   "recorded type f32[3] of output 1 disagrees with the inferred f32[4]"));
  }
  SUBCASE("the number of outputs") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {6}));
    Node s = op_node("s", Op::kSplit, {ref(0)}, {std::int64_t{0}, std::vector<std::int64_t>{2, 4}});
    s.outputs = {TensorType{{2}, DType::kFloat32}};
    g.add_node(std::move(s));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "s");
    CHECK(contains(e.message(), "1 output type(s) recorded, 2 inferred"));
  }
}

TEST_CASE("infer_and_validate: weight values") {
  SUBCASE("values of the declared shape are accepted") {
    Graph g;
    Node w = leaf("w", Op::kWeight, {2, 3});
    w.value = std::make_shared<Tensor>(Shape{2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6});
    g.add_node(std::move(w));
    g.add_output("w", ref(0));
    CHECK_NOTHROW(g.infer_and_validate());
  }
  SUBCASE("values of another shape") {
    Graph g;
    Node w = leaf("w", Op::kWeight, {2, 3});
    w.value = std::make_shared<Tensor>(Shape{3, 2});
    g.add_node(std::move(w));
    g.add_output("w", ref(0));
    const Error e = validation_error(g);
    CHECK(e.where().node == "w");
    CHECK(contains(e.message(), "values of shape 3x2 do not fit a weight of type f32[2x3]"));
  }
  SUBCASE("too few values for the shape") {
    Graph g;
    Node w = leaf("w", Op::kWeight, {2, 3});
    w.value = std::make_shared<Tensor>(Shape{2, 3}, std::vector<double>{1, 2});
    g.add_node(std::move(w));
    g.add_output("w", ref(0));
    const Error e = validation_error(g);
    CHECK(e.where().node == "w");
    CHECK(contains(e.message(), "do not fit"));
  }
  SUBCASE("values on a node that is not a weight") {
    Graph g;
    Node x = leaf("x", Op::kInput, {2});
    x.value = std::make_shared<Tensor>(Shape{2});
    g.add_node(std::move(x));
    g.add_output("x", ref(0));
    const Error e = validation_error(g);
    CHECK(e.where().node == "x");
    CHECK(contains(e.message(), "do not fit"));
  }
}

TEST_CASE("infer_and_validate: opaque operators need their OpaqueInfo") {
  const Attrs attrs = {
      std::int64_t{3},
      encode_output_types(std::vector<TensorType>{TensorType{{2, 3}, DType::kFloat32}})};
  SUBCASE("without") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2, 3}));
    g.add_node(op_node("lrn", Op::kOpaque, {ref(0)}, attrs));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "lrn");
    CHECK(contains(e.message(), "opaque node without its operator type"));
  }
  SUBCASE("with") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2, 3}));
    Node lrn = op_node("lrn", Op::kOpaque, {ref(0)}, attrs);
    lrn.opaque = std::make_shared<OpaqueInfo>(OpaqueInfo{"LRN", ""});
    g.add_node(std::move(lrn));
    g.add_output("y", ref(1));
    g.infer_and_validate();
    CHECK(g.type_of(ref(1)) == TensorType{{2, 3}, DType::kFloat32});
  }
  SUBCASE("on a node that is not opaque") {
    Graph g;
    g.add_node(leaf("x", Op::kInput, {2, 3}));
    Node r = op_node("r", Op::kRelu, {ref(0)});
    r.opaque = std::make_shared<OpaqueInfo>(OpaqueInfo{"Relu", ""});
    g.add_node(std::move(r));
    g.add_output("y", ref(1));
    const Error e = validation_error(g);
    CHECK(e.where().node == "r");
    CHECK(contains(e.message(), "only opaque nodes carry an operator type"));
  }
}

TEST_CASE("infer_and_validate: graph outputs") {
  Graph g;
  g.add_node(leaf("x", Op::kInput, {4}));
  g.add_node(op_node("r", Op::kRelu, {ref(0)}));
  SUBCASE("none") {
    const Error e = validation_error(g);
    CHECK(contains(e.message(), "the graph has no outputs"));
  }
  SUBCASE("two with one name") {
    g.add_output("y", ref(1));
    g.add_output("y", ref(0));
    const Error e = validation_error(g);
    CHECK(contains(e.message(), "two graph outputs are named 'y'"));
  }
  SUBCASE("a missing node") {
    g.add_output("y", ref(7));
    const Error e = validation_error(g);
    CHECK(contains(e.message(), "graph output 'y' refers to a missing tensor"));
  }
  SUBCASE("a missing output of an existing node") {
    g.add_output("z", ref(1, 1));
    const Error e = validation_error(g);
    CHECK(contains(e.message(), "graph output 'z' refers to a missing tensor"));
  }
  SUBCASE("two names for one tensor are fine") {
    g.add_output("y", ref(1));
    g.add_output("z", ref(1));
    CHECK_NOTHROW(g.infer_and_validate());
  }
}

TEST_CASE("topological_order puts every node after its inputs") {
  SUBCASE("a diamond in insertion order") {
    GraphBuilder b;
    const TensorRef x = b.input("x", {4});
    const TensorRef l = b.relu(x);
    const TensorRef r = b.tanh(x);
    b.output("y", b.ewadd(l, r));
    const Graph g = std::move(b).finish();
    check_topological(g, g.topological_order());
  }
  SUBCASE("a diamond added in reverse order") {
    Graph g;
    g.add_node(op_node("y", Op::kEwMul, {ref(1), ref(2)}));
    g.add_node(op_node("l", Op::kSigmoid, {ref(3)}));
    g.add_node(op_node("r", Op::kRelu, {ref(3)}));
    g.add_node(op_node("m", Op::kEwAdd, {ref(4), ref(5)}));
    g.add_node(leaf("x", Op::kInput, {4}));
    g.add_node(leaf("w", Op::kWeight, {4}));
    const std::vector<NodeId> order = g.topological_order();
    check_topological(g, order);
    CHECK(order.back() == 0);  // the only sink
  }
  SUBCASE("a chain added in reverse order") {
    Graph g;
    for (NodeId id = 0; id < 5; ++id)
      g.add_node(op_node(fmt::format("n{}", id), Op::kRelu, {ref(id + 1)}));
    g.add_node(leaf("x", Op::kInput, {1}));
    CHECK(g.topological_order() == std::vector<NodeId>{5, 4, 3, 2, 1, 0});
  }
  SUBCASE("a long chain does not exhaust the stack") {
    constexpr NodeId kLength = 50000;
    Graph g;
    for (NodeId id = 0; id < kLength; ++id)
      g.add_node(op_node(fmt::format("n{}", id), Op::kRelu, {ref(id + 1)}));
    g.add_node(leaf("x", Op::kInput, {1}));
    g.add_output("y", ref(0));
    const std::vector<NodeId> order = g.topological_order();
    REQUIRE(order.size() == kLength + 1);
    CHECK(order.front() == kLength);
    CHECK(order.back() == 0);
    g.infer_and_validate();
    CHECK(g.type_of(ref(0)).shape == Shape{1});
  }
  SUBCASE("an empty graph") {
    const Graph g;
    CHECK(g.topological_order().empty());
  }
}

TEST_CASE("weight_only marks exactly the nodes that depend only on weights") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 8});     // 0
  const TensorRef w = b.weight("w", {8, 8});    // 1
  const TensorRef wt = b.transpose(w, {1, 0});  // 2
  const TensorRef m = b.matmul(x, wt);          // 3
  const TensorRef w2 = b.weight("w2", {8, 8});  // 4
  const TensorRef cat = b.concat(0, {w, w2});   // 5
  const TensorRef r = b.relu(m);                // 6
  const TensorRef sum = b.ewadd(wt, w2);        // 7
  const TensorRef mixed = b.matmul(x, sum);     // 8
  const TensorRef op = b.add1(
      Op::kOpaque, {w},
      {std::int64_t{0},
       encode_output_types(std::vector<TensorType>{TensorType{{8, 8}, DType::kFloat32}})});  // 9
  const TensorRef deep = b.relu(b.matmul(cat, wt));  // 10, 11
  (void)r;
  (void)mixed;
  (void)op;
  (void)deep;
  const Graph& g = b.graph();
  REQUIRE(g.size() == 12);
  CHECK(g.weight_only() == std::vector<bool>{false, true, true, false, true, true, false, true,
                                             false, false, true, true});
}

TEST_CASE("tensor_ref_string names the node and a non-zero output index") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {6});
  const std::vector<TensorRef> parts = b.split(x, 0, {1, 2, 3});
  REQUIRE(parts.size() == 3);
  CHECK(b.type_of(parts[2]).shape == Shape{3});
  CHECK(tensor_ref_string(b.graph(), x) == "x");
  CHECK(tensor_ref_string(b.graph(), parts[0]) == "split_0");
  CHECK(tensor_ref_string(b.graph(), parts[2]) == "split_0:2");
}
