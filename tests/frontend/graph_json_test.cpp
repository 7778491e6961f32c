// The graph JSON format: round trips, every node form, and errors that say where and what.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "frontend/graph_json.hpp"
#include "frontend/zoo.hpp"
#include "support/error.hpp"
#include "tensor/graph_builder.hpp"

using namespace mctsat;
using namespace mctsat::tensor;
using mctsat::frontend::graph_from_json;
using mctsat::frontend::graph_to_json;

namespace {

// The error a reader raises for this text, or "" if it loads.
Error load_error(const std::string& text) {
  try {
    graph_from_json(text, "g.json");
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an error");
  return Error("unreachable");
}

const char* kSmall = R"({
  "format": "mctsat-graph",
  "version": 1,
  "nodes": [
    {"name": "y", "op": "matmul", "inputs": ["x", "w"], "attrs": {"act": 2}},
    {"name": "x", "op": "input", "attrs": {"shape": [2, 3]}},
    {"name": "w", "op": "weight", "attrs": {"shape": [3, 4]}, "values": [1,2,3,4,5,6,7,8,9,10,11,12]},
    {"name": "s", "op": "split", "inputs": ["y"], "attrs": {"axis": 1, "sizes": [1, 3]}},
    {"name": "c", "op": "clip", "inputs": ["s:1"], "attrs": {"min": -0.5, "max": 6}},
    {"name": "o", "op": "opaque", "type": "LRN", "inputs": ["c"],
     "output_types": [{"dtype": "f32", "shape": [2, 3]}, {"dtype": "i64", "shape": [2]}]}
  ],
  "outputs": ["s:0", {"name": "lrn", "tensor": "o:1"}]
})";

}  // namespace

TEST_CASE("a small graph loads with forward references, multi-output nodes and opaque operators") {
  const Graph graph = graph_from_json(kSmall, "g.json");
  REQUIRE(graph.size() == 6);
  const NodeId y = *graph.find("y");
  CHECK(graph.node(y).outputs[0].shape == Shape{2, 4});
  CHECK(attr_int(graph.node(y).attrs[0]) == 2);
  const NodeId s = *graph.find("s");
  REQUIRE(graph.node(s).outputs.size() == 2);
  CHECK(graph.node(s).outputs[1].shape == Shape{2, 3});
  const NodeId c = *graph.find("c");
  CHECK(attr_float(graph.node(c).attrs[0]) == -0.5);
  CHECK(graph.node(c).inputs[0] == TensorRef{s, 1});
  const NodeId o = *graph.find("o");
  REQUIRE(graph.node(o).opaque);
  CHECK(graph.node(o).opaque->type == "LRN");
  CHECK(graph.node(o).outputs[1] == TensorType{{2}, DType::kInt64});
  const NodeId w = *graph.find("w");
  REQUIRE(graph.node(w).value);
  CHECK(graph.node(w).value->data[11] == 12.0);
  REQUIRE(graph.outputs().size() == 2);
  CHECK(graph.outputs()[0].name == "s:0");
  CHECK(graph.outputs()[1].name == "lrn");
  CHECK(graph.outputs()[1].tensor == TensorRef{o, 1});
}

TEST_CASE("writing then reading gives the same graph") {
  const Graph first = graph_from_json(kSmall, "g.json");
  const std::string text = graph_to_json(first);
  const Graph second = graph_from_json(text, "again.json");
  REQUIRE(second.size() == first.size());
  for (NodeId id = 0; id < first.size(); ++id) {
    const Node &a = first.node(id), &b = second.node(id);
    CHECK(a.name == b.name);
    CHECK(a.op == b.op);
    CHECK(a.inputs == b.inputs);
    CHECK(a.attrs == b.attrs);
    CHECK(a.outputs == b.outputs);
    CHECK((a.value == nullptr) == (b.value == nullptr));
    if (a.value) CHECK(*a.value == *b.value);
  }
  CHECK(graph_to_json(second) == text);
  CHECK(graph_to_json(second, false).find("values") == std::string::npos);
}

TEST_CASE("zoo models survive a JSON round trip") {
  for (const auto& entry : frontend::zoo_models()) {
    CAPTURE(entry.name);
    const Graph graph = *frontend::build_zoo_model(entry.name);
    const Graph again = graph_from_json(graph_to_json(graph), "zoo.json");
    CHECK(again.size() == graph.size());
    CHECK(graph_to_json(again) == graph_to_json(graph));
  }
}

