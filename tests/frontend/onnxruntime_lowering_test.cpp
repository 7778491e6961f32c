// lower_for_onnxruntime (frontend/onnxruntime_lowering.hpp) on Hugging Face-style self-attention
// built operator by operator and recognised as an attention operator: it becomes one opaque
// com.microsoft.Attention reading x, the query, key and value weights and biases packed in that
// order, and the mask expanded to [B, N, S, S] (ONNX Runtime 1.20 misreads a [B, 1, S, S] bias at
// batch 2), with the attention's scale; the ONNX export writes it with the contrib domain. A block
// whose intermediate tensor is read elsewhere is no attention and is left as it is; neither is an
// attention whose projection is read elsewhere. A residual sum only a layer norm reads is written
// on [B*S, H] views. (ONNX Runtime runs the lowered exports of real models in
// tests/cli/torch_models_cli_test.cpp.)
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/decomposed_attention.hpp"
#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/onnxruntime_lowering.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/interpreter.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;
using tensor::Op;
using tensor::Shape;
using tensor::TensorRef;

namespace {

constexpr std::int64_t kBatch = 2, kSeq = 6, kHeads = 2, kHeadSize = 4, kWidth = 8;

std::shared_ptr<const tensor::Tensor> values(const Shape& shape, const std::string& stream) {
  return std::make_shared<const tensor::Tensor>(tensor::random_tensor(shape, 5, stream));
}

struct Options {
  double divisor = 2.0;          // sqrt(kHeadSize)
  bool leak_scores = false;      // the scores are also a graph output
  bool leak_projection = false;  // the key's projection is also a graph output
};

tensor::Graph attention_graph(const Options& options) {
  tensor::GraphBuilder b;
  const TensorRef x = b.input("x", {kBatch, kSeq, kWidth});
  const TensorRef mask = b.input("mask", {kBatch, 1, 1, kSeq});
  auto heads = [&](const std::string& name, std::vector<std::int64_t> perm) {
    const TensorRef projected = b.ewadd(
        b.matmul(x, b.weight(name + ".w", {kWidth, kWidth}, values({kWidth, kWidth}, name))),
        b.weight(name + ".b", {kWidth}, values({kWidth}, name + ".b")));
    if (name == "k" && options.leak_projection) b.output("key", projected);
    return b.transpose(b.reshape(projected, {kBatch, kSeq, kHeads, kHeadSize}), std::move(perm));
  };
  const TensorRef q = heads("q", {0, 2, 1, 3}), k = heads("k", {0, 2, 3, 1}),
                  v = heads("v", {0, 2, 1, 3});
  const TensorRef scores = b.matmul(q, k);
  const TensorRef scaled = b.add1(
      Op::kEwDiv,
      {scores,
       b.weight("scale", {}, std::make_shared<const tensor::Tensor>(Shape{}, options.divisor))},
      {});
  const TensorRef probabilities = b.add1(Op::kSoftmax, {b.ewadd(scaled, mask)}, {std::int64_t{3}});
  const TensorRef context = b.transpose(b.matmul(probabilities, v), {0, 2, 1, 3});
  b.output("y", b.relu(b.reshape(context, {kBatch, kSeq, kWidth})));
  if (options.leak_scores) b.output("scores", scores);
  return frontend::recognise_attention(std::move(b).finish()).graph;
}

// Hugging Face's self-attention with the mask made from token flags, as exported to ONNX (the
// hostile campaign's model_cases.py): (1 - float(unsqueeze(unsqueeze(flags)))) * fill added to
// the scores, flags [1, S] int64.
std::string flags_attention_onnx(float fill) {
  constexpr std::int64_t S = 8, H = 16, N = 2;
  onnx::ModelProto model = model_shell(14);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, S, H});
  onnx::ValueInfoProto* flags = g.add_input();
  add_value_info(flags, "flags", {1, S});
  flags->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  add_value_info(g.add_output(), "y", {1, S, H});
  const auto ints = [&](const std::string& name, const std::vector<std::int64_t>& values) {
    auto* init = g.add_initializer();
    init->set_name(name);
    init->set_data_type(onnx::TensorProto::INT64);
    init->add_dims(static_cast<std::int64_t>(values.size()));
    for (const std::int64_t v : values) init->add_int64_data(v);
  };
  const auto scalar = [&](const std::string& name, float value) {
    auto* init = g.add_initializer();
    init->set_name(name);
    init->set_data_type(onnx::TensorProto::FLOAT);
    init->add_float_data(value);
  };
  for (const char* p : {"q", "k", "v"}) {
    const std::string w = std::string("W") + p, b = std::string("b") + p, q = p;
    add_initializer(g, w, {H, H});
    add_initializer(g, b, {H});
    ints("shape_" + q, {1, S, N, H / N});
    add_node(g, "MatMul", {"x", w}, {q + "_mm"});
    add_node(g, "Add", {q + "_mm", b}, {q + "_lin"});
    add_node(g, "Reshape", {q + "_lin", "shape_" + q}, {q + "_split"});
    set_ints(add_node(g, "Transpose", {q + "_split"}, {q + "_t"}), "perm",
             q == "k" ? std::vector<std::int64_t>{0, 2, 3, 1}
                      : std::vector<std::int64_t>{0, 2, 1, 3});
  }
  scalar("scale", std::sqrt(static_cast<float>(H / N)));
  scalar("one", 1.0f);
  scalar("fill", fill);
  ints("ax1", {1});
  ints("ax2", {2});
  ints("merge", {1, S, H});
  add_node(g, "MatMul", {"q_t", "k_t"}, {"qk"});
  add_node(g, "Div", {"qk", "scale"}, {"scaled"});
  add_node(g, "Unsqueeze", {"flags", "ax1"}, {"u1"});
  add_node(g, "Unsqueeze", {"u1", "ax2"}, {"u2"});
  set_int(add_node(g, "Cast", {"u2"}, {"fl"}), "to", onnx::TensorProto::FLOAT);
  add_node(g, "Sub", {"one", "fl"}, {"inv"});
  add_node(g, "Mul", {"inv", "fill"}, {"madd"});
  add_node(g, "Add", {"scaled", "madd"}, {"masked"});
  set_int(add_node(g, "Softmax", {"masked"}, {"probs"}), "axis", -1);
  add_node(g, "MatMul", {"probs", "v_t"}, {"ctx"});
  set_ints(add_node(g, "Transpose", {"ctx"}, {"ctx_t"}), "perm", {0, 2, 1, 3});
  add_node(g, "Reshape", {"ctx_t", "merge"}, {"y"});
  return bytes_of(model);
}

