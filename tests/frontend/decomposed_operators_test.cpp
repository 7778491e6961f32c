// Layer normalizations and GELUs as exporters decompose them import as the catalog's layernorm and
// gelu (frontend/decomposed_operators.hpp): PyTorch's and Hugging Face's orders, d * d for the
// square, GELU's tanh approximation (with Pow or products for the cube), no scale and shift,
// ONNX's LayerNormalization; each computes what the ONNX reference operators compute for the
// decomposition (the same model with an intermediate tensor also a graph output, which keeps it
// decomposed); a mean over another axis is left; the export writes the decompositions back
// (LayerNormalization itself at opset 17) and they import again. (ONNX Runtime runs the exports
// of real models: tests/cli/torch_models_cli_test.cpp.)
#include <cmath>
#include <numbers>
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

namespace {

constexpr std::int64_t kRows = 3, kWidth = 8;

void add_scalar(onnx::GraphProto& g, const std::string& name, float value) {
  auto* init = g.add_initializer();
  init->set_name(name);
  init->set_data_type(onnx::TensorProto::FLOAT);
  init->add_float_data(value);
}

struct Form {
  bool pow = true;         // Pow(d, 2), else d * d
  bool affine = true;      // * gamma + beta
  bool torch_gelu = true;  // (x * (1 + a)) * 0.5, else (x * 0.5) * (1 + a)
  bool tanh_gelu = false;  // a = tanh(sqrt(2/pi) (x + 0.044715 x^3)), else erf(x / sqrt 2)
  bool pow_cube = true;    // x^3 as Pow(x, 3), else x * (x * x)
  int reduce_axis = -1;    // the means' axis
  std::string leak;        // an intermediate tensor also made a graph output
};

// y = GELU(LayerNorm(x)) over x [2, kRows, kWidth], decomposed as `form` says.
tensor::Graph decomposed(const Form& form) {
  onnx::ModelProto model = model_shell(13);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, kRows, kWidth});
  add_value_info(g.add_output(), "y", {2, kRows, kWidth});
  add_initializer(g, "gamma", {kWidth});
  add_initializer(g, "beta", {kWidth});
  add_scalar(g, "two", 2);
  add_scalar(g, "eps", 1e-5f);
  add_scalar(g, "sqrt2", static_cast<float>(std::numbers::sqrt2));
  add_scalar(g, "one", 1);
  add_scalar(g, "half", 0.5f);
  set_ints(add_node(g, "ReduceMean", {"x"}, {"mean"}), "axes", {form.reduce_axis});
  add_node(g, "Sub", {"x", "mean"}, {"d"});
  if (form.pow)
    add_node(g, "Pow", {"d", "two"}, {"sq"});
  else
    add_node(g, "Mul", {"d", "d"}, {"sq"});
  set_ints(add_node(g, "ReduceMean", {"sq"}, {"var"}), "axes", {form.reduce_axis});
  add_node(g, "Add", {"var", "eps"}, {"shifted"});
  add_node(g, "Sqrt", {"shifted"}, {"dev"});
  add_node(g, "Div", {"d", "dev"}, {form.affine ? "n" : "h"});
  if (form.affine) {
    add_node(g, "Mul", {"n", "gamma"}, {"scaled"});
    add_node(g, "Add", {"beta", "scaled"}, {"h"});  // PyTorch writes the bias first
  }
  if (form.tanh_gelu) {
    add_scalar(g, "three", 3);
    add_scalar(g, "kappa", 0.044715f);
    add_scalar(g, "root_two_over_pi", static_cast<float>(std::sqrt(2 / std::numbers::pi)));
    if (form.pow_cube) {
      add_node(g, "Pow", {"h", "three"}, {"cube"});
    } else {
      add_node(g, "Mul", {"h", "h"}, {"square"});
      add_node(g, "Mul", {"h", "square"}, {"cube"});
    }
    add_node(g, "Mul", {"cube", "kappa"}, {"cubic"});
    add_node(g, "Add", {"h", "cubic"}, {"inner"});
    add_node(g, "Mul", {"inner", "root_two_over_pi"}, {"u"});
    add_node(g, "Tanh", {"u"}, {"act"});
  } else {
    add_node(g, "Div", {"h", "sqrt2"}, {"u"});
    add_node(g, "Erf", {"u"}, {"act"});
  }
  add_node(g, "Add", {"act", "one"}, {"one_plus"});
  if (form.torch_gelu) {
    add_node(g, "Mul", {"h", "one_plus"}, {"p"});
    add_node(g, "Mul", {"p", "half"}, {"y"});
  } else {
    add_node(g, "Mul", {"h", "half"}, {"hh"});
    add_node(g, "Mul", {"hh", "one_plus"}, {"y"});
  }
  if (!form.leak.empty()) add_value_info(g.add_output(), form.leak, {2, kRows, kWidth});
  return frontend::graph_from_onnx(bytes_of(model), "decomposed.onnx");
}

bool has_op_type(const std::string& model_bytes, const std::string& type) {
  onnx::ModelProto model;
  REQUIRE(model.ParseFromString(model_bytes));
  for (const onnx::NodeProto& node : model.graph().node())
    if (node.op_type() == type) return true;
  return false;
}

}  // namespace

