// Tests of the conversions between graphs and tensor e-graphs: round trips (structure, types and
// reference-interpreter outputs) on graphs built like the zoo's `demo` and `bert` and on graphs
// with split, concat, transpose, clip, weights with values and opaque operators; selections after
// a rewrite; selection errors; and e-node costs against graph costs.
#include "tensor/egraph_conversion.hpp"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "egraph/rewrite.hpp"
#include "frontend/zoo_builders.hpp"
#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/enode_cost.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/shape_inference.hpp"
#include "tests/support/fixtures.hpp"

namespace mctsat::tensor {
namespace {

// The zoo's `demo` (frontend/zoo.cpp) with its sizes as parameters: a convolution and a separate
// relu, two 1x1 convolutions sharing their input, two products sharing their input.
Graph demo_graph(std::int64_t channels, std::int64_t side, std::int64_t tokens,
                 std::int64_t hidden) {
  GraphBuilder b;
  const TensorRef image = b.input("image", {1, channels, side, side});
  const TensorRef c1 = b.relu(
      b.conv2d(image, b.weight("conv1_w", {channels, channels, 3, 3}), 1, 1, Padding::kSame));
  const TensorRef left = b.conv2d(c1, b.weight("conv2_w", {channels, channels, 1, 1}), 1, 1,
                                  Padding::kSame, Activation::kRelu);
  const TensorRef right = b.conv2d(c1, b.weight("conv3_w", {channels, channels, 1, 1}), 1, 1,
                                   Padding::kSame, Activation::kRelu);
  b.output("features", b.ewadd(left, right));
  const TensorRef x = b.input("tokens", {tokens, hidden});
  const TensorRef a = b.matmul(x, b.weight("proj_a", {hidden, hidden}));
  const TensorRef c = b.matmul(x, b.weight("proj_b", {hidden, hidden}));
  b.output("mixed", b.ewadd(b.relu(a), b.tanh(c)));
  return std::move(b).finish();
}

// The zoo's `bert` with its sizes as parameters (the zoo: 8 layers, 64 tokens, 16 heads of 64).
Graph bert_graph(int layers, std::int64_t tokens, std::int64_t heads, std::int64_t head_size) {
  return mctsat::frontend::zoo::build_bert(mctsat::frontend::zoo::BertSizes{
      .layers = layers, .tokens = tokens, .heads = heads, .head_size = head_size});
}

std::shared_ptr<const Tensor> counting_values(Shape shape, double scale) {
  Tensor t(std::move(shape));
  for (std::size_t i = 0; i < t.size(); ++i) t.data[i] = scale * static_cast<double>(i % 7) - 0.3;
  return std::make_shared<const Tensor>(std::move(t));
}

// Split with two outputs (one used twice), concat, transpose, clip with float attributes, weights
// with values, a weight-only subgraph, a shared subexpression.
Graph mixed_graph() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 12});
  const auto parts = b.split(x, 1, {4, 8});  // 4x4, 4x8
  const TensorRef w = b.weight("w", {4, 8}, counting_values({4, 8}, 0.25));
  const TensorRef v = b.weight("v", {8, 8}, counting_values({8, 8}, -0.125));
  const TensorRef wv = b.matmul(w, v);                               // weight-only
  const TensorRef left = b.matmul(parts[0], wv, Activation::kTanh);  // 4x8
  const TensorRef shared = b.relu(parts[1]);
  const TensorRef joined = b.concat(1, {left, shared});  // 4x16
  const TensorRef t = b.transpose(joined, {1, 0});       // 16x4
  const TensorRef clipped = b.add1(Op::kClip, {t}, {-0.5, 0.75});
  b.output("clipped", clipped);
  b.output("sum", b.ewadd(shared, parts[1]));
  b.output("part", parts[0]);
  return std::move(b).finish();
}

// An opaque operator with two outputs (one used, one also a graph output) and one with one.
Graph opaque_graph() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {2, 6});
  const TensorRef r = b.relu(x);
  const std::vector<TensorType> types = {TensorType{{2, 6}}, TensorType{{3}, DType::kInt64}};
  const auto outs = b.add(Op::kOpaque, {r}, {std::int64_t{7}, encode_output_types(types)}, "lrn");
  const TensorRef one = b.add1(
      Op::kOpaque, {outs[0], x},
      {std::int64_t{8}, encode_output_types(std::span<const TensorType>(types).first(1))}, "mix");
  b.output("y", b.tanh(one));
  b.output("indices", outs[1]);
  Graph graph = b.graph();
  graph.nodes()[outs[0].node].opaque = std::make_shared<const OpaqueInfo>(OpaqueInfo{"LRN", "p"});
  graph.nodes()[one.node].opaque = std::make_shared<const OpaqueInfo>(OpaqueInfo{"Mix", ""});
  graph.infer_and_validate();
  return graph;
}

