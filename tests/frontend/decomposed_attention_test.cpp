// Self-attention as Hugging Face and GPT-2 export it imports as the catalog's attention
// (frontend/decomposed_attention.hpp): the scale from a Div or a Mul, with an additive mask, none,
// or GPT-2's causal Where; each computes what the ONNX reference operators compute for the
// decomposition (the same model with the scores also a graph output, which keeps it decomposed);
// a NaN divisor is left; the export writes the decomposition back and it imports again. (ONNX
// Runtime runs the exports of real models, torch.nn.MultiheadAttention's and Swin's forms
// included: tests/cli/torch_models_cli_test.cpp.)
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "tests/frontend/graph_queries.hpp"
#include "tests/frontend/onnx_builders.hpp"
#include "tests/frontend/reference_outputs.hpp"

using namespace mctsat;
using tensor::Op;

namespace decomposed_attention_test {

constexpr std::int64_t kBatch = 2, kSeq = 5, kHeads = 2, kWidth = 8;

enum class Mask { kNone, kAdditive, kCausal };

struct Form {
  Mask mask = Mask::kAdditive;
  bool divide = true;    // scores / sqrt(h), else scores * (1 / sqrt(h))
  float divisor = 2.0f;  // sqrt(kWidth / kHeads)
  bool leak = false;     // the scores are also a graph output
};

void add_scalar(onnx::GraphProto& g, const std::string& name, float value) {
  auto* init = g.add_initializer();
  init->set_name(name);
  init->set_data_type(onnx::TensorProto::FLOAT);
  init->add_float_data(value);
}

void add_ints(onnx::GraphProto& g, const std::string& name, const std::vector<std::int64_t>& v) {
  auto* init = g.add_initializer();
  init->set_name(name);
  init->set_data_type(onnx::TensorProto::INT64);
  init->add_dims(static_cast<std::int64_t>(v.size()));
  for (const std::int64_t x : v) init->add_int64_data(x);
}

// y = relu(attention(x Wq + bq, x Wk + bk, x Wv + bv)) over x [kBatch, kSeq, kWidth].
std::string attention_onnx(const Form& form) {
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {kBatch, kSeq, kWidth});
  if (form.mask == Mask::kAdditive) add_value_info(g.add_input(), "mask", {kBatch, 1, 1, kSeq});
  add_value_info(g.add_output(), "y", {kBatch, kSeq, kWidth});
  add_ints(g, "split_shape", {kBatch, kSeq, kHeads, kWidth / kHeads});
  add_ints(g, "merged_shape", {kBatch, kSeq, kWidth});
  for (const std::string p : {"q", "k", "v"}) {
    add_initializer(g, "W" + p, {kWidth, kWidth});
    add_initializer(g, "b" + p, {kWidth});
    add_node(g, "MatMul", {"x", "W" + p}, {p + "_mm"});
    add_node(g, "Add", {p + "_mm", "b" + p}, {p + "_lin"});
    add_node(g, "Reshape", {p + "_lin", "split_shape"}, {p + "_split"});
    set_ints(
        add_node(g, "Transpose", {p + "_split"}, {p + "_t"}), "perm",
        p == "k" ? std::vector<std::int64_t>{0, 2, 3, 1} : std::vector<std::int64_t>{0, 2, 1, 3});
  }
  add_node(g, "MatMul", {"q_t", "k_t"}, {"qk"});
  add_scalar(g, "scale", form.divide ? form.divisor : 1 / form.divisor);
  add_node(g, form.divide ? "Div" : "Mul", {"qk", "scale"}, {"scaled"});
  std::string scores = "scaled";
  if (form.mask == Mask::kAdditive) {
    add_node(g, "Add", {"scaled", "mask"}, {"masked"});
    scores = "masked";
  } else if (form.mask == Mask::kCausal) {
    auto* lower = g.add_initializer();
    lower->set_name("lower");
    lower->set_data_type(onnx::TensorProto::BOOL);
    for (const std::int64_t d : {std::int64_t{1}, std::int64_t{1}, kSeq, kSeq}) lower->add_dims(d);
    for (std::int64_t r = 0; r < kSeq; ++r)
      for (std::int64_t c = 0; c < kSeq; ++c) lower->add_int32_data(c <= r ? 1 : 0);
    add_scalar(g, "fill", -10000.0f);
    add_node(g, "Where", {"lower", "scaled", "fill"}, {"masked"});
    scores = "masked";
  }
  set_int(add_node(g, "Softmax", {scores}, {"probs"}), "axis", -1);
  add_node(g, "MatMul", {"probs", "v_t"}, {"ctx"});
  set_ints(add_node(g, "Transpose", {"ctx"}, {"ctx_t"}), "perm", {0, 2, 1, 3});
  add_node(g, "Reshape", {"ctx_t", "merged_shape"}, {"merged"});
  add_node(g, "Relu", {"merged"}, {"y"});
  if (form.leak) add_value_info(g.add_output(), "qk", {kBatch, kHeads, kSeq, kSeq});
  return bytes_of(model);
}

