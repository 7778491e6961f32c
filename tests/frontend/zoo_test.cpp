// The built-in models build, validate and have the sizes their sources report: operator counts
// (TENSAT's, from uwplse/tensat src/*.rs), per-operator counts, parameters, input and output
// shapes, all written out by hand from the architectures.
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/model_io.hpp"
#include "frontend/zoo.hpp"
#include "support/error.hpp"
#include "tensor/graph_stats.hpp"
#include "tests/frontend/graph_queries.hpp"

using namespace mctsat;
using namespace mctsat::tensor;

namespace {
std::map<Op, int> operator_counts(const Graph& graph) {
  std::map<Op, int> counts;
  for (const Node& node : graph.nodes()) {
    if (node.op != Op::kInput && node.op != Op::kWeight) ++counts[node.op];
  }
  return counts;
}
}  // namespace

TEST_CASE("bert has TENSAT's 113 operators") {
  const Graph bert = *frontend::build_zoo_model("bert");
  const auto counts = operator_counts(bert);
  int total = 0;
  for (const auto& [op, n] : counts) total += n;
  CHECK(total == 113);
  CHECK(counts.at(Op::kMatmul) == 8 * 6);
  CHECK(counts.at(Op::kReshape) == 8 * 4);
  CHECK(counts.at(Op::kTranspose) == 8 * 4);
  CHECK(counts.at(Op::kRelu) == 1);
  CHECK(bert.outputs().size() == 8);
  CHECK(bert.type_of(bert.outputs()[7].tensor).shape == Shape{64, 1024});
}

namespace {
struct Expected {
  std::string_view name;
  std::size_t operators;
  std::int64_t parameters;
  std::vector<Shape> inputs;  // in node order
  std::vector<Shape> outputs;
};

std::vector<Shape> output_shapes(const Graph& graph) {
  std::vector<Shape> shapes;
  for (const GraphOutput& output : graph.outputs()) {
    shapes.push_back(graph.type_of(output.tensor).shape);
  }
  return shapes;
}

// Every operator kind of the graph with its count, and no other kind.
void check_by_op(const Graph& graph, const std::map<Op, std::size_t>& expected) {
  const GraphStats stats = graph_stats(graph);
  CHECK(stats.by_op.size() == expected.size());
  for (const auto& [op, count] : expected) {
    CAPTURE(op_name(op));
    CHECK(stats.by_op.contains(op));
    if (stats.by_op.contains(op)) CHECK(stats.by_op.at(op) == count);
  }
}

const TensorType& input_type(const Graph& graph, const Node& node, std::size_t i) {
  return graph.type_of(node.inputs.at(i));
}

// Convolutions whose kernel has `groups` groups (C_in / w.dim(1)).
int convolutions_with_groups(const Graph& graph, std::int64_t groups) {
  int count = 0;
  for (const Node& node : graph.nodes()) {
    if (node.op != Op::kConv2d) continue;
    const std::int64_t in_channels = input_type(graph, node, 0).shape.at(1);
    if (in_channels / input_type(graph, node, 1).shape.at(1) == groups) ++count;
  }
  return count;
}

int convolutions_with_stride(const Graph& graph, std::int64_t stride) {
  int count = 0;
  for (const Node& node : graph.nodes()) {
    if (node.op == Op::kConv2d && std::get<std::int64_t>(node.attrs.at(0)) == stride) ++count;
  }
  return count;
}
}  // namespace

TEST_CASE("every zoo model builds and validates, with its operators, parameters and shapes") {
  const std::vector<Shape> bert_layers(8, Shape{64, 1024});
  const std::vector<Shape> nasrnn_steps(5, Shape{1, 512});
  // Parameters: weight elements, from the architectures (e.g. nasrnn: 80 matrices of 512x512 and
  // a 1x512 initial state; resnet50: the standard network's convolutions without its stem).
  const std::vector<Expected> expected = {
      {"demo", 10, 569344, {{1, 64, 56, 56}, {64, 512}}, {{1, 64, 56, 56}, {64, 512}}},
      {"bert", 113, 33554432, {{64, 1024}}, bert_layers},
      {"nasrnn", 230, 20972032, nasrnn_steps, {{1, 512}}},
      {"nasneta", 383, 39838528, {{1, 3, 224, 224}}, {{1, 5120, 7, 7}}},
      {"resnext50", 86, 22911680, {{1, 3, 224, 224}}, {{1, 2048, 7, 7}}},
      {"resnet50", 84, 23445504, {{1, 64, 56, 56}}, {{1, 2048, 7, 7}}},
      {"vgg19", 50, 143652544, {{1, 3, 224, 224}}, {{1, 1000}}},
      {"squeezenet", 66, 1231552, {{1, 3, 224, 224}}, {{1, 1000}}},
      {"mobilenetv2", 155, 3539136, {{1, 3, 224, 224}}, {{1, 1000}}},
      {"inceptionv3", 138, 21751136, {{1, 3, 299, 299}}, {{1, 2048, 1, 1}}},
  };
  const auto entries = frontend::zoo_models();
  REQUIRE(entries.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Expected& want = expected[i];
    CAPTURE(want.name);
    CHECK(entries[i].name == want.name);
    CHECK_FALSE(entries[i].description.empty());
    const auto built = frontend::build_zoo_model(want.name);
    REQUIRE(built);
    Graph graph = *built;
    CHECK_NOTHROW(graph.infer_and_validate());
    const GraphStats stats = graph_stats(graph);
    CHECK(stats.operators == want.operators);
    CHECK(stats.parameters == want.parameters);
    CHECK(stats.weights_with_values == 0);
    CHECK(input_shapes(graph) == want.inputs);
    CHECK(output_shapes(graph) == want.outputs);
  }
}

