// The graph-level half of the ONNX importer: parsing, the checker, version conversion, shape
// inference, graph inputs, initializers and Constant nodes as weights, opaque nodes, outputs.
#include "frontend/onnx_import.hpp"
#include "frontend/onnx_attributes.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include "frontend/canonical_forms.hpp"
#include "frontend/decomposed_attention.hpp"
#include "frontend/decomposed_operators.hpp"
#include "frontend/onnx_constant_folding.hpp"
#include "frontend/onnx_importer.hpp"
#include "frontend/onnx_markers.hpp"
#include "frontend/onnx_opaque_payload.hpp"
#include "frontend/onnx_outer_names.hpp"
#include "frontend/onnx_schema_checks.hpp"
#include "frontend/onnx_tensor.hpp"
#include "frontend/onnx_topological_sort.hpp"
#include "frontend/weight_folding.hpp"
#include "support/error.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::frontend {
namespace {

using tensor::NodeId;
using tensor::Op;
using tensor::TensorRef;

constexpr std::int64_t kMinOpset = 7, kMaxOpset = 17, kConvertTo = 13;

bool empty_tensor(const onnx::TensorProto& proto) {
  for (auto d : proto.dims())
    if (d == 0) return true;
  return false;
}

// Every value a node reads and every graph output must be defined before it (a graph input, an
// initializer, an earlier node's output, or a value of the enclosing graph), and every tensor's
// data must fit its dims: ONNX's checker lets both through, and then its version converter
// dereferences a null value and its shape inference reads past a tensor's data.
void check_value_names(const onnx::GraphProto& graph, const std::string& file,
                       std::set<std::string> defined) {
  for (const auto& input : graph.input()) defined.insert(input.name());
  for (const auto& weight : graph.initializer()) defined.insert(weight.name());
  for (const auto& node : graph.node()) {
    SourceLocation where = SourceLocation::at(file);
    where.node = node.name().empty() ? node.op_type() : node.name();
    for (const auto& input : node.input())
      if (!input.empty() && defined.count(input) == 0)
        throw Error(fmt::format("{} reads '{}', which no graph input, initializer or earlier node "
                                "defines",
                                node.op_type(), input),
                    where);
    for (const auto& attribute : node.attribute()) {
      try {
        if (attribute.has_t()) onnx_io::check_tensor_proto(attribute.t(), attribute.name());
        for (const auto& value : attribute.tensors())
          onnx_io::check_tensor_proto(value, attribute.name());
      } catch (const Error& e) {
        throw Error(e.message(), where);
      }
      if (attribute.has_g()) check_value_names(attribute.g(), file, defined);
      for (const auto& subgraph : attribute.graphs()) check_value_names(subgraph, file, defined);
    }
    for (const auto& output : node.output()) defined.insert(output);
  }
  for (const auto& weight : graph.initializer()) {
    try {
      onnx_io::check_tensor_proto(weight, weight.name());
    } catch (const Error& e) {
      throw Error(e.message(), SourceLocation::at(file));
    }
  }
  for (const auto& output : graph.output())
    if (defined.count(output.name()) == 0)
      throw Error(fmt::format("graph output '{}' is produced by no node", output.name()),
                  SourceLocation::at(file));
}

// Drops the value_info entries whose type is not fully static: ONNX shape inference keeps an
// existing entry rather than refine it, so a tensor typed without a shape in one round (its
// inputs not yet folded) would stay so after folding gives it one (Swin's shifted-window mask).
void drop_partial_value_info(onnx::GraphProto& graph) {
  auto* infos = graph.mutable_value_info();
  auto partial = [](const onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type()) return false;
    const auto& tensor = info.type().tensor_type();
    if (!tensor.has_shape()) return true;
    for (const auto& dim : tensor.shape().dim())
      if (!dim.has_dim_value()) return true;
    return false;
  };
  infos->erase(std::remove_if(infos->begin(), infos->end(), partial), infos->end());
}

}  // namespace

OnnxImporter::OnnxImporter(onnx::ModelProto model, std::string file)
    : model_(std::move(model)), file_(std::move(file)) {}

void OnnxImporter::fail(const std::string& message) const {
  SourceLocation where = SourceLocation::at(file_);
  if (current_) where.node = node_name_;
  throw Error(message, where);
}

