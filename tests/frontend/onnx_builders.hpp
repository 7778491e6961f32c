// Small ONNX models built with ONNX's protobuf API, for the frontend tests: value infos, float
// initializers, nodes and their attributes, and a model shell at a given opset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

inline void add_value_info(onnx::ValueInfoProto* info, const std::string& name,
                           const std::vector<std::int64_t>& shape,
                           const std::string& dim_param = "") {
  info->set_name(name);
  auto* type = info->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : shape) type->mutable_shape()->add_dim()->set_dim_value(d);
  if (!dim_param.empty()) type->mutable_shape()->mutable_dim(0)->set_dim_param(dim_param);
}

inline void add_initializer(onnx::GraphProto& g, const std::string& name,
                            const std::vector<std::int64_t>& shape) {
  auto* init = g.add_initializer();
  init->set_name(name);
  init->set_data_type(onnx::TensorProto::FLOAT);
  std::int64_t n = 1;
  for (auto d : shape) {
    init->add_dims(d);
    n *= d;
  }
  for (std::int64_t i = 0; i < n; ++i)
    init->add_float_data(0.01f * static_cast<float>(i % 17) - 0.05f);
}

inline onnx::NodeProto* add_node(onnx::GraphProto& g, const std::string& type,
                                 std::vector<std::string> inputs,
                                 std::vector<std::string> outputs) {
  auto* node = g.add_node();
  node->set_op_type(type);
  node->set_name(type + "_" + std::to_string(g.node_size()));
  for (auto& in : inputs) node->add_input(in);
  for (auto& out : outputs) node->add_output(out);
  return node;
}

inline void set_ints(onnx::NodeProto* node, const char* name, std::vector<std::int64_t> values) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::INTS);
  for (auto v : values) attr->add_ints(v);
}
inline void set_int(onnx::NodeProto* node, const char* name, std::int64_t value) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::INT);
  attr->set_i(value);
}
inline void set_float(onnx::NodeProto* node, const char* name, float value) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::FLOAT);
  attr->set_f(value);
}

inline onnx::ModelProto model_shell(std::int64_t opset = 13) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(opset);
  model.mutable_graph()->set_name("test");
  return model;
}

inline std::string bytes_of(const onnx::ModelProto& model) {
  std::string bytes;
  model.SerializeToString(&bytes);
  return bytes;
}