Graph round_trip(const Graph& graph) {
  const TensorEGraph egraph = to_egraph(graph);
  return build_graph(egraph, source_selection(egraph));
}

// The same nodes (by name: operator, attributes, inputs, types, values, opaque info) and the same
// outputs.
void check_same_structure(const Graph& want, const Graph& got) {
  CHECK(got.size() == want.size());
  CHECK(graph_stats(got).by_op == graph_stats(want).by_op);
  for (const Node& node : want.nodes()) {
    CAPTURE(node.name);
    const auto id = got.find(node.name);
    REQUIRE(id.has_value());
    const Node& other = got.node(*id);
    CHECK(other.op == node.op);
    CHECK(other.attrs == node.attrs);
    CHECK(other.outputs == node.outputs);
    CHECK(other.value == node.value);
    CHECK(other.opaque == node.opaque);
    CHECK(other.leaf_dtype == node.leaf_dtype);
    REQUIRE(other.inputs.size() == node.inputs.size());
    for (std::size_t i = 0; i < node.inputs.size(); ++i)
      CHECK(tensor_ref_string(got, other.inputs[i]) == tensor_ref_string(want, node.inputs[i]));
  }
  REQUIRE(got.outputs().size() == want.outputs().size());
  for (std::size_t i = 0; i < want.outputs().size(); ++i) {
    CHECK(got.outputs()[i].name == want.outputs()[i].name);
    CHECK(tensor_ref_string(got, got.outputs()[i].tensor) ==
          tensor_ref_string(want, want.outputs()[i].tensor));
    CHECK(got.type_of(got.outputs()[i].tensor) == want.type_of(want.outputs()[i].tensor));
  }
}

// Interprets both graphs on the same random inputs and weights; outputs must agree (exactly,
// unless a tolerance is given).
void check_same_outputs(const Graph& want, const Graph& got, double epsilon = 0) {
  InterpretOptions options;
  options.random_weight_seed = 11;
  const auto inputs = random_inputs(want, 5);
  const std::vector<Tensor> a = interpret(want, inputs, options);
  const std::vector<Tensor> b = interpret(got, inputs, options);
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(i);
    REQUIRE(a[i].shape == b[i].shape);
    if (epsilon == 0) {
      CHECK(a[i] == b[i]);
    } else {
      for (std::size_t k = 0; k < a[i].size(); ++k)
        CHECK(b[i].data[k] == doctest::Approx(a[i].data[k]).epsilon(epsilon));
    }
  }
}

TEST_CASE("round trip of demo-like graphs: same structure and outputs") {
  const Graph full = demo_graph(64, 56, 64, 512);  // the zoo's sizes
  check_same_structure(full, round_trip(full));
  const Graph small = demo_graph(4, 6, 8, 16);
  const Graph back = round_trip(small);
  check_same_structure(small, back);
  check_same_outputs(small, back);
}

TEST_CASE("round trip of bert-like graphs: same structure and outputs") {
  const Graph full = bert_graph(8, 64, 16, 64);  // the zoo's sizes
  CHECK(graph_stats(full).operators == 113);
  check_same_structure(full, round_trip(full));
  const Graph small = bert_graph(2, 8, 2, 8);
  const Graph back = round_trip(small);
  check_same_structure(small, back);
  check_same_outputs(small, back);
}

TEST_CASE("round trip with split, concat, transpose, clip and weight values") {
  const Graph graph = mixed_graph();
  const TensorEGraph egraph = to_egraph(graph);
  // The split's class is a tuple; its outputs are proj classes.
  CHECK(egraph.egraph.classes_with_op(kProjOp).size() == 2);
  CHECK(egraph.egraph.data(egraph.roots[2]).is_tensor());
  CHECK(egraph.egraph.node(egraph.roots[2]).op == kProjOp);
  CHECK(egraph.tables().leaves.size() == 3);
  const Graph back = build_graph(egraph, source_selection(egraph));
  check_same_structure(graph, back);
  check_same_outputs(graph, back);
}