const tensor::Node* find_opaque(const tensor::Graph& graph, const std::string& type) {
  for (const tensor::Node& node : graph.nodes())
    if (node.op == Op::kOpaque && node.opaque->type == type) return &node;
  return nullptr;
}

}  // namespace

TEST_CASE("Hugging Face-style self-attention becomes com.microsoft.Attention") {
  const tensor::Graph graph = attention_graph({});
  const frontend::OnnxRuntimeLowering lowered = frontend::lower_for_onnxruntime(graph);
  CHECK(lowered.attention == 1);
  const tensor::Node* attention = find_opaque(lowered.graph, "com.microsoft.Attention");
  REQUIRE(attention != nullptr);
  REQUIRE(attention->inputs.size() == 4);  // x, weight, bias, attention_bias
  CHECK(lowered.graph.node(attention->inputs[0].node).name == "x");
  // The packed weight: per row, the query's columns, then the key's, then the value's.
  const tensor::Node& packed = lowered.graph.node(attention->inputs[1].node);
  REQUIRE(packed.value);
  CHECK(packed.value->shape == Shape{kWidth, 3 * kWidth});
  const auto& key = *graph.node(*graph.find("k.w")).value;
  CHECK(packed.value->data[3 * kWidth + kWidth + 2] == key.data[kWidth + 2]);  // row 1, column 2
  CHECK(lowered.graph.type_of(attention->inputs[3]).shape == Shape{kBatch, kHeads, kSeq, kSeq});
  // The relu reads the attention.
  bool relu_reads_it = false;
  for (const tensor::Node& node : lowered.graph.nodes())
    if (node.op == Op::kRelu)
      relu_reads_it = lowered.graph.node(node.inputs[0].node).op == Op::kOpaque;
  CHECK(relu_reads_it);
  const std::string onnx = frontend::graph_to_onnx(lowered.graph);
  CHECK(onnx.find("com.microsoft") != std::string::npos);
  CHECK(onnx.find("Softmax") == std::string::npos);  // the replaced block is not written
}

TEST_CASE("Attention keeps the attention's scale; blocks read elsewhere stay") {
  const frontend::OnnxRuntimeLowering thirds =
      frontend::lower_for_onnxruntime(attention_graph({.divisor = 3.0}));
  CHECK(thirds.attention == 1);
  const tensor::Node* attention = find_opaque(thirds.graph, "com.microsoft.Attention");
  REQUIRE(attention != nullptr);
  onnx::ModelProto model;
  REQUIRE(model.ParseFromString(frontend::graph_to_onnx(thirds.graph)));
  bool scaled = false;
  for (const onnx::NodeProto& node : model.graph().node())
    for (const onnx::AttributeProto& attribute : node.attribute())
      if (node.op_type() == "Attention" && attribute.name() == "scale")
        scaled = std::abs(attribute.f() - 1.0f / 3.0f) < 1e-7f;
  CHECK(scaled);
  CHECK(frontend::lower_for_onnxruntime(attention_graph({.leak_scores = true})).attention == 0);
  CHECK(frontend::lower_for_onnxruntime(attention_graph({.leak_projection = true})).attention == 0);
  // A NaN scale (every output NaN) was once lowered to Attention's own 1/sqrt(h): finite outputs
  // (the hostile campaign's ONNX Runtime comparison). It is no attention.
  CHECK(frontend::lower_for_onnxruntime(attention_graph({.divisor = std::nan("")})).attention == 0);
}

