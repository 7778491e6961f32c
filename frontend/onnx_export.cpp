// The ONNX exporter (see onnx_export.hpp): opset planning, tensor naming, one emitter per catalog
// operator, opaque nodes from their payload, and the checker.
#include "frontend/onnx_export.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>

#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>

#include "frontend/onnx_attributes.hpp"
#include "frontend/onnx_markers.hpp"
#include "frontend/onnx_opaque_payload.hpp"
#include "frontend/onnx_outer_names.hpp"
#include "frontend/onnx_tensor.hpp"
#include "frontend/weight_folding.hpp"
#include "support/error.hpp"

namespace mctsat::frontend {
namespace {

using tensor::Activation;
using tensor::DType;
using tensor::Node;
using tensor::NodeId;
using tensor::Op;
using tensor::Padding;
using tensor::TensorRef;

constexpr std::int64_t kBaseOpset = 13;
constexpr const char* kOpaqueDomain = "ai.mctsat.opaque";

class Exporter {
 public:
  explicit Exporter(const tensor::Graph& graph) : graph_(fold_weights(graph)) {}

  std::string run(const std::string& name) {
    parse_payloads();
    plan_opsets();
    name_tensors();
    onnx::GraphProto& g = *model_.mutable_graph();
    g.set_name(name);
    for (const Node& node : graph_.nodes()) {
      if (node.op == Op::kInput) value_info(g.add_input(), node.name, node.outputs[0]);
    }
    for (NodeId id : graph_.topological_order()) emit(id);
    for (const auto& out : graph_.outputs()) {
      const std::string& tensor = name_of(out.tensor);
      if (tensor != out.name)
        node("Identity", {tensor}, {out.name}, unique(out.name + "/identity"));
      value_info(g.add_output(), out.name, graph_.type_of(out.tensor));
    }
    model_.set_ir_version(onnx::IR_VERSION);
    model_.set_producer_name("mctsat");
    try {
      onnx::checker::check_model(model_);
    } catch (const std::exception& e) {
      throw Error(fmt::format("the exported ONNX model fails the checker: {}", e.what()));
    }
    std::string bytes;
    model_.SerializeToString(&bytes);
    return bytes;
  }

 private:
  void parse_payloads() {
    for (NodeId id = 0; id < graph_.size(); ++id) {
      const Node& node = graph_.node(id);
      if (node.op != Op::kOpaque || !node.opaque || node.opaque->payload.empty()) continue;
      auto payload = OpaquePayload::parse(node.opaque->payload);
      if (!payload) throw node_error(node, "the opaque operator's ONNX payload does not parse");
      payloads_.emplace(id, std::move(*payload));
    }
  }

  // The default domain at opset 13 or the newest opaque operator's opset; other domains at the
  // newest version any opaque operator uses. An opaque operator must mean the same at the export
  // opset as at its own.
  void plan_opsets() {
    std::map<std::string, std::int64_t> versions = {{"", kBaseOpset}};
    for (const auto& [id, payload] : payloads_) {
      for (const auto& import : payload.function().opset_import()) {
        const std::string domain =
            onnx_attr::default_domain(import.domain()) ? "" : import.domain();
        versions[domain] = std::max(versions[domain], import.version());
      }
    }
    for (const auto& [id, payload] : payloads_) {
      const onnx::NodeProto& n = payload.node();
      const std::string domain = onnx_attr::default_domain(n.domain()) ? "" : n.domain();
      std::int64_t own = 0;
      for (const auto& import : payload.function().opset_import()) {
        if ((onnx_attr::default_domain(import.domain()) ? "" : import.domain()) == domain)
          own = import.version();
      }
      const auto* before =
          onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(own), domain);
      const auto* after =
          onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(versions[domain]), domain);
      if (before && after && before->since_version() != after->since_version())
        throw node_error(graph_.node(id),
                         fmt::format("opaque {} is defined by opset {} of its model, but the "
                                     "export opset {} redefines it",
                                     n.op_type(), own, versions[domain]));
    }
    default_opset_ = versions[""];
    for (const auto& [domain, version] : versions) {
      auto* import = model_.add_opset_import();
      import->set_domain(domain);
      import->set_version(version);
    }
    for (const Node& node : graph_.nodes()) {
      if (node.op == Op::kOpaque && (!node.opaque || node.opaque->payload.empty())) {
        auto* import = model_.add_opset_import();
        import->set_domain(kOpaqueDomain);
        import->set_version(1);
        break;
      }
    }
  }