TEST_CASE("round trip with opaque operators") {
  const Graph graph = opaque_graph();
  const TensorEGraph egraph = to_egraph(graph);
  CHECK(egraph.tables().opaque.size() == 2);
  CHECK(egraph.egraph.data(egraph.roots[1]).dtype == DType::kInt64);
  check_same_structure(graph, build_graph(egraph, source_selection(egraph)));
}

TEST_CASE("shared subgraphs are built once; identical nodes become one") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {3, 3});
  const TensorRef y = b.input("y", {3, 3});  // same shape, another leaf
  const TensorRef r = b.relu(x);
  b.output("twice", b.ewadd(r, r));
  b.output("again", b.tanh(r));
  b.output("copy", b.relu(x));  // structurally identical to r
  b.output("other", b.relu(y));
  const Graph graph = std::move(b).finish();
  const Graph back = round_trip(graph);
  CHECK(back.size() == graph.size() - 1);
  CHECK(graph_stats(back).by_op.at(Op::kRelu) == 2);
  CHECK(graph_stats(back).inputs == 2);
  const std::string& relu_name = graph.node(r.node).name;
  CHECK(back.outputs()[2].tensor == TensorRef{*back.find(relu_name), 0});
  check_same_outputs(graph, back);
}

TEST_CASE("noop joins outputs into a data-less root") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {2, 3});
  const TensorRef first = b.add1(Op::kNoop, {b.relu(x), b.tanh(x)}, {});
  b.output("joined", b.add1(Op::kNoop, {first, b.sigmoid(x)}, {}));
  const Graph graph = std::move(b).finish();
  const TensorEGraph egraph = to_egraph(graph);
  CHECK(egraph.egraph.data(egraph.roots[0]).kind == ValueKind::kNone);
  const Graph back = build_graph(egraph, source_selection(egraph));
  check_same_structure(graph, back);
  check_same_outputs(graph, back);
}

TEST_CASE("graphs the e-graph cannot take") {
  SUBCASE("not validated") {
    Graph graph;
    Node node;
    node.name = "x";
    node.op = Op::kInput;
    node.attrs = {Shape{2}};
    graph.add_node(node);
    CHECK_THROWS_AS(to_egraph(graph), Error);
  }
  SUBCASE("a split into nine parts") {
    GraphBuilder b;
    const auto parts = b.split(b.input("x", {9, 2}), 0, std::vector<std::int64_t>(9, 1));
    b.output("y", parts[0]);
    try {
      to_egraph(std::move(b).finish());
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.where().node == "split_0");
    }
  }
  SUBCASE("a rank-9 opaque output") {
    GraphBuilder b;
    const TensorRef x = b.input("x", {2});
    const std::vector<TensorType> types = {TensorType{Shape(9, 1)}};
    const TensorRef y =
        b.add1(Op::kOpaque, {x}, {std::int64_t{0}, encode_output_types(types)}, "o");
    b.output("y", y);
    Graph graph = b.graph();
    graph.nodes()[y.node].opaque = std::make_shared<const OpaqueInfo>(OpaqueInfo{"Big", ""});
    graph.infer_and_validate();
    try {
      to_egraph(graph);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.where().node == "o");
    }
  }
}

