// Constant and static-shape folding on ONNX models (see onnx_constant_folding.hpp).
#include "frontend/onnx_constant_folding.hpp"
#include "frontend/onnx_attributes.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/onnx_reference_ops.hpp"
#include "frontend/onnx_tensor.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {
namespace {

// Shape computations are small; larger constant subgraphs are weights, folded after import.
constexpr std::int64_t kMaxFoldElements = 1 << 16;

std::int64_t element_count(const onnx::TensorProto& proto) {
  std::int64_t n = 1;
  for (auto d : proto.dims()) {
    if (d < 0 || (d > 0 && n > kMaxFoldElements / d)) return kMaxFoldElements + 1;
    n *= d;
  }
  return n;
}

// The TensorProto a Constant node holds, or nullopt for sparse and string constants.
std::optional<onnx::TensorProto> constant_value(const onnx::NodeProto& node) {
  if (node.attribute_size() != 1) return std::nullopt;
  const onnx::AttributeProto& attr = node.attribute(0);
  onnx::TensorProto proto;
  if (attr.name() == "value") {
    proto = attr.t();
  } else if (attr.name() == "value_float") {
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_float_data(attr.f());
  } else if (attr.name() == "value_floats") {
    proto.set_data_type(onnx::TensorProto::FLOAT);
    proto.add_dims(attr.floats_size());
    *proto.mutable_float_data() = attr.floats();
  } else if (attr.name() == "value_int") {
    proto.set_data_type(onnx::TensorProto::INT64);
    proto.add_int64_data(attr.i());
  } else if (attr.name() == "value_ints") {
    proto.set_data_type(onnx::TensorProto::INT64);
    proto.add_dims(attr.ints_size());
    *proto.mutable_int64_data() = attr.ints();
  } else {
    return std::nullopt;
  }
  if (!onnx_io::dtype_from_onnx(proto.data_type())) return std::nullopt;
  return proto;
}

// The names the nodes of `graph` and of its subgraphs (If branches, Loop bodies) read.
void add_inputs_read(const onnx::GraphProto& graph, std::set<std::string>& read) {
  for (const auto& node : graph.node()) {
    for (const auto& in : node.input()) read.insert(in);
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) add_inputs_read(attr.g(), read);
      for (const auto& g : attr.graphs()) add_inputs_read(g, read);
    }
  }
}

class Folder {
 public:
  explicit Folder(onnx::ModelProto& model)
      : model_(model), opset_(onnx_attr::default_opset(model.opset_import())) {}

  // One pass over the nodes in order; returns the number of nodes folded.
  int sweep() {
    read_types();
    onnx::GraphProto& graph = *model_.mutable_graph();
    std::vector<onnx::TensorProto> produced;
    std::vector<bool> removed(static_cast<std::size_t>(graph.node_size()), false);
    int folded = 0;
    for (int n = 0; n < graph.node_size(); ++n) {
      const onnx::NodeProto& node = graph.node(n);
      if (auto outputs = fold(node)) {
        for (int k = 0; k < node.output_size(); ++k) {
          if (node.output(k).empty()) continue;
          const OnnxValue& value = *(*outputs)[static_cast<std::size_t>(k)];
          onnx::TensorProto proto;
          if (node.op_type() == "Constant") {
            proto = *constant_value(node);  // exact, whatever float64 could not hold
          } else {
            for (auto d : value.value.shape) proto.add_dims(d);
            onnx_io::tensor_to_proto(value.value, value.dtype, proto);
          }
          proto.set_name(node.output(k));
          values_[node.output(k)] = value;
          produced.push_back(std::move(proto));
        }
        removed[static_cast<std::size_t>(n)] = true;
        ++folded;
      }
    }
    if (folded == 0) return 0;
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (int n = 0; n < graph.node_size(); ++n)
      if (!removed[static_cast<std::size_t>(n)]) *kept.Add() = std::move(*graph.mutable_node(n));
    graph.mutable_node()->Swap(&kept);
    // Initializers for the folded tensors something still reads (subgraphs included).
    std::set<std::string> read;
    add_inputs_read(graph, read);
    for (const auto& out : graph.output()) read.insert(out.name());
    for (auto& proto : produced)
      if (read.count(proto.name())) *graph.add_initializer() = std::move(proto);
    return folded;
  }

 private:
  void read_types() {
    types_.clear();
    auto record = [&](const onnx::ValueInfoProto& info) {
      if (auto type = onnx_io::type_from_proto(info.type())) types_[info.name()] = type->shape;
    };
    for (const auto& info : model_.graph().input()) record(info);
    for (const auto& info : model_.graph().value_info()) record(info);
    for (const auto& info : model_.graph().output()) record(info);
    for (const auto& init : model_.graph().initializer()) {
      initializers_[init.name()] = &init;
      tensor::Shape dims(init.dims().begin(), init.dims().end());
      types_[init.name()] = dims;
    }
  }

  // The value of a constant tensor, if it is one and small enough.
  const OnnxValue* known(const std::string& name) {
    if (auto found = values_.find(name); found != values_.end()) return &found->second;
    auto init = initializers_.find(name);
    if (init == initializers_.end() || element_count(*init->second) > kMaxFoldElements)
      return nullptr;
    const auto dtype = onnx_io::dtype_from_onnx(init->second->data_type());
    if (!dtype) return nullptr;
    try {
      return &(values_[name] = {onnx_io::tensor_from_proto(*init->second, name), *dtype});
    } catch (const Error&) {
      return nullptr;  // external data or a malformed tensor: the importer reports it
    }
  }