tensor::Graph OnnxImporter::run() {
  check_and_infer();
  read_types();
  for (const auto& init : model_.graph().initializer()) {
    initializers_[init.name()] = &init;
    names_.insert(init.name());
  }
  for (const auto& node : model_.graph().node()) {
    for (const auto& out : node.output()) producers_[out] = &node;
    for (const auto& in : node.input()) ++readers_[in];
  }
  for (const auto& out : model_.graph().output()) ++readers_[out.name()];
  add_inputs();
  for (const auto& node : model_.graph().node()) import_node(node);
  current_ = nullptr;
  for (const auto& out : model_.graph().output()) {
    if (!tensors_.count(out.name()) && !initializers_.count(out.name()))
      fail(fmt::format("graph output '{}' is produced by no node", out.name()));
    graph_.add_output(out.name(), tensor(out.name()));
  }
  try {
    graph_.infer_and_validate();
    return recognise_attention(recognise_decomposed_operators(
                                   to_canonical_forms(fold_weights(graph_), fused_activations_))
                                   .graph)
        .graph;
  } catch (const Error& error) {
    throw error.located(SourceLocation::at(file_));
  }
}

void OnnxImporter::check_and_infer() {
  try {
    onnx::checker::check_model(model_);
  } catch (const std::exception& e) {
    fail(fmt::format("the ONNX checker rejects the model: {}", e.what()));
  }
  opset_ = onnx_attr::default_opset(model_.opset_import());
  if (opset_ < 1 || opset_ > kMaxOpset)
    fail(fmt::format("unsupported opset {} (mctsat reads opsets up to {})", opset_, kMaxOpset));
  check_onnx_attributes(model_.graph(), file_);
  check_value_names(model_.graph(), file_, {});
  auto infer_shapes = [&] {
    drop_partial_value_info(*model_.mutable_graph());
    try {
      onnx::shape_inference::InferShapes(model_, onnx::OpSchemaRegistry::Instance(),
                                         onnx::ShapeInferenceOptions(false, 0, true));
    } catch (const std::exception& e) {
      fail(fmt::format("ONNX shape inference fails: {}", e.what()));
    }
  };
  // Folding first gives the version converter the static shapes some adapters need (Softmax).
  infer_shapes();
  check_onnx_types(model_.graph(), opset_, file_);
  fold_constants(model_, infer_shapes);
  if (opset_ < kConvertTo) {
    // Models older than opset 7 must convert; newer ones the converter cannot handle are imported
    // at their own opset.
    try {
      onnx::ModelProto converted = onnx::version_conversion::ConvertVersion(model_, kConvertTo);
      onnx::checker::check_model(converted);
      model_ = std::move(converted);
      opset_ = kConvertTo;
    } catch (const std::exception& e) {
      if (opset_ < kMinOpset)
        fail(
            fmt::format("opset {} is older than mctsat reads ({}) and ONNX's version converter "
                        "cannot update it: {}",
                        opset_, kMinOpset, e.what()));
      return;
    }
    infer_shapes();
    fold_constants(model_, infer_shapes);
  }
}

void OnnxImporter::read_types() {
  auto record = [&](const onnx::ValueInfoProto& info) {
    if (auto type = onnx_io::type_from_proto(info.type())) onnx_types_[info.name()] = *type;
  };
  for (const auto& info : model_.graph().input()) record(info);
  for (const auto& info : model_.graph().value_info()) record(info);
  for (const auto& info : model_.graph().output()) record(info);
}

void OnnxImporter::add_inputs() {
  for (const auto& info : model_.graph().input()) {
    if (initializers_.count(info.name())) continue;  // a default value: the initializer wins
    std::string dynamic;
    const auto type = onnx_io::type_from_proto(info.type(), &dynamic);
    if (!type) {
      // A fixed shape helps only when the shape is what is unknown (not the element type).
      const bool shape_unknown = info.type().has_tensor_type() &&
                                 onnx_io::dtype_from_onnx(info.type().tensor_type().elem_type());
      fail(shape_unknown
               ? fmt::format("graph input '{}' cannot be imported: {} (mctsat needs tensors of "
                             "fixed shape: give it one with --input-shape {}=d1,d2,...)",
                             info.name(), dynamic, info.name())
               : fmt::format("graph input '{}' cannot be imported: {}", info.name(), dynamic));
    }
    names_.insert(info.name());
    tensor::Node node;
    node.name = info.name();
    node.op = info.doc_string() == onnx_markers::kWeightWithoutValues ? Op::kWeight : Op::kInput;
    node.attrs = {type->shape};
    node.leaf_dtype = type->dtype;
    bind(info.name(), {add_node(std::move(node)), 0});
  }
}