TEST_CASE("selection errors are reported") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {2, 2});
  const TensorRef r = b.relu(x);
  const TensorRef t = b.tanh(r);
  b.output("t", t);
  TensorEGraph egraph = to_egraph(std::move(b).finish());
  const Id relu_class = egraph.egraph.find(egraph.egraph.node(egraph.roots[0]).children[0]);
  auto message = [&](const Selection& selection) {
    try {
      build_graph(egraph, selection);
    } catch (const std::logic_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Selection selection = source_selection(egraph);
  selection[relu_class] = kNoId;
  CHECK(message(selection).find("no e-node for the needed e-class") != std::string::npos);
  selection = source_selection(egraph);
  selection[relu_class] = egraph.roots[0];  // an e-node of another class
  CHECK(message(selection).find("not a live e-node") != std::string::npos);
  CHECK(message(Selection(2, kNoId)).find("entries") != std::string::npos);

  // relu(x) = tanh(relu(x)) (unsound but well-typed): choosing tanh for the merged class is a
  // cycle.
  egraph.egraph.merge(relu_class, egraph.roots[0]);
  egraph.egraph.rebuild();
  selection = source_selection(egraph);
  const Id merged = egraph.egraph.find(relu_class);
  CHECK(selection[merged] == egraph.egraph.node(egraph.roots[0]).children[0]);  // relu: lowest id
  CHECK(build_graph(egraph, selection).size() == 2);                            // x and relu
  selection[merged] = egraph.egraph.nodes_of(merged, op_code(Op::kTanh))[0];
  CHECK(message(selection).find("cyclic") != std::string::npos);
}

TEST_CASE("a selection after a rewrite builds the rewritten graph") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 8});
  const TensorRef w1 = b.weight("w1", {8, 16}), w2 = b.weight("w2", {16, 2});
  b.output("y", b.matmul(b.matmul(x, w1), w2));
  const Graph graph = std::move(b).finish();
  TensorEGraph egraph = to_egraph(graph);

  // (matmul 0 (matmul 0 ?a ?b) ?c) => (matmul 0 ?a (matmul 0 ?b ?c))
  const OpCode mm = op_code(Op::kMatmul);
  egraph::Pattern lhs, rhs;
  lhs.node(mm, 0,
           {pattern_int(lhs, 0), lhs.node(mm, 0, {pattern_int(lhs, 0), lhs.var(0), lhs.var(1)}),
            lhs.var(2)});
  rhs.node(mm, 0,
           {pattern_int(rhs, 0), rhs.var(0),
            rhs.node(mm, 0, {pattern_int(rhs, 0), rhs.var(1), rhs.var(2)})});
  const egraph::Rewrite<TensorAnalysis> assoc("assoc", {lhs}, {rhs}, 3);
  CHECK(assoc.apply(egraph.egraph, assoc.search(egraph.egraph)).applied == 1);
  egraph.egraph.rebuild();

  // The source choice still builds the source graph.
  check_same_structure(graph, build_graph(egraph, source_selection(egraph)));

  // Choosing the new product at the root (and the new class's only e-node) builds x * (w1 * w2).
  Selection selection = source_selection(egraph);
  const Id root = egraph.egraph.find(egraph.roots[0]);
  for (Id node : egraph.egraph.nodes_of(root))
    if (node != selection[root]) selection[root] = node;
  for (Id eclass : egraph.egraph.classes())
    if (selection[eclass] == kNoId) selection[eclass] = egraph.egraph.nodes_of(eclass)[0];
  const Graph rewritten = build_graph(egraph, selection);
  CHECK(rewritten.size() == graph.size());
  CHECK(graph_stats(rewritten).by_op.at(Op::kMatmul) == 2);
  const NodeId y = rewritten.outputs()[0].tensor.node;
  // New e-nodes get fresh names that no source node has.
  CHECK(rewritten.node(y).name == "matmul_3");
  CHECK(rewritten.node(rewritten.node(y).inputs[0].node).name == "x");
  const NodeId inner = rewritten.node(y).inputs[1].node;
  CHECK(rewritten.node(inner).op == Op::kMatmul);
  CHECK(rewritten.node(inner).name == "matmul_2");
  CHECK(rewritten.weight_only()[inner]);
  check_same_outputs(graph, rewritten, 1e-9);
}