TEST_CASE("syntax errors point at line and column") {
  const Error e = load_error("{\n  \"format\": \"mctsat-graph\",\n  \"nodes\": [,]\n}");
  CHECK(e.where().file == "g.json");
  CHECK(e.where().line == 3);
  CHECK(e.where().column == 13);
  CHECK(std::string(e.what()).rfind("g.json:3:13: error: invalid JSON", 0) == 0);
}

TEST_CASE("semantic errors name the node and its line") {
  const std::string bad_shapes = R"({"format": "mctsat-graph", "version": 1, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [2, 3]}},
    {"name": "w", "op": "weight", "attrs": {"shape": [5, 4]}},
    {"name": "y", "op": "matmul", "inputs": ["x", "w"], "attrs": {"act": 0}}],
    "outputs": ["y"]})";
  const Error e = load_error(bad_shapes);
  CHECK(e.where().node == "y");
  CHECK(e.where().line == 4);
  CHECK(e.message().find("inner dimensions differ: 3 vs 5") != std::string::npos);
}

TEST_CASE("malformed graphs are rejected with what is wrong") {
  auto graph_with = [](const std::string& node) {
    return R"({"format": "mctsat-graph", "version": 1, "nodes": [
      {"name": "x", "op": "input", "attrs": {"shape": [2, 3]}}, )" +
           node + R"(], "outputs": ["x"]})";
  };
  CHECK(load_error(graph_with(R"({"name": "y", "op": "frobnicate", "inputs": ["x"]})")).message() ==
        "unknown operator \"frobnicate\"");
  CHECK(load_error(graph_with(R"({"name": "y", "op": "relu", "inputs": ["nope"]})")).message() ==
        "refers to unknown tensor 'nope'");
  CHECK(
      load_error(graph_with(R"({"name": "y", "op": "matmul", "inputs": ["x", "x"]})")).message() ==
      "matmul needs attribute \"act\"");
  CHECK(
      load_error(graph_with(R"({"name": "y", "op": "relu", "inputs": ["x"], "attrs": {"act": 1}})"))
          .message() == "relu has no attribute \"act\"");
  CHECK(
      load_error(
          graph_with(R"({"name": "y", "op": "transpose", "inputs": ["x"], "attrs": {"perm": 1}})"))
          .message() == "attribute \"perm\" must be a list of integers, got 1");
  CHECK(load_error(graph_with(R"({"name": "x", "op": "relu", "inputs": ["x"]})")).message() ==
        "two nodes have this name");
  CHECK(load_error(graph_with(R"({"name": "y", "op": "relu", "inputs": ["y"]})")).message() ==
        "the graph has a cycle through this node");
  CHECK(load_error(graph_with(R"({"name": "y", "op": "opaque", "inputs": ["x"]})")).message() ==
        "an opaque node needs its operator \"type\"");
  CHECK(load_error(graph_with(R"({"name": "y", "op": "relu", "inputs": ["x"], "values": [1]})"))
            .message() == "only weights have \"values\"");
  CHECK(load_error(R"({"format": "mctsat-graph", "version": 1, "nodes": [
      {"name": "w", "op": "weight", "attrs": {"shape": [2]}, "values": [1, 2, 3]}], "outputs": ["w"]})")
            .message() == "\"values\" has 3 numbers, shape 2 needs 2");
  CHECK(load_error(R"({"format": "other", "version": 1})").message() ==
        "\"format\" must be the string \"mctsat-graph\"");
  CHECK(load_error(R"([1, 2])").message() == "a graph file must hold a JSON object");
  CHECK(load_error(R"({"format": "mctsat-graph", "version": 1, "nodes": [
      {"name": "x", "op": "input", "attrs": {"shape": [2]}}], "outputs": []})")
            .message() == "\"outputs\" must be a non-empty array");
}

