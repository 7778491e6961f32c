// ONNX nodes checked against their operator's schema, where ONNX's checker and (lenient) shape
// inference let invalid models through: attribute values (window sizes, auto_pad and the other
// enumerations, Conv's group) and the element types of inputs against the schema's type
// constraints (Add of float32 with int8, a float32 Conv with float16 weights). Every graph of the
// model is checked, also the bodies of If and Loop. Internal to frontend/ (the ONNX importer).
#pragma once

#include <cstdint>
#include <string>

#include <onnx/onnx_pb.h>

namespace mctsat::frontend {

// Attribute values, before ONNX's shape inference runs (it divides by strides, dilations and
// groups without checking them: a Conv with strides [0, 0] stops the process with SIGFPE).
// Throws mctsat::Error located at the file and node.
void check_onnx_attributes(const onnx::GraphProto& graph, const std::string& file);

// After shape inference: every input of a default-domain node whose element type is known has a
// type its schema (at `opset`) allows, inputs that share a type parameter have the same type, and
// a Conv's group divides its channels. Nodes of other domains and of unknown operators are left
// to the importer (they stay opaque). Throws mctsat::Error located at the file and node.
void check_onnx_types(const onnx::GraphProto& graph, std::int64_t opset, const std::string& file);

}  // namespace mctsat::frontend