TEST_CASE("an equivalent graph added to an e-graph joins its roots and can be built back") {
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 8});
  const TensorRef w1 = b.weight("w1", {8, 16}), w2 = b.weight("w2", {16, 2});
  b.output("y", b.matmul(b.matmul(x, w1), w2));
  b.output("r", b.relu(x));
  const Graph graph = std::move(b).finish();
  GraphBuilder e;  // the same outputs, the products associated the other way
  const TensorRef ex = e.input("x", {4, 8});
  e.output("y", e.matmul(ex, e.matmul(e.weight("w1", {8, 16}), e.weight("w2", {16, 2}))));
  e.output("r", e.relu(ex));
  const Graph equivalent = std::move(e).finish();

  TensorEGraph egraph = to_egraph(graph);
  const std::size_t classes = egraph.egraph.num_classes();
  add_equivalent_graph(egraph, equivalent);
  CHECK(egraph.egraph.clean());
  CHECK(egraph.egraph.num_classes() == classes + 1);  // w1 * w2; x and relu(x) are shared
  const Id root = egraph.egraph.find(egraph.roots[0]);
  CHECK(egraph.egraph.nodes_of(root).size() == 2);
  // The source choice still builds the source graph; the added root node builds the other.
  check_same_structure(graph, build_graph(egraph, source_selection(egraph)));
  Selection selection = source_selection(egraph);
  for (Id node : egraph.egraph.nodes_of(root))
    if (node != selection[root]) selection[root] = node;
  for (Id eclass : egraph.egraph.classes())
    if (selection[eclass] == kNoId) selection[eclass] = egraph.egraph.nodes_of(eclass)[0];
  const Graph built = build_graph(egraph, selection);
  CHECK(graph_stats(built).by_op.at(Op::kMatmul) == 2);
  CHECK(built.weight_only()[built.node(built.outputs()[0].tensor.node).inputs[1].node]);
  check_same_outputs(graph, built, 1e-9);

  // Leaves are found by name; outputs by position.
  GraphBuilder other;
  other.output("y", other.matmul(other.input("z", {4, 8}), other.weight("w3", {8, 2})));
  other.output("r", other.relu(other.input("x", {4, 8})));
  TensorEGraph fresh = to_egraph(graph);
  CHECK_THROWS_WITH_AS(add_equivalent_graph(fresh, std::move(other).finish()),
                       doctest::Contains("the e-graph's source has no input or weight"), Error);
  GraphBuilder single;
  single.output("r", single.relu(single.input("x", {4, 8})));
  CHECK_THROWS_WITH_AS(add_equivalent_graph(fresh, std::move(single).finish()),
                       doctest::Contains("1 outputs, the e-graph 2 roots"), Error);
}

// The cost of a selection: every needed class's chosen e-node once.
double selection_cost(const TensorEGraph& egraph, const Selection& selection,
                      const CostModel& model) {
  const auto& g = egraph.egraph;
  std::vector<bool> seen(g.num_ids(), false);
  std::vector<Id> stack(egraph.roots.begin(), egraph.roots.end());
  double total = 0;
  while (!stack.empty()) {
    const Id eclass = g.find(stack.back());
    stack.pop_back();
    if (seen[eclass]) continue;
    seen[eclass] = true;
    const Id node = selection[eclass];
    if (node == kNoId) continue;  // a literal
    total += enode_cost(g, node, model);
    for (Id child : g.node(node).children) stack.push_back(child);
  }
  return total;
}

TEST_CASE("e-node costs: zero for literals, leaves, proj, views and weight-only e-nodes") {
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = mixed_graph();
  const TensorEGraph egraph = to_egraph(graph);
  const auto& g = egraph.egraph;
  std::size_t priced = 0;
  for (Id eclass : g.classes()) {
    for (Id node : g.nodes_of(eclass)) {
      const egraph::ENodeRef enode = g.node(node);
      const double cost = enode_cost(g, node, model);
      CAPTURE(opcode_name(enode.op));
      CHECK(cost >= 0);
      const auto op = tensor_op(enode.op);
      if (!op || *op == Op::kInput || *op == Op::kWeight || *op == Op::kSplit ||
          g.data(eclass).weight_only) {
        CHECK(cost == 0);
      } else {
        CHECK(cost > 0);
        ++priced;
      }
    }
  }
  CHECK(priced == 6);  // matmul (x part), relu, concat, transpose, clip, ewadd

  // Over the source selection, e-node costs add up to the graph's cost.
  for (const Graph& g2 : {graph, demo_graph(64, 56, 64, 512), bert_graph(8, 64, 16, 64)}) {
    const TensorEGraph e2 = to_egraph(g2);
    CHECK(selection_cost(e2, source_selection(e2), model) ==
          doctest::Approx(graph_cost(g2, model)).epsilon(1e-12));
  }

  // A view costs nothing, a product something.
  const Graph bert = bert_graph(1, 8, 2, 8);
  const TensorEGraph e3 = to_egraph(bert);
  const auto& g3 = e3.egraph;
  for (Id eclass : g3.classes_with_op(op_code(Op::kReshape)))
    for (Id node : g3.nodes_of(eclass, op_code(Op::kReshape)))
      CHECK(enode_cost(g3, node, model) == 0);
  CHECK_FALSE(g3.classes_with_op(op_code(Op::kMatmul)).empty());
  for (Id eclass : g3.classes_with_op(op_code(Op::kMatmul)))
    for (Id node : g3.nodes_of(eclass, op_code(Op::kMatmul)))
      CHECK(enode_cost(g3, node, model) > 0);
}

}  // namespace
}  // namespace mctsat::tensor