std::string OnnxImporter::unique_name(const std::string& base) {
  std::string name = base.empty() ? "node" : base;
  for (int k = 1; names_.count(name); ++k) name = fmt::format("{}_{}", base, k);
  names_.insert(name);
  return name;
}

NodeId OnnxImporter::add_node(tensor::Node node) {
  std::vector<tensor::TensorType> input_types;
  for (const TensorRef& in : node.inputs) input_types.push_back(graph_.type_of(in));
  tensor::InferResult inferred =
      tensor::infer_types(node.op, input_types, node.attrs, node.leaf_dtype);
  if (!inferred.ok()) {
    const std::string message = current_ ? fmt::format("{} (mapped from ONNX {}): {}", node.name,
                                                       current_->op_type(), inferred.error)
                                         : inferred.error;
    throw Error(message, [&] {
      SourceLocation where = SourceLocation::at(file_);
      where.node = current_ ? node_name_ : node.name;
      return where;
    }());
  }
  node.outputs = std::move(inferred.outputs);
  return graph_.add_node(std::move(node));
}

TensorRef OnnxImporter::tensor(const std::string& onnx_name) {
  if (auto found = tensors_.find(onnx_name); found != tensors_.end()) return found->second;
  auto init = initializers_.find(onnx_name);
  if (init == initializers_.end())
    fail(
        fmt::format("input '{}' is neither a graph input, an initializer nor an earlier node's "
                    "output",
                    onnx_name));
  if (empty_tensor(*init->second))
    fail(
        fmt::format("the empty tensor '{}' cannot be an operand (mctsat tensors have no empty "
                    "dimensions; only opaque operators take empty constants)",
                    onnx_name));
  tensor::Node node;
  node.name = onnx_name;  // reserved in names_
  node.op = Op::kWeight;
  try {
    auto value =
        std::make_shared<tensor::Tensor>(onnx_io::tensor_from_proto(*init->second, onnx_name));
    node.attrs = {value->shape};
    node.leaf_dtype = *onnx_io::dtype_from_onnx(init->second->data_type());
    node.value = std::move(value);
  } catch (const Error& error) {
    fail(error.message());
  }
  const TensorRef ref{add_node(std::move(node)), 0};
  bind(onnx_name, ref);
  return ref;
}

std::shared_ptr<const tensor::Tensor> OnnxImporter::constant(const std::string& onnx_name) const {
  auto init = initializers_.find(onnx_name);
  if (init == initializers_.end()) return nullptr;
  try {
    return std::make_shared<tensor::Tensor>(onnx_io::tensor_from_proto(*init->second, onnx_name));
  } catch (const Error& error) {
    fail(error.message());
  }
}

const onnx::NodeProto* OnnxImporter::producer(const std::string& onnx_name) const {
  const auto found = producers_.find(onnx_name);
  return found == producers_.end() ? nullptr : found->second;
}

int OnnxImporter::readers(const std::string& onnx_name) const {
  const auto found = readers_.find(onnx_name);
  return found == readers_.end() ? 0 : found->second;
}

std::optional<tensor::TensorType> OnnxImporter::onnx_type(const std::string& onnx_name) const {
  auto found = onnx_types_.find(onnx_name);
  if (found == onnx_types_.end()) return std::nullopt;
  return found->second;
}

std::vector<TensorRef> OnnxImporter::add(Op op, std::vector<TensorRef> inputs, tensor::Attrs attrs,
                                         std::string name) {
  tensor::Node node;
  node.name =
      unique_name(name.empty() ? fmt::format("{}/{}", node_name_, tensor::op_name(op)) : name);
  node.op = op;
  node.inputs = std::move(inputs);
  node.attrs = std::move(attrs);
  const NodeId id = add_node(std::move(node));
  std::vector<TensorRef> refs;
  for (std::uint32_t k = 0; k < graph_.node(id).outputs.size(); ++k) refs.push_back({id, k});
  return refs;
}