TEST_CASE("zoo models build deterministically") {
  for (const auto& entry : frontend::zoo_models()) {
    CAPTURE(entry.name);
    const Graph a = *frontend::build_zoo_model(entry.name);
    const Graph b = *frontend::build_zoo_model(entry.name);
    REQUIRE(a.size() == b.size());
    for (NodeId id = 0; id < a.size(); ++id) {
      CHECK(a.node(id).name == b.node(id).name);
      CHECK(a.node(id).op == b.node(id).op);
      CHECK(a.node(id).inputs == b.node(id).inputs);
    }
  }
}

TEST_CASE("nasrnn: 5 steps of 8 combinations, the first step's state a weight") {
  const Graph nasrnn = *frontend::build_zoo_model("nasrnn");
  // Per step: 16 matmul + 11 ewadd + 4 ewmul + 8 tanh + 5 sigmoid + 2 relu = 46.
  check_by_op(nasrnn, {{Op::kMatmul, 80},
                       {Op::kEwAdd, 55},
                       {Op::kEwMul, 20},
                       {Op::kTanh, 40},
                       {Op::kSigmoid, 25},
                       {Op::kRelu, 10}});
  CHECK(graph_stats(nasrnn).weights == 81);
  int weight_only = 0;
  for (const Node& node : nasrnn.nodes()) {
    if (node.op != Op::kMatmul) continue;
    const bool a = nasrnn.node(node.inputs[0].node).op == Op::kWeight;
    const bool b = nasrnn.node(node.inputs[1].node).op == Op::kWeight;
    if (a && b) ++weight_only;
  }
  CHECK(weight_only == 8);
  CHECK(nasrnn.outputs().size() == 1);
  CHECK(nasrnn.node(nasrnn.outputs()[0].tensor.node).op == Op::kTanh);
}

TEST_CASE("nasneta: 18 cells of separable convolutions, pools and a five-way concat") {
  const Graph nasneta = *frontend::build_zoo_model("nasneta");
  // 2 stem + 15 normal cells (12 conv2d, 3 poolavg, 5 ewadd, 1 concat) + 3 reduction cells
  // (12 conv2d, 2 poolmax, 2 poolavg, 5 ewadd, 1 concat).
  check_by_op(nasneta, {{Op::kConv2d, 1 + 18 * 12},
                        {Op::kPoolMax, 1 + 3 * 2},
                        {Op::kPoolAvg, 15 * 3 + 3 * 2},
                        {Op::kEwAdd, 18 * 5},
                        {Op::kConcat, 18}});
  // Depthwise halves of the 5 separable convolutions per cell.
  int depthwise = 0;
  for (const Node& node : nasneta.nodes()) {
    if (node.op == Op::kConv2d && input_type(nasneta, node, 1).shape.at(1) == 1) ++depthwise;
    if (node.op == Op::kConcat) CHECK(node.inputs.size() == 5);
  }
  CHECK(depthwise == 18 * 5);
  CHECK(convolutions_with_stride(nasneta, 2) == 1 + 3 * 4);  // stem + 4 per reduction cell
}

TEST_CASE("resnext50 and resnet50: 16 bottleneck blocks") {
  const Graph resnext = *frontend::build_zoo_model("resnext50");
  check_by_op(
      resnext,
      {{Op::kConv2d, 1 + 16 * 3 + 4}, {Op::kPoolMax, 1}, {Op::kEwAdd, 16}, {Op::kRelu, 16}});
  CHECK(convolutions_with_groups(resnext, 32) == 16);
  CHECK(convolutions_with_stride(resnext, 2) == 1 + 3 * 2);  // stem, 3x3 and shortcut

  const Graph resnet = *frontend::build_zoo_model("resnet50");
  check_by_op(resnet, {{Op::kConv2d, 16 * 3 + 4}, {Op::kEwAdd, 16}, {Op::kRelu, 16}});
  CHECK(convolutions_with_groups(resnet, 1) == 16 * 3 + 4);
  CHECK(convolutions_with_stride(resnet, 2) == 3 * 2);
}

TEST_CASE("demo builds and every zoo name loads through load_model") {
  for (const auto& entry : frontend::zoo_models()) {
    CAPTURE(entry.name);
    CHECK(frontend::load_model(std::string(entry.name)).size() > 0);
  }
  CHECK_FALSE(frontend::build_zoo_model("no-such-model"));
}

TEST_CASE("load_model explains unknown names and formats") {
  try {
    frontend::load_model("no-such-model");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() ==
          "'no-such-model' is neither a file nor a zoo model (zoo: demo, bert, nasrnn, nasneta, "
          "resnext50, resnet50, vgg19, squeezenet, mobilenetv2, inceptionv3, nasrnn-<size>, "
          "bert-<size>, deepcnn-<size>)");
  }
  try {
    frontend::load_model(MCTSAT_SOURCE_DIR "/README.md");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "unsupported model format '.md' (supported: .json, .model, .onnx)");
  }
}

TEST_CASE("the largest generated models build") {
  // nasrnn-4096 (188,416 operators) took longer than any hostile case may: each fresh node name
  // was looked up by scanning every node built before it.
  CHECK(tensor::graph_stats(*frontend::build_zoo_model("nasrnn-4096")).operators == 188416);
  CHECK(tensor::graph_stats(*frontend::build_zoo_model("bert-4096")).operators == 57345);
  CHECK(tensor::graph_stats(*frontend::build_zoo_model("deepcnn-4096")).operators == 20480);
}
