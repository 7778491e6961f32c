// Typed construction of graphs: one call per operator, shapes inferred as nodes are added, and a
// clear error naming the node when an operator does not accept its inputs. Used by the model zoo,
// tests and conversions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "tensor/graph.hpp"

namespace mctsat::tensor {

class GraphBuilder {
 public:
  // Generic form: any operator, positional tensor inputs and attributes. Returns all outputs.
  std::vector<TensorRef> add(Op op, std::vector<TensorRef> inputs, Attrs attrs,
                             std::string name = {});
  TensorRef add1(Op op, std::vector<TensorRef> inputs, Attrs attrs, std::string name = {});

  TensorRef input(std::string name, Shape shape, DType dtype = DType::kFloat32);
  TensorRef weight(std::string name, Shape shape, std::shared_ptr<const Tensor> value = nullptr);
  TensorRef matmul(TensorRef a, TensorRef b, Activation act = Activation::kNone);
  TensorRef conv2d(TensorRef x, TensorRef w, std::int64_t stride_h, std::int64_t stride_w,
                   Padding pad, Activation act = Activation::kNone);
  TensorRef ewadd(TensorRef a, TensorRef b) { return add1(Op::kEwAdd, {a, b}, {}); }
  TensorRef ewmul(TensorRef a, TensorRef b) { return add1(Op::kEwMul, {a, b}, {}); }
  TensorRef relu(TensorRef x) { return add1(Op::kRelu, {x}, {}); }
  TensorRef sigmoid(TensorRef x) { return add1(Op::kSigmoid, {x}, {}); }
  TensorRef tanh(TensorRef x) { return add1(Op::kTanh, {x}, {}); }
  TensorRef transpose(TensorRef x, std::vector<std::int64_t> perm);
  TensorRef reshape(TensorRef x, Shape shape);
  TensorRef pool(Op op, TensorRef x, std::int64_t kernel_h, std::int64_t kernel_w,
                 std::int64_t stride_h, std::int64_t stride_w, Padding pad,
                 Activation act = Activation::kNone);
  TensorRef concat(std::int64_t axis, std::vector<TensorRef> inputs);
  std::vector<TensorRef> split(TensorRef x, std::int64_t axis, std::vector<std::int64_t> sizes);
  TensorRef batchnorm(TensorRef x, TensorRef scale, TensorRef bias, TensorRef mean, TensorRef var);

  void output(std::string name, TensorRef tensor);

  const TensorType& type_of(TensorRef ref) const { return graph_.type_of(ref); }
  const Graph& graph() const { return graph_; }
  // The finished graph, validated.
  Graph finish() &&;

 private:
  std::string fresh_name(Op op);
  NodeId add_named(Node node);
  Graph graph_;
  std::size_t counter_ = 0;
  // The names of the nodes added so far (Graph::find scans every node: a fresh name per node made
  // building a generated zoo model of 188,000 operators quadratic).
  std::unordered_set<std::string> names_;
};

}  // namespace mctsat::tensor