TensorRef OnnxImporter::add1(Op op, std::vector<TensorRef> inputs, tensor::Attrs attrs,
                             std::string name) {
  return add(op, std::move(inputs), std::move(attrs), std::move(name)).at(0);
}

TensorRef OnnxImporter::add_weight(tensor::Tensor value, tensor::DType dtype, std::string name) {
  tensor::Node node;
  node.name = unique_name(name.empty() ? node_name_ + "/weight" : name);
  node.op = Op::kWeight;
  node.attrs = {value.shape};
  node.leaf_dtype = dtype;
  node.value = std::make_shared<const tensor::Tensor>(std::move(value));
  return {add_node(std::move(node)), 0};
}

void OnnxImporter::bind(const std::string& onnx_name, TensorRef ref) {
  tensors_[onnx_name] = ref;
}

void OnnxImporter::import_node(const onnx::NodeProto& node) {
  current_ = &node;
  std::string base = node.name();
  if (base.empty() && node.output_size() > 0) base = node.output(0);
  node_name_ = base.empty() ? fmt::format("{}_{}", node.op_type(), graph_.size()) : base;
  // The last node of the mapping takes the name; reserve it so helpers do not.
  node_name_ = unique_name(node_name_);
  names_.erase(node_name_);
  std::string reason;
  // Constant nodes left by folding (sparse or string values) stay opaque.
  if (!onnx_attr::default_domain(node.domain()) || node.op_type() == "Constant" ||
      !map_node(node, reason)) {
    add_opaque(node);
  } else {
    check_outputs(node);
    if (node.doc_string() == onnx_markers::kFusedActivation) fused_activations_.insert(node_name_);
  }
  names_.insert(node_name_);
}

void OnnxImporter::add_opaque(const onnx::NodeProto& node) {
  std::vector<tensor::TensorType> types;
  std::vector<std::string> outputs;
  for (const auto& out : node.output()) {
    if (out.empty()) continue;
    auto type = onnx_type(out);
    if (!type)
      fail(fmt::format(
          "mctsat keeps {} as an opaque operator and needs the type of its output '{}', which "
          "ONNX shape inference could not determine statically (mctsat folds what constants and "
          "fixed input shapes determine: check that --input-shape fixes every graph input; a "
          "shape computed from a graph input's values, such as an If on one, cannot be imported)",
          node.op_type(), out));
    types.push_back(*type);
    outputs.push_back(out);
  }
  if (outputs.empty()) fail(fmt::format("{} has no outputs", node.op_type()));
  tensor::Node opaque;
  opaque.name = node_name_;
  opaque.op = Op::kOpaque;
  std::vector<onnx::NodeProto> embedded;  // empty constants travel inside the payload
  // The node's inputs, then the outer-scope names its subgraphs read (If branches and Loop bodies
  // reading weights or activations of this graph): inputs of the opaque operator too.
  const std::vector<std::string> captured = outer_names(node);
  std::vector<std::string> reads(node.input().begin(), node.input().end());
  reads.insert(reads.end(), captured.begin(), captured.end());
  for (const auto& in : reads) {
    if (in.empty()) continue;
    const auto init = initializers_.find(in);
    if (init != initializers_.end() && empty_tensor(*init->second)) {
      if (std::any_of(embedded.begin(), embedded.end(),
                      [&](const onnx::NodeProto& constant) { return constant.output(0) == in; }))
        continue;
      onnx::NodeProto constant;
      constant.set_op_type("Constant");
      constant.add_output(in);
      onnx::AttributeProto* value = constant.add_attribute();
      value->set_name("value");
      value->set_type(onnx::AttributeProto::TENSOR);
      *value->mutable_t() = *init->second;
      embedded.push_back(std::move(constant));
    } else {
      opaque.inputs.push_back(tensor(in));
    }
  }
  opaque.attrs = {next_opaque_id_++, tensor::encode_output_types(types)};
  opaque.opaque = std::make_shared<const tensor::OpaqueInfo>(tensor::OpaqueInfo{
      onnx_attr::default_domain(node.domain()) ? node.op_type()
                                               : node.domain() + "." + node.op_type(),
      OpaquePayload::print(node, std::move(embedded), model_.opset_import(), captured)});
  const NodeId id = add_node(std::move(opaque));
  for (std::uint32_t k = 0; k < outputs.size(); ++k) bind(outputs[k], {id, k});
}