  std::string unique(const std::string& base) {
    std::string name = base;
    for (int k = 1; used_.count(name); ++k) name = fmt::format("{}_{}", base, k);
    used_.insert(name);
    return name;
  }

  // Graph outputs name the tensors that produce them where they can (not a leaf, not named
  // twice); the rest get an Identity. Graph inputs keep their names.
  void name_tensors() {
    for (const auto& out : graph_.outputs()) used_.insert(out.name);
    // The names opaque operators' subgraphs define: ONNX names are unique across scopes.
    for (const auto& [id, payload] : payloads_) {
      std::vector<std::string> inner;
      add_subgraph_definitions(payload.node(), inner);
      used_.insert(inner.begin(), inner.end());
    }
    for (const Node& node : graph_.nodes()) {
      if (node.op == Op::kInput) used_.insert(node.name);
    }
    names_.resize(graph_.size());
    for (NodeId id = 0; id < graph_.size(); ++id) names_[id].resize(graph_.node(id).outputs.size());
    for (const auto& out : graph_.outputs()) {
      const Node& producer = graph_.node(out.tensor.node);
      std::string& slot = names_[out.tensor.node][out.tensor.output];
      if (producer.op != Op::kInput && producer.op != Op::kWeight && slot.empty()) slot = out.name;
    }
    for (NodeId id = 0; id < graph_.size(); ++id) {
      const Node& node = graph_.node(id);
      for (std::size_t k = 0; k < names_[id].size(); ++k) {
        if (!names_[id][k].empty()) continue;
        names_[id][k] = node.op == Op::kInput ? node.name
                        : k == 0              ? unique(node.name)
                                              : unique(fmt::format("{}:{}", node.name, k));
      }
    }
  }

  const std::string& name_of(TensorRef ref) const { return names_[ref.node][ref.output]; }

  static void value_info(onnx::ValueInfoProto* info, const std::string& name,
                         const tensor::TensorType& type) {
    info->set_name(name);
    onnx_io::type_to_proto(type, *info->mutable_type());
  }

