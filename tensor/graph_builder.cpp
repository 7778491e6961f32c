// GraphBuilder: nodes are type-checked as they are added.
#include "tensor/graph_builder.hpp"

#include <fmt/format.h>

#include "support/error.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::tensor {

std::string GraphBuilder::fresh_name(Op op) {
  std::string name;
  do {
    name = fmt::format("{}_{}", op_name(op), counter_++);
  } while (names_.contains(name));
  return name;
}

NodeId GraphBuilder::add_named(Node node) {
  names_.insert(node.name);
  return graph_.add_node(std::move(node));
}

std::vector<TensorRef> GraphBuilder::add(Op op, std::vector<TensorRef> inputs, Attrs attrs,
                                         std::string name) {
  Node node;
  node.name = name.empty() ? fresh_name(op) : std::move(name);
  node.op = op;
  std::vector<TensorType> input_types;
  for (const TensorRef& in : inputs) input_types.push_back(graph_.type_of(in));
  InferResult inferred = infer_types(op, input_types, attrs, node.leaf_dtype);
  if (!inferred.ok()) throw Error(inferred.error, SourceLocation::at_node(node.name));
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  node.outputs = std::move(inferred.outputs);
  const std::size_t outputs = node.outputs.size();
  const NodeId id = add_named(std::move(node));
  std::vector<TensorRef> refs;
  for (std::uint32_t i = 0; i < outputs; ++i) refs.push_back({id, i});
  return refs;
}

TensorRef GraphBuilder::add1(Op op, std::vector<TensorRef> inputs, Attrs attrs, std::string name) {
  return add(op, std::move(inputs), std::move(attrs), std::move(name)).at(0);
}

TensorRef GraphBuilder::input(std::string name, Shape shape, DType dtype) {
  Node node;
  node.name = std::move(name);
  node.op = Op::kInput;
  node.attrs = {std::move(shape)};
  node.leaf_dtype = dtype;
  InferResult inferred = infer_types(Op::kInput, {}, node.attrs, dtype);
  if (!inferred.ok()) throw Error(inferred.error, SourceLocation::at_node(node.name));
  node.outputs = std::move(inferred.outputs);
  return {add_named(std::move(node)), 0};
}

TensorRef GraphBuilder::weight(std::string name, Shape shape, std::shared_ptr<const Tensor> value) {
  if (value && value->shape != shape)
    throw Error(fmt::format("weight values have shape {}, declared {}", shape_string(value->shape),
                            shape_string(shape)),
                SourceLocation::at_node(name));
  const TensorRef ref = add1(Op::kWeight, {}, {std::move(shape)}, std::move(name));
  graph_.nodes()[ref.node].value = std::move(value);
  return ref;
}

TensorRef GraphBuilder::matmul(TensorRef a, TensorRef b, Activation act) {
  return add1(Op::kMatmul, {a, b}, {static_cast<std::int64_t>(act)});
}

TensorRef GraphBuilder::conv2d(TensorRef x, TensorRef w, std::int64_t stride_h,
                               std::int64_t stride_w, Padding pad, Activation act) {
  return add1(Op::kConv2d, {x, w},
              {stride_h, stride_w, static_cast<std::int64_t>(pad), static_cast<std::int64_t>(act)});
}

TensorRef GraphBuilder::transpose(TensorRef x, std::vector<std::int64_t> perm) {
  return add1(Op::kTranspose, {x}, {std::move(perm)});
}

TensorRef GraphBuilder::reshape(TensorRef x, Shape shape) {
  return add1(Op::kReshape, {x}, {std::move(shape)});
}

TensorRef GraphBuilder::pool(Op op, TensorRef x, std::int64_t kernel_h, std::int64_t kernel_w,
                             std::int64_t stride_h, std::int64_t stride_w, Padding pad,
                             Activation act) {
  return add1(op, {x},
              {kernel_h, kernel_w, stride_h, stride_w, static_cast<std::int64_t>(pad),
               static_cast<std::int64_t>(act)});
}

TensorRef GraphBuilder::concat(std::int64_t axis, std::vector<TensorRef> inputs) {
  const auto ndim =
      inputs.empty() ? std::int64_t{0} : static_cast<std::int64_t>(type_of(inputs[0]).shape.size());
  return add1(Op::kConcat, std::move(inputs), {axis, ndim});
}

std::vector<TensorRef> GraphBuilder::split(TensorRef x, std::int64_t axis,
                                           std::vector<std::int64_t> sizes) {
  return add(Op::kSplit, {x}, {axis, std::move(sizes)});
}

TensorRef GraphBuilder::batchnorm(TensorRef x, TensorRef scale, TensorRef bias, TensorRef mean,
                                  TensorRef var) {
  return add1(Op::kBatchNorm, {x, scale, bias, mean, var}, {});
}

void GraphBuilder::output(std::string name, TensorRef tensor) {
  graph_.add_output(std::move(name), tensor);
}

Graph GraphBuilder::finish() && {
  graph_.infer_and_validate();
  return std::move(graph_);
}

}  // namespace mctsat::tensor