  std::optional<std::vector<std::optional<OnnxValue>>> fold(const onnx::NodeProto& node) {
    if (!onnx_attr::default_domain(node.domain())) return std::nullopt;
    if (node.op_type() == "Constant") {
      auto proto = constant_value(node);
      if (!proto || node.output_size() != 1) return std::nullopt;
      std::vector<std::optional<OnnxValue>> outputs(1);
      try {
        outputs[0] = OnnxValue{onnx_io::tensor_from_proto(*proto, node.output(0)),
                               *onnx_io::dtype_from_onnx(proto->data_type())};
      } catch (const Error&) {
        return std::nullopt;
      }
      return outputs;
    }
    if (!onnx_reference_op_supported(node.op_type())) return std::nullopt;
    std::vector<std::optional<OnnxValue>> inputs(static_cast<std::size_t>(node.input_size()));
    const bool shape_only = node.op_type() == "Shape" || node.op_type() == "Size";
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string& name = node.input(k);
      if (name.empty()) continue;
      if (shape_only) {
        if (const OnnxValue* value = known(name)) {
          inputs[static_cast<std::size_t>(k)] =
              OnnxValue{tensor::Tensor(value->value.shape, {}), {}};
          continue;
        }
        auto type = types_.find(name);
        if (type == types_.end()) return std::nullopt;
        inputs[static_cast<std::size_t>(k)] = OnnxValue{tensor::Tensor(type->second, {}), {}};
        continue;
      }
      const OnnxValue* value = known(name);
      if (!value) return std::nullopt;
      inputs[static_cast<std::size_t>(k)] = *value;
    }
    try {
      return evaluate_onnx_node(node, opset_, inputs, kMaxFoldElements);
    } catch (const Error&) {
      return std::nullopt;  // invalid here: left for the importer to report where it maps it
    }
  }

  onnx::ModelProto& model_;
  std::int64_t opset_;
  std::map<std::string, tensor::Shape> types_;
  std::map<std::string, const onnx::TensorProto*> initializers_;
  std::map<std::string, OnnxValue> values_;
};

// Replaces every If whose condition is a constant by the nodes of the branch it takes (their
// initializers become the graph's; an Identity names each branch output as the If's output).
// Returns the number of Ifs replaced. An If whose branch would reuse a name already in the graph
// stays.
int inline_constant_ifs(onnx::GraphProto& graph) {
  std::map<std::string, const onnx::TensorProto*> initializers;
  std::set<std::string> names;
  for (const auto& init : graph.initializer()) {
    initializers[init.name()] = &init;
    names.insert(init.name());
  }
  for (const auto& node : graph.node())
    for (const auto& out : node.output()) names.insert(out);
  int inlined = 0;
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  std::vector<onnx::TensorProto> new_initializers;
  for (auto& node : *graph.mutable_node()) {
    const onnx::GraphProto* branch = nullptr;
    if (node.op_type() == "If" && onnx_attr::default_domain(node.domain()) &&
        node.input_size() == 1) {
      const auto cond = initializers.find(node.input(0));
      if (cond != initializers.end()) {
        try {
          const tensor::Tensor value = onnx_io::tensor_from_proto(*cond->second, node.input(0));
          if (value.data.size() == 1) {
            const auto* taken =
                onnx_attr::find(node, value.data[0] != 0 ? "then_branch" : "else_branch");
            if (taken && taken->has_g()) branch = &taken->g();
          }
        } catch (const Error&) {
        }
      }
    }
    bool clash = branch == nullptr || branch->output_size() != node.output_size();
    if (!clash) {
      for (const auto& init : branch->initializer()) clash = clash || names.count(init.name());
      for (const auto& inner : branch->node())
        for (const auto& out : inner.output()) clash = clash || names.count(out);
    }
    if (clash) {
      *nodes.Add() = std::move(node);
      continue;
    }
    for (const auto& init : branch->initializer()) new_initializers.push_back(init);
    for (const auto& inner : branch->node()) *nodes.Add() = inner;
    for (int k = 0; k < node.output_size(); ++k) {
      if (node.output(k).empty()) continue;
      onnx::NodeProto* identity = nodes.Add();
      identity->set_op_type("Identity");
      identity->set_name(node.name() + "/" + node.output(k));
      identity->add_input(branch->output(k).name());
      identity->add_output(node.output(k));
    }
    ++inlined;
  }
  graph.mutable_node()->Swap(&nodes);
  for (auto& init : new_initializers) *graph.add_initializer() = std::move(init);
  return inlined;
}

}  // namespace

int fold_constants(onnx::ModelProto& model, const std::function<void()>& infer_shapes) {
  int total = 0;
  for (;;) {
    Folder folder(model);
    const int folded = folder.sweep() + inline_constant_ifs(*model.mutable_graph());
    if (folded == 0) return total;
    total += folded;
    infer_shapes();
  }
}

}  // namespace mctsat::frontend