TEST_CASE("a mask from token flags becomes mask_index only with a finite fill") {
  // (1 - flag) * fill is 0 where a flag is 1 only for a finite fill: with -inf or NaN it is NaN
  // there, and every output with it; mask_index with mask_filter_value -inf computed finite
  // outputs (the hostile campaign's ONNX Runtime comparison, 2026-12-06). Such a mask stays an
  // additive one, computed as written.
  // The lowered Attention's fourth input's element type, and whether a mask_filter_value is
  // written.
  auto lower_with_fill = [](float fill) {
    const frontend::OnnxRuntimeLowering lowered = frontend::lower_for_onnxruntime(
        frontend::graph_from_onnx(flags_attention_onnx(fill), "flags.onnx"));
    CHECK(lowered.attention == 1);
    const tensor::Node* attention = find_opaque(lowered.graph, "com.microsoft.Attention");
    REQUIRE(attention != nullptr);
    REQUIRE(attention->inputs.size() == 4);  // x, weight, bias, then the mask
    return std::pair{lowered.graph.type_of(attention->inputs[3]).dtype,
                     frontend::graph_to_onnx(lowered.graph).find("mask_filter_value") !=
                         std::string::npos};
  };
  for (const float fill : {-10000.0f, -3.4e38f}) {  // mask_index: the flags as int32
    CAPTURE(fill);
    const auto [dtype, filter_written] = lower_with_fill(fill);
    CHECK(dtype == tensor::DType::kInt32);
    CHECK(filter_written);
  }
  for (const float fill : {-std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()}) {  // attention_bias
    CAPTURE(fill);
    const auto [dtype, filter_written] = lower_with_fill(fill);
    CHECK(dtype == tensor::DType::kFloat32);
    CHECK_FALSE(filter_written);
  }
}

TEST_CASE("a residual sum only a layer norm reads is written on [B*S, H] views") {
  // x + y [2, 6, 8], then ONNX's LayerNormalization over the last axis (opset 17); with
  // `sum_is_output` the sum is also a graph output (as a pre-LN block's next residual reads it).
  // ONNX Runtime fuses a rank-3 sum and its layer norm into SkipLayerNormalization, which 1.30
  // runs about 5x slower than the two it replaces: lowered, the sum is of [12, 8] views.
  auto model = [](bool sum_is_output) {
    onnx::ModelProto m = model_shell(17);
    onnx::GraphProto& g = *m.mutable_graph();
    add_value_info(g.add_input(), "x", {kBatch, kSeq, kWidth});
    add_value_info(g.add_input(), "y", {kBatch, kSeq, kWidth});
    add_value_info(g.add_output(), "z", {kBatch, kSeq, kWidth});
    if (sum_is_output) add_value_info(g.add_output(), "s", {kBatch, kSeq, kWidth});
    add_initializer(g, "gamma", {kWidth});
    add_initializer(g, "beta", {kWidth});
    add_node(g, "Add", {"x", "y"}, {"s"});
    set_int(add_node(g, "LayerNormalization", {"s", "gamma", "beta"}, {"z"}), "axis", -1);
    return frontend::graph_from_onnx(bytes_of(m), "norm.onnx");
  };
  const frontend::OnnxRuntimeLowering lowered = frontend::lower_for_onnxruntime(model(false));
  CHECK(lowered.flat_sums == 1);
  const tensor::Node* norm = nullptr;  // imported as the catalog's layernorm
  for (const tensor::Node& node : lowered.graph.nodes())
    if (node.op == Op::kLayerNorm) norm = &node;
  REQUIRE(norm != nullptr);
  // The norm reads [2, 6, 8] viewed from a sum of [12, 8] views of x and y.
  const tensor::Node& unflat = lowered.graph.node(norm->inputs[0].node);
  REQUIRE(unflat.op == Op::kReshape);
  CHECK(unflat.outputs[0].shape == Shape{kBatch, kSeq, kWidth});
  const tensor::Node& sum = lowered.graph.node(unflat.inputs[0].node);
  REQUIRE(sum.op == Op::kEwAdd);
  CHECK(sum.outputs[0].shape == Shape{kBatch * kSeq, kWidth});
  for (const TensorRef in : sum.inputs) {
    const tensor::Node& view = lowered.graph.node(in.node);
    REQUIRE(view.op == Op::kReshape);
    CHECK(lowered.graph.node(view.inputs[0].node).op == Op::kInput);
  }
  // Read elsewhere, the sum stays (ONNX Runtime does not fuse it).
  CHECK(frontend::lower_for_onnxruntime(model(true)).flat_sums == 0);
}
