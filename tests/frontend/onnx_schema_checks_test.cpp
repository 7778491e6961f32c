// ONNX nodes are checked against their operator's schema (frontend/onnx_schema_checks.hpp):
// models that ONNX's checker and lenient shape inference let through, and that were imported and
// run wrongly (a Conv with group 2^40 computed as group 1, mixed element types, an unknown
// auto_pad), are errors naming the file, the node and what is wrong.
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include "frontend/onnx_import.hpp"
#include "support/error.hpp"
#include "tests/frontend/onnx_builders.hpp"

using namespace mctsat;

namespace {

// x (1 x channels x 8 x 8) -> Conv with weights w (out x in_per_group x 3 x 3) -> y.
onnx::ModelProto conv_model(std::int64_t channels, std::vector<std::int64_t> weights,
                            std::int64_t group) {
  onnx::ModelProto model = model_shell();
  onnx::GraphProto& g = *model.mutable_graph();
  add_value_info(g.add_input(), "x", {1, channels, 8, 8});
  add_initializer(g, "w", weights);
  auto* node = add_node(g, "Conv", {"x", "w"}, {"y"});
  if (group != 1) set_int(node, "group", group);
  add_value_info(g.add_output(), "y", {1, weights[0], 6, 6});
  return model;
}

void check_schema_error(const onnx::ModelProto& model, const std::string& part) {
  try {
    frontend::graph_from_onnx(bytes_of(model), "schema.onnx");
    FAIL("expected an error");
  } catch (const Error& e) {
    CAPTURE(std::string(e.what()));
    CHECK(e.where().file == "schema.onnx");
    CHECK_FALSE(e.where().node.empty());
    CHECK(e.message().find(part) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("a Conv's group must divide its channels") {
  CHECK_NOTHROW(frontend::graph_from_onnx(bytes_of(conv_model(4, {4, 2, 3, 3}, 2)), "ok.onnx"));
  check_schema_error(conv_model(2, {2, 2, 3, 3}, std::int64_t{1} << 40),
                     "Conv attribute 'group' (1099511627776) does not divide the 2 output "
                     "channels of its weights");
  check_schema_error(conv_model(6, {4, 2, 3, 3}, 2),
                     "Conv has 6 input channels, but its weights take 2 per group x 2 groups");
}

TEST_CASE("inputs that share a type parameter have the same element type") {
  // float16 weights for float32 data.
  onnx::ModelProto half = conv_model(2, {2, 2, 3, 3}, 1);
  onnx::TensorProto& w = *half.mutable_graph()->mutable_initializer(0);
  w.clear_float_data();
  w.set_data_type(onnx::TensorProto::FLOAT16);
  for (int i = 0; i < 2 * 2 * 3 * 3; ++i) w.add_int32_data(0x3c00);  // 1.0
  check_schema_error(half, "Conv input 1 ('w') is tensor(float16), but input 0 is tensor(float)");

  // Add of float32 with int32.
  onnx::ModelProto mixed = model_shell();
  onnx::GraphProto& g = *mixed.mutable_graph();
  add_value_info(g.add_input(), "a", {2, 3});
  add_value_info(g.add_input(), "b", {2, 3});
  g.mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::INT32);
  add_node(g, "Add", {"a", "b"}, {"y"});
  add_value_info(g.add_output(), "y", {2, 3});
  check_schema_error(mixed, "Add input 1 ('b') is tensor(int32), but input 0 is tensor(float)");

  // A type the operator does not take at all: Relu of a bool.
  onnx::ModelProto boolean = model_shell();
  onnx::GraphProto& h = *boolean.mutable_graph();
  add_value_info(h.add_input(), "p", {4});
  h.mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  add_node(h, "Relu", {"p"}, {"q"});
  add_value_info(h.add_output(), "q", {4});
  h.mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::BOOL);
  check_schema_error(boolean,
                     "Relu input 0 ('p') is tensor(bool), which the operator does not take");
}

TEST_CASE("enumerated string attributes take one of their values") {
  onnx::ModelProto model = conv_model(2, {2, 2, 3, 3}, 1);
  auto* attribute = model.mutable_graph()->mutable_node(0)->add_attribute();
  attribute->set_name("auto_pad");
  attribute->set_type(onnx::AttributeProto::STRING);
  attribute->set_s("WEIRD");
  check_schema_error(model,
                     "Conv attribute 'auto_pad' is 'WEIRD', not one of NOTSET, SAME_UPPER, "
                     "SAME_LOWER, VALID");
  attribute->set_s("SAME_UPPER");  // keeps the 8 x 8 input's size
  for (int axis : {2, 3})
    model.mutable_graph()
        ->mutable_output(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(axis)
        ->set_dim_value(8);
  CHECK_NOTHROW(frontend::graph_from_onnx(bytes_of(model), "same.onnx"));
}