TEST_CASE("any tensor name survives a round trip and port references are unambiguous") {
  // tf2onnx names tensors "input:0"; here a node is also named like another node's port.
  GraphBuilder b;
  const TensorRef x = b.input("input:0", {2, 4});
  const auto parts = b.split(b.add1(Op::kRelu, {x}, {}, "a"), 1, {1, 3});
  const TensorRef port_lookalike = b.add1(Op::kTanh, {parts[0]}, {}, "a:1");
  const TensorRef spaced = b.add1(Op::kSigmoid, {parts[1]}, {}, "conv 1/relu: \"x\" \u00e9\u6f22");
  b.output("y:0", port_lookalike);
  b.output("z/out", spaced);
  b.output("part:1", parts[1]);
  const Graph graph = std::move(b).finish();
  const std::string text = graph_to_json(graph);
  CHECK(text.find("\"version\": 2") != std::string::npos);
  const Graph again = graph_from_json(text, "names.json");
  REQUIRE(again.size() == graph.size());
  for (NodeId id = 0; id < graph.size(); ++id) {
    CAPTURE(graph.node(id).name);
    CHECK(again.node(id).name == graph.node(id).name);
    CHECK(again.node(id).inputs == graph.node(id).inputs);
  }
  REQUIRE(again.outputs().size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(again.outputs()[k].name == graph.outputs()[k].name);
    CHECK(again.outputs()[k].tensor == graph.outputs()[k].tensor);
  }
  CHECK(graph_to_json(again) == text);
}

TEST_CASE("version 1 files still load; a whole name wins over the node:k reading") {
  const Graph graph = graph_from_json(R"({"format": "mctsat-graph", "version": 1, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [2, 4]}},
    {"name": "s", "op": "split", "inputs": ["x"], "attrs": {"axis": 1, "sizes": [1, 3]}},
    {"name": "s:1", "op": "relu", "inputs": ["s:0"]},
    {"name": "t", "op": "tanh", "inputs": ["s:1"]}], "outputs": ["t", "s:1"]})",
                                      "v1.json");
  const NodeId s = *graph.find("s"), relu = *graph.find("s:1"), t = *graph.find("t");
  CHECK(graph.node(relu).inputs[0] == TensorRef{s, 0});
  CHECK(graph.node(t).inputs[0] == TensorRef{relu, 0});
  CHECK(graph.outputs()[1].tensor == TensorRef{relu, 0});
  CHECK(load_error(R"({"format": "mctsat-graph", "version": 2, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [2]}},
    {"name": "y", "op": "relu", "inputs": [{"node": "x", "port": 1}]}], "outputs": ["y"]})")
            .message()
            .find("a tensor reference object must be") == 0);
  CHECK(load_error(R"({"format": "mctsat-graph", "version": 2, "nodes": [
    {"name": "x", "op": "input", "attrs": {"shape": [2]}},
    {"name": "y", "op": "relu", "inputs": ["x:0"]}], "outputs": ["y"]})")
            .message() == "refers to unknown tensor 'x:0'");
  CHECK(load_error(R"({"format": "mctsat-graph", "version": 3, "nodes": []})").message() ==
        "\"version\" must be the number 1 or 2");
}

TEST_CASE("infinities and NaN round-trip as the strings inf, -inf and nan") {
  const char* text = R"({
    "format": "mctsat-graph", "version": 2,
    "nodes": [
      {"name": "x", "op": "input", "attrs": {"shape": [3]}},
      {"name": "m", "op": "weight", "attrs": {"shape": [3]}, "values": [0, "-inf", "nan"]},
      {"name": "a", "op": "ewadd", "inputs": ["x", "m"]},
      {"name": "c", "op": "clip", "inputs": ["a"], "attrs": {"min": 0.5, "max": "inf"}}],
    "outputs": ["c"]})";
  const Graph graph = graph_from_json(text, "g.json");
  const Node& clip = graph.node(*graph.find("c"));
  CHECK(attr_float(clip.attrs.at(1)) == std::numeric_limits<double>::infinity());
  const auto& values = graph.node(*graph.find("m")).value->data;
  CHECK(values[1] == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(values[2]));
  const std::string written = graph_to_json(graph);
  CHECK(written.find("\"max\":\"inf\"") != std::string::npos);
  CHECK(written.find("null") == std::string::npos);
  CHECK(graph_to_json(graph_from_json(written, "again.json")) == written);
  CHECK(std::string(load_error(R"({"format": "mctsat-graph", "version": 2, "nodes": [
      {"name": "x", "op": "input", "attrs": {"shape": [3]}},
      {"name": "c", "op": "clip", "inputs": ["x"], "attrs": {"min": 0, "max": "infinite"}}],
      "outputs": ["c"]})")
                        .what())
            .find("attribute \"max\" must be a number") != std::string::npos);
}