  onnx::NodeProto* node(const std::string& type, std::vector<std::string> inputs,
                        std::vector<std::string> outputs, const std::string& name) {
    onnx::NodeProto* n = model_.mutable_graph()->add_node();
    n->set_op_type(type);
    n->set_name(name);
    for (auto& in : inputs) n->add_input(std::move(in));
    for (auto& out : outputs) n->add_output(std::move(out));
    return n;
  }
  static void set_int(onnx::NodeProto* n, const char* name, std::int64_t value) {
    auto* attr = n->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INT);
    attr->set_i(value);
  }
  static void set_ints(onnx::NodeProto* n, const char* name, const std::vector<std::int64_t>& v) {
    auto* attr = n->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INTS);
    for (auto x : v) attr->add_ints(x);
  }
  static void set_float(onnx::NodeProto* n, const char* name, double value) {
    auto* attr = n->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::FLOAT);
    attr->set_f(static_cast<float>(value));
  }

  std::string initializer(const std::string& base, const tensor::Tensor& value, DType dtype) {
    onnx::TensorProto* proto = model_.mutable_graph()->add_initializer();
    proto->set_name(unique(base));
    onnx_io::tensor_to_proto(value, dtype, *proto);
    return proto->name();
  }
  std::string int_list(const std::string& base, const std::vector<std::int64_t>& values) {
    return initializer(base,
                       tensor::Tensor({static_cast<std::int64_t>(values.size())},
                                      std::vector<double>(values.begin(), values.end())),
                       DType::kInt64);
  }

  // The operator's output: the node's tensor, or an intermediate one when an activation follows.
  std::string main_output(NodeId id, Activation act) {
    return act == Activation::kNone ? names_[id][0]
                                    : unique(graph_.node(id).name + "/pre_activation");
  }
  void activation(NodeId id, Activation act, const std::string& from) {
    static const std::map<Activation, const char*> kTypes = {{Activation::kRelu, "Relu"},
                                                             {Activation::kSigmoid, "Sigmoid"},
                                                             {Activation::kTanh, "Tanh"}};
    if (act == Activation::kNone) return;
    node(kTypes.at(act), {from}, {names_[id][0]}, unique(graph_.node(id).name + "/activation"))
        ->set_doc_string(onnx_markers::kFusedActivation);
  }

  // A window's padding as the auto_pad that names its mode (the catalog's SAME is ONNX's
  // SAME_UPPER), so that the importer reads the same code back even where another code would read
  // the same cells (a 1x1 stride-1 VALID convolution is also SAME). A VALID window whose output
  // SAME would size otherwise (x of [N, C, H, W]; where the sizes agree SAME pads nothing) is
  // written as explicit zero pads instead, which only VALID reads: ONNX Runtime folds a Pad into
  // the Conv or pool after it only when that node has no auto_pad.
  static void set_window_padding(onnx::NodeProto* n, Padding pad, const tensor::Shape& x,
                                 std::int64_t kernel_h, std::int64_t kernel_w,
                                 std::int64_t stride_h, std::int64_t stride_w) {
    const auto sizes_differ = [](std::int64_t in, std::int64_t k, std::int64_t s) {
      return (in + s - 1) / s != (in - k) / s + 1;  // SAME's output size against VALID's
    };
    if (pad == Padding::kValid &&
        (sizes_differ(x[2], kernel_h, stride_h) || sizes_differ(x[3], kernel_w, stride_w))) {
      set_ints(n, "pads", {0, 0, 0, 0});
      return;
    }
    auto* attr = n->add_attribute();
    attr->set_name("auto_pad");
    attr->set_type(onnx::AttributeProto::STRING);
    attr->set_s(pad == Padding::kValid       ? "VALID"
                : pad == Padding::kSameLower ? "SAME_LOWER"
                                             : "SAME_UPPER");
  }

  void emit(NodeId id) {
    const Node& n = graph_.node(id);
    std::vector<std::string> ins;
    for (const TensorRef& in : n.inputs) ins.push_back(name_of(in));
    const std::string& out = names_[id][0];
    auto attr_i = [&](std::size_t k) { return tensor::attr_int(n.attrs.at(k)); };
    auto type_of = [&](std::size_t k) -> const tensor::TensorType& {
      return graph_.type_of(n.inputs.at(k));
    };
    // An operator written as one ONNX node of the same inputs and output, without attributes.
    auto simple = [&](const char* type) { node(type, ins, {out}, n.name); };
    switch (n.op) {
      case Op::kEwAdd:
        return simple("Add");
      case Op::kEwMul:
        return simple("Mul");
      case Op::kEwSub:
        return simple("Sub");
      case Op::kEwDiv:
        return simple("Div");
      case Op::kRelu:
        return simple("Relu");
      case Op::kTanh:
        return simple("Tanh");
      case Op::kSigmoid:
        return simple("Sigmoid");
      case Op::kDropout:
        return simple("Dropout");
      case Op::kIdentity:
        return simple("Identity");
      case Op::kGlobalAvgPool:
        return simple("GlobalAveragePool");
      case Op::kBatchNorm:
        return simple("BatchNormalization");
      case Op::kInput:
        return;
      case Op::kWeight:
        if (n.value) {
          onnx::TensorProto* proto = model_.mutable_graph()->add_initializer();
          proto->set_name(out);
          onnx_io::tensor_to_proto(*n.value, n.leaf_dtype, *proto);
        } else {
          onnx::ValueInfoProto* input = model_.mutable_graph()->add_input();
          value_info(input, out, n.outputs[0]);
          input->set_doc_string(onnx_markers::kWeightWithoutValues);
        }
        return;
      case Op::kMatmul: {
        const auto act = static_cast<Activation>(attr_i(0));
        const std::string y = main_output(id, act);
        node("MatMul", ins, {y}, n.name);
        return activation(id, act, y);
      }
      case Op::kConv2d: {
        const auto act = static_cast<Activation>(attr_i(3));
        const std::string y = main_output(id, act);
        const tensor::Shape &x = type_of(0).shape, &w = type_of(1).shape;
        onnx::NodeProto* conv = node("Conv", ins, {y}, n.name);
        set_ints(conv, "kernel_shape", {w[2], w[3]});
        set_ints(conv, "strides", {attr_i(0), attr_i(1)});
        set_window_padding(conv, static_cast<Padding>(attr_i(2)), x, w[2], w[3], attr_i(0),
                           attr_i(1));
        set_int(conv, "group", x[1] / w[1]);
        return activation(id, act, y);
      }
      case Op::kPoolMax:
      case Op::kPoolAvg: {
        const auto act = static_cast<Activation>(attr_i(5));
        const std::string y = main_output(id, act);
        onnx::NodeProto* pool =
            node(n.op == Op::kPoolMax ? "MaxPool" : "AveragePool", ins, {y}, n.name);
        set_ints(pool, "kernel_shape", {attr_i(0), attr_i(1)});
        set_ints(pool, "strides", {attr_i(2), attr_i(3)});
        set_window_padding(pool, static_cast<Padding>(attr_i(4)), type_of(0).shape, attr_i(0),
                           attr_i(1), attr_i(2), attr_i(3));
        if (n.op == Op::kPoolAvg) set_int(pool, "count_include_pad", 1);
        return activation(id, act, y);
      }
      case Op::kSmul: {
        std::string s = ins[1];
        if (type_of(1).shape.size() > type_of(0).shape.size()) {
          s = unique(n.name + "/scalar");
          node("Reshape", {ins[1], int_list(n.name + "/scalar_shape", {1})}, {s},
               unique(n.name + "/reshape"));
        }
        node("Mul", {ins[0], s}, {out}, n.name);
        return;
      }
      case Op::kTranspose:
        set_ints(node("Transpose", ins, {out}, n.name), "perm", tensor::attr_ints(n.attrs[0]));
        return;
      case Op::kReshape:
        node("Reshape", {ins[0], int_list(n.name + "/shape", tensor::attr_ints(n.attrs[0]))}, {out},
             n.name);
        return;
      case Op::kFlatten:
        set_int(node("Flatten", ins, {out}, n.name), "axis", attr_i(0));
        return;
      case Op::kEnlarge: {
        const tensor::Shape &w = type_of(0).shape, &ref = type_of(1).shape;
        const std::int64_t ph = (ref[2] - w[2]) / 2, pw = (ref[3] - w[3]) / 2;
        node("Pad", {ins[0], int_list(n.name + "/pads", {0, 0, ph, pw, 0, 0, ph, pw})}, {out},
             n.name);
        return;
      }
      case Op::kConcat:
        set_int(node("Concat", ins, {out}, n.name), "axis", attr_i(0));
        return;
      case Op::kSplit:
        set_int(node("Split", {ins[0], int_list(n.name + "/sizes", tensor::attr_ints(n.attrs[1]))},
                     names_[id], n.name),
                "axis", attr_i(0));
        return;
      case Op::kSoftmax:
        set_int(node("Softmax", ins, {out}, n.name), "axis", attr_i(0));
        return;
      case Op::kClip: {
        const DType dtype = type_of(0).dtype;
        node("Clip",
             {ins[0],
              initializer(n.name + "/min", tensor::Tensor({}, tensor::attr_float(n.attrs[0])),
                          dtype),
              initializer(n.name + "/max", tensor::Tensor({}, tensor::attr_float(n.attrs[1])),
                          dtype)},
             {out}, n.name);
        return;
      }
      case Op::kLayerNorm:
        return emit_layer_norm(id, ins);
      case Op::kGelu:
        return emit_gelu(id, ins);
      case Op::kAttention:
        return emit_attention(id, ins);
      case Op::kOpaque:
        return emit_opaque(id, ins);
      case Op::kMerge:
        throw node_error(n, "merge of a kernel without values cannot be written to ONNX");
      case Op::kNoop:
        break;
    }
    throw node_error(n, fmt::format("{} cannot be written to ONNX", tensor::op_name(n.op)));
  }

  // A scalar constant of `dtype` named after node `id`.
  std::string constant(NodeId id, const char* what, double value, DType dtype) {
    return initializer(graph_.node(id).name + "/" + what, tensor::Tensor({}, value), dtype);
  }

  // One node of a decomposition of node `id`: its output, named after `id` and `what`.
  std::string step(NodeId id, const char* type, std::vector<std::string> inputs, const char* what) {
    const std::string out = unique(graph_.node(id).name + "/" + what);
    node(type, std::move(inputs), {out}, out);
    return out;
  }

  // LayerNormalization from opset 17; below, the decomposition ONNX Runtime fuses back into it:
  // mean over the last axis, centre, Pow 2, mean, + epsilon, Sqrt, divide, * scale, + bias.
  void emit_layer_norm(NodeId id, const std::vector<std::string>& ins) {
    const Node& n = graph_.node(id);
    const double epsilon = tensor::attr_float(n.attrs[0]);
    if (default_opset_ >= 17) {
      set_float(node("LayerNormalization", ins, {names_[id][0]}, n.name), "epsilon", epsilon);
      return;
    }
    const DType dtype = graph_.type_of(n.inputs[0]).dtype;
    auto mean = [&](const std::string& of, const char* what) {
      const std::string out = unique(n.name + "/" + what);
      set_ints(node("ReduceMean", {of}, {out}, out), "axes", {-1});  // keepdims defaults to 1
      return out;
    };
    const std::string centred = step(id, "Sub", {ins[0], mean(ins[0], "mean")}, "centred");
    const std::string squared =
        step(id, "Pow", {centred, constant(id, "two", 2, dtype)}, "squared");
    const std::string shifted = step(
        id, "Add", {mean(squared, "variance"), constant(id, "epsilon", epsilon, dtype)}, "shifted");
    const std::string normed =
        step(id, "Div", {centred, step(id, "Sqrt", {shifted}, "deviation")}, "normed");
    node("Add", {step(id, "Mul", {normed, ins[1]}, "scaled"), ins[2]}, {names_[id][0]}, n.name);
  }

  // GELU (ONNX's Gelu needs opset 20) as the forms ONNX Runtime fuses: the erf form into its Gelu
  // (x / sqrt 2, Erf, + 1, * x, * 0.5), the tanh approximation into its FastGelu (as Hugging Face
  // writes it: x * 0.5 times 1 + Tanh(sqrt(2 / pi) * (x + 0.044715 * Pow(x, 3)))).
  void emit_gelu(NodeId id, const std::vector<std::string>& ins) {
    const Node& n = graph_.node(id);
    const DType dtype = graph_.type_of(n.inputs[0]).dtype;
    if (tensor::attr_int(n.attrs[0]) == 1) {
      const std::string halved =
          step(id, "Mul", {ins[0], constant(id, "half", 0.5, dtype)}, "halved");
      const std::string cube = step(id, "Pow", {ins[0], constant(id, "three", 3, dtype)}, "cube");
      const std::string inner =
          step(id, "Add",
               {ins[0], step(id, "Mul", {cube, constant(id, "kappa", 0.044715, dtype)}, "cubic")},
               "inner");
      const std::string scaled =
          step(id, "Mul", {inner, constant(id, "beta", std::sqrt(2 / std::numbers::pi), dtype)},
               "scaled");
      const std::string one_plus =
          step(id, "Add", {step(id, "Tanh", {scaled}, "tanh"), constant(id, "one", 1, dtype)},
               "one_plus");
      node("Mul", {halved, one_plus}, {names_[id][0]}, n.name);
      return;
    }
    const std::string scaled =
        step(id, "Div", {ins[0], constant(id, "sqrt2", std::numbers::sqrt2, dtype)}, "scaled");
    const std::string one_plus = step(
        id, "Add", {step(id, "Erf", {scaled}, "erf"), constant(id, "one", 1, dtype)}, "one_plus");
    node("Mul", {step(id, "Mul", {ins[0], one_plus}, "product"), constant(id, "half", 0.5, dtype)},
         {names_[id][0]}, n.name);
  }

  // Attention as Hugging Face writes it (ONNX has no attention operator before opset 23): q, k and
  // v reshaped to [B, S, N, h] and transposed (k to [B, N, h, L]), MatMul, Mul by the scale, Add
  // the bias (left out when it is a zero weight), for causal attention Where(lower-triangular, .,
  // lowest float), Softmax, MatMul by the values, transposed back and reshaped to [B, S, N*h].
  // Under `--onnx-ops onnxruntime` the lowering writes it as ONNX Runtime's Attention instead.
  void emit_attention(NodeId id, const std::vector<std::string>& ins) {
    const Node& n = graph_.node(id);
    const std::int64_t heads = tensor::attr_int(n.attrs[0]);
    const tensor::Shape &q = graph_.type_of(n.inputs[0]).shape,
                        &k = graph_.type_of(n.inputs[1]).shape,
                        &v = graph_.type_of(n.inputs[2]).shape;
    const DType dtype = graph_.type_of(n.inputs[0]).dtype;
    // A node of the decomposition, named after `what`: its output and the node.
    auto part = [&](const char* type, std::vector<std::string> inputs, const std::string& what) {
      const std::string out = unique(n.name + "/" + what);
      return std::make_pair(out, node(type, std::move(inputs), {out}, out));
    };
    auto transposed = [&](const std::string& x, std::vector<std::int64_t> perm,
                          const std::string& what) {
      auto [out, transpose] = part("Transpose", {x}, what);
      set_ints(transpose, "perm", perm);
      return out;
    };
    auto split_heads = [&](const std::string& x, const tensor::Shape& shape,
                           std::vector<std::int64_t> perm, const std::string& what) {
      const std::string shape_name =
          int_list(n.name + "/" + what + "_shape", {shape[0], shape[1], heads, shape[2] / heads});
      return transposed(part("Reshape", {x, shape_name}, what + "_split").first, std::move(perm),
                        what);
    };
    const std::string qh = split_heads(ins[0], q, {0, 2, 1, 3}, "query");
    const std::string kt = split_heads(ins[1], k, {0, 2, 3, 1}, "key");
    const std::string vh = split_heads(ins[2], v, {0, 2, 1, 3}, "value");
    std::string scores = part("Mul",
                              {part("MatMul", {qh, kt}, "scores").first,
                               constant(id, "scale", tensor::attr_float(n.attrs[2]), dtype)},
                              "scaled")
                             .first;
    if (!tensor::zero_weight(graph_, n.inputs[3]))
      scores = part("Add", {scores, ins[3]}, "biased").first;
    if (tensor::attr_int(n.attrs[1]) == 1) {
      tensor::Tensor lower({q[1], k[1]});
      for (std::int64_t r = 0; r < q[1]; ++r)
        for (std::int64_t c = 0; c <= r; ++c)
          lower.data[static_cast<std::size_t>(r * k[1] + c)] = 1;
      scores = part("Where",
                    {initializer(n.name + "/causal", lower, DType::kBool), scores,
                     constant(id, "masked", std::numeric_limits<float>::lowest(), dtype)},
                    "masked")
                   .first;
    }
    auto [probabilities, softmax] = part("Softmax", {scores}, "probabilities");
    set_int(softmax, "axis", 3);
    const std::string context = part("MatMul", {probabilities, vh}, "context").first;
    node("Reshape",
         {transposed(context, {0, 2, 1, 3}, "merged"),
          int_list(n.name + "/shape", {q[0], q[1], v[2]})},
         {names_[id][0]}, n.name);
  }

  void emit_opaque(NodeId id, const std::vector<std::string>& ins) {
    const Node& n = graph_.node(id);
    auto found = payloads_.find(id);
    if (found == payloads_.end()) {
      node(n.opaque ? n.opaque->type : "Opaque", ins, names_[id], n.name)
          ->set_domain(kOpaqueDomain);
      return;
    }
    const OpaquePayload& payload = found->second;
    // Embedded constants get fresh names in the model.
    std::map<std::string, std::string> constant_names;
    for (const onnx::NodeProto* constant : payload.embedded()) {
      onnx::NodeProto copy = *constant;
      const std::string name = unique(fmt::format("{}/{}", n.name, constant->output(0)));
      copy.set_output(0, name);
      copy.set_name(name);
      constant_names[constant->output(0)] = name;
      *model_.mutable_graph()->add_node() = std::move(copy);
    }
    onnx::NodeProto copy = payload.node();
    copy.set_name(n.name);
    std::size_t next = 0;
    for (auto& in : *copy.mutable_input()) {
      if (in.empty()) continue;
      if (!payload.graph_input(in)) {
        in = constant_names.at(in);
        continue;
      }
      if (next >= ins.size()) throw node_error(n, "the opaque operator lost an input");
      in = ins[next++];
    }
    // Outer-scope reads of its subgraphs name this graph's tensors as exported.
    std::map<std::string, std::string> outer;
    for (const std::string& name : payload.captured()) {
      if (outer.count(name)) continue;
      if (!payload.graph_input(name)) {
        outer[name] = constant_names.at(name);
        continue;
      }
      if (next >= ins.size()) throw node_error(n, "the opaque operator lost an input");
      outer[name] = ins[next++];
    }
    rename_outer_names(copy, outer);
    std::size_t k = 0;
    for (auto& out : *copy.mutable_output()) {
      if (out.empty()) continue;
      if (k >= names_[id].size()) throw node_error(n, "the opaque operator lost an output");
      out = names_[id][k++];
    }
    if (next != ins.size() || k != names_[id].size())
      throw node_error(n, "the opaque operator's inputs or outputs changed");
    *model_.mutable_graph()->add_node() = std::move(copy);
  }

  tensor::Graph graph_;
  onnx::ModelProto model_;
  std::map<NodeId, OpaquePayload> payloads_;
  std::int64_t default_opset_ = kBaseOpset;
  std::vector<std::vector<std::string>> names_;
  std::set<std::string> used_;
};

}  // namespace

std::string graph_to_onnx(const tensor::Graph& graph, const std::string& name) {
  return Exporter(graph).run(name);
}

}  // namespace mctsat::frontend
