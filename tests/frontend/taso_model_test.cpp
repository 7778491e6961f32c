// The TASO .model importer: TENSAT's five model files load with TENSAT's operator counts, the
// field layouts map to the right catalog operators and attributes, and malformed files give errors
// located at the offending line and column, naming the node.
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/model_io.hpp"
#include "frontend/taso_model.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "tensor/graph_stats.hpp"
#include "tests/frontend/graph_queries.hpp"

using namespace mctsat;
using namespace mctsat::tensor;

namespace {

const std::string kModels = MCTSAT_TENSAT_DATA_DIR "/model/";

Graph load(const std::string& name) {
  return frontend::load_model(kModels + name + ".model");
}

const Node& node(const Graph& graph, std::string_view name) {
  const auto id = graph.find(name);
  REQUIRE_MESSAGE(id, name);
  return graph.node(*id);
}

Shape shape_of(const Graph& graph, std::string_view name) {
  return node(graph, name).outputs.at(0).shape;
}

std::vector<std::string> output_names(const Graph& graph) {
  std::vector<std::string> names;
  for (const GraphOutput& out : graph.outputs()) names.push_back(out.name);
  return names;
}

Attrs attrs_of(const Graph& graph, std::string_view name) {
  return node(graph, name).attrs;
}

// The error that importing `text` raises (as file "bad.model").
Error import_error(const std::string& text) {
  try {
    frontend::graph_from_taso_model(text, "bad.model");
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an error");
  return Error("");
}

// A small valid graph: input 1x4x8x8, conv 3x3 SAME with relu, relu, 2x2 max pool.
const std::string kHeader =
    "100\n0\n10:0\n1,4,8,8\n"   // lines 1-4
    "101\n1\n11:0\n8,4,3,3\n"   // lines 5-8
    "102\n1\n11:0\n8,1,2,2\n";  // lines 9-12: the pool's placeholder weight
const std::string kBody =
    "103\n3\n100:0,101:0\n1,4,8,8,8,4,3,3,1,1,0,2,1,1\n"  // lines 13-16
    "104\n8\n103:0\n1,8,8,8\n"                            // lines 17-20
    "105\n6\n104:0,102:0\n1,8,8,8,6,2,2,2,2,1,0,0,0\n";   // lines 21-24

}  // namespace

TEST_CASE("TENSAT's models load with TENSAT's operator counts") {
  // TENSAT reports VGG-19 50, SqueezeNet 66, Inception-v3 138, MobileNet-v2 155 operators (inputs
  // and weights excluded); bts is TENSAT's small BERT-like test graph.
  const std::map<std::string, std::size_t> operators = {
      {"vgg", 50}, {"squeezenet", 66}, {"inceptionv3", 138}, {"mobilenetv2", 155}, {"bts", 113}};
  for (const auto& [name, count] : operators) {
    CAPTURE(name);
    Graph graph = load(name);
    CHECK_NOTHROW(graph.infer_and_validate());
    const GraphStats stats = graph_stats(graph);
    CHECK(stats.operators == count);
    CHECK(stats.inputs == 1);
    CHECK(stats.weights_with_values == 0);
    // The same text through the direct entry point gives the same graph.
    const std::string path = kModels + name + ".model";
    CHECK(frontend::graph_from_taso_model(read_text_file(path), path).size() == graph.size());
  }
}

TEST_CASE("operator kinds per model, written out") {
  CHECK(graph_stats(load("vgg")).by_op == std::map<Op, std::size_t>{{Op::kConv2d, 16},
                                                                    {Op::kRelu, 18},
                                                                    {Op::kPoolMax, 5},
                                                                    {Op::kDropout, 2},
                                                                    {Op::kReshape, 3},
                                                                    {Op::kTranspose, 3},
                                                                    {Op::kMatmul, 3}});
  CHECK(graph_stats(load("squeezenet")).by_op == std::map<Op, std::size_t>{{Op::kConv2d, 26},
                                                                           {Op::kRelu, 26},
                                                                           {Op::kPoolMax, 3},
                                                                           {Op::kPoolAvg, 1},
                                                                           {Op::kConcat, 8},
                                                                           {Op::kDropout, 1},
                                                                           {Op::kReshape, 1}});
  CHECK(graph_stats(load("inceptionv3")).by_op ==
        std::map<Op, std::size_t>{
            {Op::kConv2d, 94}, {Op::kPoolMax, 5}, {Op::kPoolAvg, 9}, {Op::kConcat, 30}});
  CHECK(graph_stats(load("mobilenetv2")).by_op == std::map<Op, std::size_t>{{Op::kConv2d, 54},
                                                                            {Op::kBatchNorm, 53},
                                                                            {Op::kRelu, 36},
                                                                            {Op::kEwAdd, 10},
                                                                            {Op::kPoolAvg, 1},
                                                                            {Op::kReshape, 1}});
}

TEST_CASE("inputs, outputs, weights and parameters") {
  const Graph vgg = load("vgg");
  CHECK(input_shapes(vgg) == std::vector<Shape>{{1, 3, 224, 224}});
  CHECK(output_names(vgg) == std::vector<std::string>{"Matmul_193"});
  CHECK(shape_of(vgg, "Matmul_193") == Shape{1, 1000});
  // Only the weights operators use: 16 kernels and 3 fully connected matrices (VGG-19 without its
  // biases, which the export never adds, and without the pooling placeholders).
  CHECK(graph_stats(vgg).weights == 19);
  CHECK(graph_stats(vgg).parameters == 143652544);
  CHECK_FALSE(vgg.find("Weight_102"));  // a bias
  CHECK_FALSE(vgg.find("Weight_143"));  // a pooling placeholder

  const Graph squeezenet = load("squeezenet");
  CHECK(input_shapes(squeezenet) == std::vector<Shape>{{1, 3, 224, 224}});
  CHECK(output_names(squeezenet) == std::vector<std::string>{"Reshape_223"});
  CHECK(shape_of(squeezenet, "Reshape_223") == Shape{1, 1000});
  CHECK(graph_stats(squeezenet).parameters == 1231552);

  const Graph inception = load("inceptionv3");
  CHECK(input_shapes(inception) == std::vector<Shape>{{1, 3, 299, 299}});
  CHECK(output_names(inception) == std::vector<std::string>{"AveragePool_346"});
  CHECK(shape_of(inception, "AveragePool_346") == Shape{1, 2048, 1, 1});
  CHECK(graph_stats(inception).weights == 94);

  const Graph mobilenet = load("mobilenetv2");
  CHECK(input_shapes(mobilenet) == std::vector<Shape>{{1, 3, 224, 224}});
  CHECK(output_names(mobilenet) == std::vector<std::string>{"Reshape_523"});
  CHECK(shape_of(mobilenet, "Reshape_523") == Shape{1, 1000});
  CHECK(graph_stats(mobilenet).weights == 54 + 4 * 53);

  const Graph bts = load("bts");
  CHECK(input_shapes(bts) == std::vector<Shape>{{64, 1024}});
  CHECK(output_names(bts) == std::vector<std::string>{"Reshape_117", "Reshape_135", "Matmul_245",
                                                      "Reshape_153", "Reshape_171", "Reshape_189",
                                                      "Reshape_207", "Reshape_225", "Reshape_243"});
  for (const GraphOutput& out : bts.outputs())
    CHECK(bts.type_of(out.tensor).shape == Shape{64, 1024});
}

TEST_CASE("fields map to the catalog's attributes") {
  const Graph mobilenet = load("mobilenetv2");
  // 1,3,224,224, 32,3,3,3, stride 2x2, SAME, no activation, pad 1,1: TASO's SAME with an odd
  // total (1) pads before the data, the catalog's SAME_LOWER (2).
  CHECK(attrs_of(mobilenet, "Conv_368") ==
        Attrs{std::int64_t{2}, std::int64_t{2}, std::int64_t{2}, std::int64_t{0}});
  CHECK(shape_of(mobilenet, "Conv_368") == Shape{1, 32, 112, 112});
  // Depthwise: 32 input channels, kernel 32x1x3x3, so 32 groups.
  const Node& depthwise = node(mobilenet, "Conv_374");
  CHECK(mobilenet.type_of(depthwise.inputs[1]).shape == Shape{32, 1, 3, 3});
  CHECK(depthwise.outputs[0].shape == Shape{1, 32, 112, 112});
  const Node& bn = node(mobilenet, "BatchNormalization_369");
  REQUIRE(bn.inputs.size() == 5);
  CHECK(mobilenet.node(bn.inputs[0].node).name == "Conv_368");
  CHECK(mobilenet.node(bn.inputs[4].node).name == "Weight_105");
  // The residual add keeps its argument order.
  const Node& residual = node(mobilenet, "Add_395");
  CHECK(mobilenet.node(residual.inputs[0].node).name == "BatchNormalization_394");
  CHECK(mobilenet.node(residual.inputs[1].node).name == "BatchNormalization_386");

  const Graph inception = load("inceptionv3");
  // Conv with fused relu, VALID, stride 2.
  CHECK(attrs_of(inception, "Conv_102") ==
        Attrs{std::int64_t{2}, std::int64_t{2}, std::int64_t{1}, std::int64_t{2}});
  CHECK(shape_of(inception, "Conv_102") == Shape{1, 32, 149, 149});
  // 1x7 kernel, SAME, pads 0,3.
  CHECK(shape_of(inception, "Conv_189") == Shape{1, 128, 17, 17});
  // Average pool 3x3 stride 1 SAME with a relu, kept (TENSAT's own parser drops pool activations).
  CHECK(node(inception, "AveragePool_128").op == Op::kPoolAvg);
  CHECK(attrs_of(inception, "AveragePool_128") == Attrs{std::int64_t{3}, std::int64_t{3},
                                                        std::int64_t{1}, std::int64_t{1},
                                                        std::int64_t{0}, std::int64_t{2}});
  CHECK(attrs_of(inception, "MaxPool_108") == Attrs{std::int64_t{3}, std::int64_t{3},
                                                    std::int64_t{2}, std::int64_t{2},
                                                    std::int64_t{1}, std::int64_t{0}});
  // Concat: axis 1 with the rank added; four-way concat of the 8x8 modules.
  CHECK(attrs_of(inception, "Concat_321") == Attrs{std::int64_t{1}, std::int64_t{4}});
  CHECK(node(inception, "Concat_321").inputs.size() == 4);
  CHECK(shape_of(inception, "Concat_321") == Shape{1, 2048, 8, 8});

  const Graph vgg = load("vgg");
  // Transpose written as "ndim, perm, shuffle": 2,1,0,1.
  CHECK(attrs_of(vgg, "Transpose_182") == Attrs{Shape{1, 0}});
  CHECK(shape_of(vgg, "Transpose_182") == Shape{25088, 4096});
  CHECK(attrs_of(vgg, "Matmul_183") == Attrs{std::int64_t{0}});
  CHECK(attrs_of(vgg, "Reshape_181") == Attrs{Shape{1, 25088}});

  const Graph bts = load("bts");
  // Transpose written as "perm, shuffle": 1,0,2,1.
  CHECK(attrs_of(bts, "Transpose_111") == Attrs{Shape{1, 0, 2}});
  CHECK(shape_of(bts, "Transpose_111") == Shape{16, 64, 64});
  CHECK(shape_of(bts, "Matmul_114") == Shape{16, 64, 64});
}

TEST_CASE("split, sigmoid, tanh and mul; unknown types become opaque nodes") {
  const std::string text =
      "100\n0\n10:0\n1,4,8,8\n"
      "101\n13\n100:0\n1,3,1\n"  // split axis 1 into 3 + 1 channels
      "102\n9\n101:0\n1,3,8,8\n"
      "103\n10\n101:1\n1,1,8,8\n"
      "104\n17\n102:0,103:0\n1,3,8,8\n"
      "105\n49\n104:0\n\n"  // Exp: not in the catalog
      "106\n8\n105:0\n1,3,8,8\n";
  const Graph graph = frontend::graph_from_taso_model(text, "small.model");
  CHECK(node(graph, "Split_101").op == Op::kSplit);
  CHECK(node(graph, "Split_101").outputs.size() == 2);
  CHECK(shape_of(graph, "Tanh_103") == Shape{1, 1, 8, 8});
  CHECK(node(graph, "Sigmoid_102").op == Op::kSigmoid);
  CHECK(node(graph, "Mul_104").op == Op::kEwMul);
  const Node& exp = node(graph, "Exp_105");
  CHECK(exp.op == Op::kOpaque);
  REQUIRE(exp.opaque);
  CHECK(exp.opaque->type == "Exp");
  CHECK(exp.outputs.at(0).shape == Shape{1, 3, 8, 8});  // as its consumer records it
  CHECK(output_names(graph) == std::vector<std::string>{"Relu_106"});

  // CRLF line endings and trailing blank lines are fine.
  std::string crlf;
  for (const char c : kHeader + kBody) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(frontend::graph_from_taso_model(crlf + "\r\n\r\n", "crlf.model").size() == 5);
}

TEST_CASE("malformed files give located errors") {
  struct Case {
    std::string text;
    std::uint32_t line;
    std::uint32_t column;
    std::string node;
    std::string message;  // a part of it
  };
  const std::vector<Case> cases = {
      {"", 0, 0, "", "no operators"},
      {kHeader, 0, 0, "", "only inputs and weights"},
      {kHeader + "103\n3\n100:0,101:0\n", 16, 0, "Conv_103", "its integer list line is missing"},
      {kHeader + "103\n", 14, 0, "103", "its type code line is missing"},
      {"x100\n0\n10:0\n1,4,8,8\n", 1, 1, "", "the guid must be an integer, got 'x100'"},
      {"100\nzero\n10:0\n1,4,8,8\n", 2, 1, "100", "the type code must be an integer"},
      {"100\n99\n10:0\n1,4,8,8\n", 2, 1, "100", "unknown TASO operator type code 99"},
      {"100\n0\n10:0\n1,4,eight,8\n", 4, 5, "Input_100", "got 'eight'"},
      {"100\n0\n10:0\n1,4,0,8\n", 4, 5, "Input_100", "must be positive"},
      {kHeader + "103\n3\n100:0;101:0\n1,4,8,8,8,4,3,3,1,1,0,2,1,1\n", 15, 1, "Conv_103",
       "an input must be 'guid:output_index'"},
      {kHeader + "103\n3\n100:0,999:0\n1,4,8,8,8,4,3,3,1,1,0,2,1,1\n", 15, 7, "Conv_103",
       "refers to guid 999, which no operator has"},
      {kHeader + "103\n8\n104:0\n1,4,8,8\n104\n8\n100:0\n1,4,8,8\n", 15, 1, "Relu_103",
       "not listed before this operator"},
      {kHeader + "103\n8\n100:1\n1,4,8,8\n", 15, 1, "Relu_103", "which has 1 output"},
      {kHeader + "101\n8\n100:0\n1,4,8,8\n", 13, 1, "Relu_101", "guid 101 is used twice"},
      {kHeader + "103\n8\n100:0\n1,4,8,9\n", 16, 7, "Relu_103",
       "records input 0 as 1x4x8x9 but 'Input_100' has shape 1x4x8x8"},
      {kHeader + "103\n3\n100:0,101:0\n1,4,8,8,8,4,3,3,1,1,0,2,1\n", 16, 1, "Conv_103",
       "Conv needs the integer list"},
      {kHeader + "103\n3\n100:0\n1,4,8,8,8,4,3,3,1,1,0,2,1,1\n", 15, 1, "Conv_103",
       "Conv takes 2 inputs (input, weight), got 1"},
      {kHeader + "103\n3\n100:0,101:0\n1,4,8,8,8,4,3,3,1,1,0,2,0,1\n", 16, 25, "Conv_103",
       "padding recorded as 0x1, but TASO's SAME padding of this input, kernel and stride is 1x1"},
      {kHeader + "103\n3\n100:0,101:0\n1,4,8,8,8,4,3,3,1,1,7,2,1,1\n", 16, 21, "Conv_103",
       "padding mode must be 0 (SAME) or 1 (VALID), got 7"},
      {kHeader + "103\n1\n11:0\n8,3,3,3\n104\n3\n100:0,103:0\n1,4,8,8,8,3,3,3,1,1,0,2,1,1\n", 20, 1,
       "Conv_104", "conv2d input channels 4 are not a multiple"},
      {kHeader + kBody.substr(0, kBody.rfind("105")) +
           "105\n6\n104:0,102:0\n1,8,8,8,7,2,2,2,2,1,0,0,0\n",
       24, 9, "MaxPool_105", "the pooling type field says 7"},
      {kHeader + kBody.substr(0, kBody.rfind("105")) +
           "105\n6\n104:0,101:0\n1,8,8,8,6,2,2,2,2,1,0,0,0\n",
       23, 7, "MaxPool_105", "TASO's pooling weight for this input and kernel has shape 8x1x2x2"},
      {kHeader + kBody + "106\n15\n105:0\n0,1,2\n", 28, 1, "Transpose_106",
       "Transpose needs the integer list"},
      {kHeader + kBody + "106\n14\n105:0\n1,100\n", 28, 1, "Reshape_106",
       "reshape changes the element count from 128 to 100"},
      {kHeader + kBody + "106\n18\n105:0,105:0\n0,3\n", 28, 3, "Matmul_106",
       "the result's rank is recorded as 3, but it is 4"},
      {kHeader + kBody + "106\n49\n105:0\n3\n", 26, 1, "Exp_106",
       "no consumer records the shape of its output 0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const Error e = import_error(c.text);
    CAPTURE(e.what());
    CHECK(e.where().file == "bad.model");
    CHECK(e.where().line == c.line);
    CHECK(e.where().column == c.column);
    CHECK(e.where().node == c.node);
    CHECK(std::string(e.message()).find(c.message) != std::string::npos);
  }
}

TEST_CASE("load_model reads .model files and names the file in errors") {
  CHECK(graph_stats(frontend::load_model(kModels + "squeezenet.model")).operators == 66);
  try {
    frontend::load_model(MCTSAT_TENSAT_DATA_DIR "/op_table.txt");
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "unsupported model format '.txt' (supported: .json, .model, .onnx)");
  }
}