tensor::Graph imported(const Form& form) {
  return frontend::graph_from_onnx(attention_onnx(form), "attention.onnx");
}

const tensor::Node& only(const tensor::Graph& graph, Op op) {
  for (const tensor::Node& node : graph.nodes())
    if (node.op == op) return node;
  FAIL("no such operator");
  return graph.nodes().front();
}

}  // namespace decomposed_attention_test

TEST_CASE("Hugging Face's and GPT-2's self-attention imports as attention") {
  using namespace decomposed_attention_test;
  for (const Form& form : {Form{}, Form{.mask = Mask::kNone}, Form{.mask = Mask::kCausal},
                           Form{.divide = false}, Form{.divisor = 3.0f}}) {
    CAPTURE(static_cast<int>(form.mask));
    CAPTURE(form.divide);
    CAPTURE(form.divisor);
    const tensor::Graph graph = imported(form);
    REQUIRE(count_op(graph, Op::kAttention) == 1);
    CHECK(count_op(graph, Op::kSoftmax) == 0);
    CHECK(count_op(graph, Op::kTranspose) == 0);
    CHECK(count_op(graph, Op::kOpaque) == 0);
    const tensor::Node& attention = only(graph, Op::kAttention);
    CHECK(tensor::attr_int(attention.attrs[0]) == kHeads);
    CHECK(tensor::attr_int(attention.attrs[1]) == (form.mask == Mask::kCausal ? 1 : 0));
    CHECK(tensor::attr_float(attention.attrs[2]) == doctest::Approx(1 / form.divisor));
    // The ONNX reference operators' result for the decomposition: kept by the leaked scores.
    Form kept = form;
    kept.leak = true;
    const tensor::Graph decomposed = imported(kept);
    CHECK(count_op(decomposed, Op::kAttention) == 0);
    check_same_output(graph, decomposed);
  }
}

TEST_CASE("a NaN divisor is no attention scale") {
  using namespace decomposed_attention_test;
  CHECK(count_op(imported(Form{.divisor = std::numeric_limits<float>::quiet_NaN()}),
                 Op::kAttention) == 0);
}

TEST_CASE("the export writes attention's decomposition, which imports as attention again") {
  using namespace decomposed_attention_test;
  for (const Mask mask : {Mask::kAdditive, Mask::kNone, Mask::kCausal}) {
    CAPTURE(static_cast<int>(mask));
    const tensor::Graph graph = imported(Form{.mask = mask});
    const std::string exported = frontend::graph_to_onnx(graph);
    onnx::ModelProto model;
    REQUIRE(model.ParseFromString(exported));
    int softmaxes = 0, adds = 0;
    for (const onnx::NodeProto& node : model.graph().node()) {
      softmaxes += node.op_type() == "Softmax";
      adds += node.op_type() == "Add";
    }
    CHECK(softmaxes == 1);
    CHECK(adds == (mask == Mask::kAdditive ? 4 : 3));  // the projections' biases, the mask
    const tensor::Graph again = frontend::graph_from_onnx(exported, "exported.onnx");
    CHECK(count_op(again, Op::kAttention) == 1);
    CHECK(count_op(again, Op::kOpaque) == 0);
    check_same_output(graph, again);
  }
}