// A mapping must give the types ONNX infers (where it infers them).
void OnnxImporter::check_outputs(const onnx::NodeProto& node) const {
  for (const auto& out : node.output()) {
    if (out.empty() || readers(out) == 0) continue;  // named, but nothing reads it
    const auto ours = tensors_.find(out);
    if (ours == tensors_.end())
      fail(fmt::format("the mapping of {} left output '{}' unbound", node.op_type(), out));
    const auto theirs = onnx_type(out);
    if (theirs && *theirs != graph_.type_of(ours->second))
      fail(fmt::format("output '{}' of {} has type {} in mctsat but {} in ONNX", out,
                       node.op_type(), tensor::type_string(graph_.type_of(ours->second)),
                       tensor::type_string(*theirs)));
  }
}

tensor::Graph graph_from_onnx(std::string_view bytes, const std::string& file,
                              const std::map<std::string, std::vector<std::int64_t>>& input_shapes,
                              const std::map<std::string, std::vector<double>>& input_values) {
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw Error("not a valid ONNX model (the protobuf does not parse: truncated or corrupt?)",
                SourceLocation::at(file));
  if (!model.has_graph()) throw Error("the ONNX model has no graph", SourceLocation::at(file));
  sort_topologically(*model.mutable_graph());
  for (const auto& [name, dims] : input_shapes) {
    onnx::ValueInfoProto* input = nullptr;
    for (auto& candidate : *model.mutable_graph()->mutable_input())
      if (candidate.name() == name) input = &candidate;
    if (input == nullptr || !input->type().has_tensor_type())
      throw Error(fmt::format("--input-shape: the model has no tensor input '{}'", name),
                  SourceLocation::at(file));
    auto* shape = input->mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() != 0 && shape->dim_size() != static_cast<int>(dims.size()))
      throw Error(fmt::format("--input-shape: input '{}' has rank {}, the given shape rank {}",
                              name, shape->dim_size(), dims.size()),
                  SourceLocation::at(file));
    shape->clear_dim();
    for (auto d : dims) shape->add_dim()->set_dim_value(d);
  }
  // Not a structured binding: the lambda below captures the name, which clang 14 (the fuzzers'
  // compiler) does not allow for one.
  for (const auto& entry : input_values) {
    const std::string& name = entry.first;
    const std::vector<double>& values = entry.second;
    auto& inputs = *model.mutable_graph()->mutable_input();
    auto input = std::find_if(inputs.begin(), inputs.end(), [&](const onnx::ValueInfoProto& info) {
      return info.name() == name;
    });
    if (input == inputs.end() || !input->type().has_tensor_type())
      throw Error(fmt::format("--input-value: the model has no tensor input '{}'", name),
                  SourceLocation::at(file));
    std::string dynamic;
    const auto type = onnx_io::type_from_proto(input->type(), &dynamic);
    if (!type)
      throw Error(fmt::format("--input-value: input '{}' needs a fixed shape first: {} (give it "
                              "one with --input-shape {}=d1,d2,...)",
                              name, dynamic, name),
                  SourceLocation::at(file));
    if (tensor::numel(type->shape) != static_cast<std::int64_t>(values.size()))
      throw Error(
          fmt::format("--input-value: input '{}' of shape {} takes {} values, not {}", name,
                      tensor::shape_string(type->shape), tensor::numel(type->shape), values.size()),
          SourceLocation::at(file));
    onnx::TensorProto* constant = model.mutable_graph()->add_initializer();
    constant->set_name(name);
    for (auto d : type->shape) constant->add_dims(d);
    onnx_io::tensor_to_proto(tensor::Tensor(type->shape, values), type->dtype, *constant);
    inputs.erase(input);
  }
  return OnnxImporter(std::move(model), file).run();
}

tensor::Tensor tensor_from_onnx(std::string_view bytes, const std::string& file,
                                std::string* name) {
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    throw Error("not a valid ONNX TensorProto", SourceLocation::at(file));
  if (name) *name = proto.name();
  try {
    return onnx_io::tensor_from_proto(proto, proto.name());
  } catch (const Error& error) {
    throw error.located(SourceLocation::at(file));
  }
}

}  // namespace mctsat::frontend