TEST_CASE("exporters' layer norms and GELUs import as layernorm and gelu") {
  for (const Form& form :
       {Form{}, Form{.pow = false}, Form{.affine = false}, Form{.torch_gelu = false},
        Form{.tanh_gelu = true}, Form{.torch_gelu = false, .tanh_gelu = true},
        Form{.tanh_gelu = true, .pow_cube = false}}) {
    CAPTURE(form.pow);
    CAPTURE(form.affine);
    CAPTURE(form.torch_gelu);
    CAPTURE(form.tanh_gelu);
    CAPTURE(form.pow_cube);
    const tensor::Graph graph = decomposed(form);
    CHECK(count_op(graph, Op::kLayerNorm) == 1);
    CHECK(count_op(graph, Op::kGelu) == 1);
    CHECK(count_op(graph, Op::kOpaque) == 0);
    CHECK(graph.nodes().size() == 5);  // x, gamma, beta, layernorm, gelu
    for (const tensor::Node& node : graph.nodes()) {
      if (node.op == Op::kLayerNorm)
        CHECK(tensor::attr_float(node.attrs[0]) == doctest::Approx(1e-5));
      if (node.op == Op::kGelu) CHECK(tensor::attr_int(node.attrs[0]) == (form.tanh_gelu ? 1 : 0));
    }
    // The ONNX reference operators' result for the decomposition: kept by a leaked tensor.
    Form layer_norm_kept = form, gelu_kept = form;
    layer_norm_kept.leak = "d";
    gelu_kept.leak = "act";
    const tensor::Graph with_norm_kept = decomposed(layer_norm_kept);
    const tensor::Graph with_gelu_kept = decomposed(gelu_kept);
    CHECK(count_op(with_norm_kept, Op::kLayerNorm) == 0);
    CHECK(count_op(with_norm_kept, Op::kGelu) == 1);
    CHECK(count_op(with_gelu_kept, Op::kLayerNorm) == 1);
    CHECK(count_op(with_gelu_kept, Op::kGelu) == 0);
    check_same_output(graph, with_norm_kept);
    check_same_output(graph, with_gelu_kept);
  }
}

TEST_CASE("a mean over another axis is no layer norm") {
  const tensor::Graph graph = decomposed(Form{.reduce_axis = 1});
  CHECK(count_op(graph, Op::kLayerNorm) == 0);
  CHECK(count_op(graph, Op::kGelu) == 1);
}

TEST_CASE("ONNX's LayerNormalization imports as layernorm, and the export writes decompositions") {
  onnx::ModelProto model = model_shell(17);
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {2, kRows, kWidth});
  add_value_info(g.add_output(), "y", {2, kRows, kWidth});
  add_initializer(g, "gamma", {kWidth});
  add_initializer(g, "beta", {kWidth});
  onnx::NodeProto* norm = add_node(g, "LayerNormalization", {"x", "gamma", "beta"}, {"y"});
  set_int(norm, "axis", -1);
  set_float(norm, "epsilon", 1e-3f);
  const tensor::Graph graph = frontend::graph_from_onnx(bytes_of(model), "norm.onnx");
  REQUIRE(count_op(graph, Op::kLayerNorm) == 1);
  // Written at opset 13 (LayerNormalization needs 17) as the decomposition, read back as one.
  const std::string exported = frontend::graph_to_onnx(graph);
  CHECK(has_op_type(exported, "ReduceMean"));
  CHECK_FALSE(has_op_type(exported, "LayerNormalization"));
  const tensor::Graph again = frontend::graph_from_onnx(exported, "exported.onnx");
  CHECK(count_op(again, Op::kLayerNorm) == 1);
  CHECK(count_op(again, Op::kOpaque) == 0);
  check_same_output(graph, again);

  // Beside an opaque operator of opset 17 the export is at opset 17: LayerNormalization itself.
  g.mutable_node(0)->set_output(0, "n");
  add_node(g, "HardSigmoid", {"n"}, {"y"});
  const tensor::Graph at_17 = frontend::graph_from_onnx(bytes_of(model), "norm17.onnx");
  REQUIRE(count_op(at_17, Op::kLayerNorm) == 1);
  const std::string exported_17 = frontend::graph_to_onnx(at_17);
  CHECK(has_op_type(exported_17, "LayerNormalization"));
  const tensor::Graph again_17 = frontend::graph_from_onnx(exported_17, "exported17.onnx");
  CHECK(count_op(again_17, Op::kLayerNorm) == 1);
  check_same_output(at_17, again_17);

  for (const bool tanh_gelu : {false, true}) {
    CAPTURE(tanh_gelu);
    const tensor::Graph gelu = decomposed(Form{.tanh_gelu = tanh_gelu});
    const std::string gelu_exported = frontend::graph_to_onnx(gelu);
    CHECK(has_op_type(gelu_exported, tanh_gelu ? "Tanh" : "Erf"));
    const tensor::Graph gelu_again = frontend::graph_from_onnx(gelu_exported, "exported.onnx");
    CHECK(count_op(gelu_again, Op::kGelu) == 1);
    CHECK(count_op(gelu_again, Op::kLayerNorm) == 1);
    check_same_output(gelu, gelu_again);
  }
}
