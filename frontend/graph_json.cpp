// Reading and writing the mctsat graph JSON format.
#include "frontend/graph_json.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/json_text.hpp"
#include "tensor/shape_inference.hpp"

namespace mctsat::frontend {
namespace {

using nlohmann::json;
using tensor::Attr;
using tensor::Graph;
using tensor::Node;
using tensor::NodeId;
using tensor::Op;
using tensor::ParamKind;
using tensor::TensorRef;

// A number as JSON: JSON has no infinities or NaN (nlohmann writes them as null), so those are
// written as the strings "inf", "-inf" and "nan" (e.g. the max of an unbounded Clip, a -inf mask).
json number_json(double value) {
  if (std::isfinite(value)) return value;
  if (std::isnan(value)) return "nan";
  return value > 0 ? "inf" : "-inf";
}

// The number number_json wrote; nullopt for anything else.
std::optional<double> number_from_json(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}

constexpr std::string_view kFormat = "mctsat-graph";
constexpr int kVersion = 2;

class GraphJsonReader {
 public:
  GraphJsonReader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  Graph read() {
    const json root = parse_json_text(text_, file_);
    if (!root.is_object()) fail_at_file("a graph file must hold a JSON object");
    const auto format = root.find("format");
    if (format == root.end() || !format->is_string() || *format != kFormat)
      fail_at_file(fmt::format("\"format\" must be the string \"{}\"", kFormat));
    const auto version = root.find("version");
    if (version == root.end() || !version->is_number_integer() || *version < 1 ||
        *version > kVersion)
      fail_at_file(fmt::format("\"version\" must be the number 1 or {}", kVersion));
    version_ = version->get<int>();
    const auto nodes = root.find("nodes");
    if (nodes == root.end() || !nodes->is_array() || nodes->empty())
      fail_at_file("\"nodes\" must be a non-empty array");

    // Names first, so that inputs may refer to nodes listed later.
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      const json& node = (*nodes)[i];
      if (!node.is_object() || !node.contains("name") || !node["name"].is_string() ||
          node["name"].get<std::string>().empty())
        fail_at_file(fmt::format("nodes[{}] needs a non-empty string \"name\"", i));
      const std::string name = node["name"].get<std::string>();
      if (!ids_.emplace(name, static_cast<NodeId>(i)).second)
        fail_at_node(name, "two nodes have this name");
    }
    for (const json& node : *nodes) graph_.add_node(read_node(node));
    read_outputs(root);
    try {
      graph_.infer_and_validate();
    } catch (const Error& e) {
      if (e.where().node.empty()) throw e.located(SourceLocation::at(file_));
      throw e.located(locate_json_string_member(text_, "name", e.where().node, file_));
    }
    return std::move(graph_);
  }

 private:
  [[noreturn]] void fail_at_file(const std::string& message) const {
    throw Error(message, SourceLocation::at(file_));
  }
  [[noreturn]] void fail_at_node(const std::string& node, const std::string& message) const {
    SourceLocation where = locate_json_string_member(text_, "name", node, file_);
    where.node = node;
    throw Error(message, where);
  }

  // Version 2: a string is a node's name (its output 0), {"node": name, "output": k} any output.
  // Version 1 wrote "node:k"; a whole string that names a node still wins over that reading.
  TensorRef read_ref(const json& value, const std::string& context_node) const {
    if (value.is_object() && version_ >= 2) {
      const json node = value.value("node", json()), output = value.value("output", json());
      if (!node.is_string() || !output.is_number_unsigned() || value.size() != 2)
        fail_at_node(context_node,
                     fmt::format("a tensor reference object must be {{\"node\": name, "
                                 "\"output\": index}}, got {}",
                                 value.dump()));
      return resolve(node.get<std::string>(), output.get<std::uint32_t>(), value, context_node);
    }
    if (!value.is_string())
      fail_at_node(context_node,
                   fmt::format("a tensor reference must be a string{}, got {}",
                               version_ >= 2 ? " or {\"node\", \"output\"}" : "", value.dump()));
    const std::string text = value.get<std::string>();
    if (version_ >= 2 || ids_.count(text)) return resolve(text, 0, value, context_node);
    std::string name = text;
    std::uint32_t output = 0;
    if (const auto colon = text.rfind(':'); colon != std::string::npos) {
      const std::string_view digits = std::string_view(text).substr(colon + 1);
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), output);
      if (ec == std::errc() && end == digits.data() + digits.size() && !digits.empty()) {
        name = text.substr(0, colon);
      } else {
        output = 0;
      }
    }
    return resolve(name, output, value, context_node);
  }

  TensorRef resolve(const std::string& name, std::uint32_t output, const json& value,
                    const std::string& context_node) const {
    const auto found = ids_.find(name);
    if (found == ids_.end())
      fail_at_node(
          context_node,
          fmt::format("refers to unknown tensor {}",
                      value.is_string() ? "'" + value.get<std::string>() + "'" : value.dump()));
    return {found->second, output};
  }

  Attr read_attr(const json& value, const tensor::Param& param, const std::string& node) const {
    auto bad = [&](const char* want) {
      fail_at_node(
          node, fmt::format("attribute \"{}\" must be {}, got {}", param.name, want, value.dump()));
    };
    switch (param.kind) {
      case ParamKind::kInt:
        if (!value.is_number_integer()) bad("an integer");
        return value.get<std::int64_t>();
      case ParamKind::kInts: {
        if (!value.is_array()) bad("a list of integers");
        std::vector<std::int64_t> ints;
        for (const json& v : value) {
          if (!v.is_number_integer()) bad("a list of integers");
          ints.push_back(v.get<std::int64_t>());
        }
        return ints;
      }
      default: {
        const std::optional<double> number = number_from_json(value);
        if (!number) bad("a number (or \"inf\", \"-inf\", \"nan\")");
        return *number;
      }
    }
  }

  Node read_node(const json& object) {
    Node node;
    node.name = object["name"].get<std::string>();
    const json op_value = object.value("op", json());
    const auto op =
        op_value.is_string() ? tensor::find_op(op_value.get<std::string>()) : std::nullopt;
    if (!op) fail_at_node(node.name, fmt::format("unknown operator {}", op_value.dump()));
    node.op = *op;
    const tensor::OpSignature& sig = tensor::signature(node.op);

    if (const auto inputs = object.find("inputs"); inputs != object.end()) {
      if (!inputs->is_array()) fail_at_node(node.name, "\"inputs\" must be an array");
      for (const json& in : *inputs) node.inputs.push_back(read_ref(in, node.name));
    }
    if (const auto dtype = object.find("dtype"); dtype != object.end()) {
      if (!dtype->is_string() || !tensor::parse_dtype(dtype->get<std::string>(), node.leaf_dtype))
        fail_at_node(node.name, fmt::format("unknown dtype {}", dtype->dump()));
    }

    json attrs = object.value("attrs", json::object());
    if (!attrs.is_object()) fail_at_node(node.name, "\"attrs\" must be an object");
    if (node.op == Op::kOpaque) read_opaque(object, node, attrs);
    for (std::size_t i = 0; i < sig.attr_count(); ++i) {
      const tensor::Param& param = sig.attr(i);
      const auto found = attrs.find(std::string(param.name));
      if (found == attrs.end())
        fail_at_node(node.name, fmt::format("{} needs attribute \"{}\"", sig.name, param.name));
      node.attrs.push_back(read_attr(*found, param, node.name));
      attrs.erase(found);
    }
    if (!attrs.empty())
      fail_at_node(node.name,
                   fmt::format("{} has no attribute \"{}\"", sig.name, attrs.begin().key()));

    if (const auto values = object.find("values"); values != object.end()) {
      if (node.op != Op::kWeight) fail_at_node(node.name, "only weights have \"values\"");
      if (!values->is_array()) fail_at_node(node.name, "\"values\" must be an array of numbers");
      std::vector<double> data;
      data.reserve(values->size());
      for (const json& v : *values) {
        const std::optional<double> number = number_from_json(v);
        if (!number) fail_at_node(node.name, "\"values\" must be an array of numbers");
        data.push_back(*number);
      }
      const tensor::Shape& shape = tensor::attr_ints(node.attrs.at(0));
      if (static_cast<std::int64_t>(data.size()) != tensor::numel(shape))
        fail_at_node(node.name,
                     fmt::format("\"values\" has {} numbers, shape {} needs {}", data.size(),
                                 tensor::shape_string(shape), tensor::numel(shape)));
      node.value = std::make_shared<tensor::Tensor>(shape, std::move(data));
    }
    return node;
  }

  // Opaque nodes are written with "type" and "output_types"; their id and encoded output shapes
  // become the catalog's attributes.
  void read_opaque(const json& object, Node& node, json& attrs) {
    const json type = object.value("type", json());
    if (!type.is_string() || type.get<std::string>().empty())
      fail_at_node(node.name, "an opaque node needs its operator \"type\"");
    const json types = object.value("output_types", json());
    if (!types.is_array() || types.empty())
      fail_at_node(node.name, "an opaque node needs \"output_types\"");
    std::vector<tensor::TensorType> outputs;
    for (const json& t : types) {
      tensor::TensorType out;
      const json shape = t.is_object() ? t.value("shape", json()) : json();
      const json dtype = t.is_object() ? t.value("dtype", json("f32")) : json();
      if (!shape.is_array() || !dtype.is_string() ||
          !tensor::parse_dtype(dtype.get<std::string>(), out.dtype))
        fail_at_node(node.name, fmt::format("bad output type {}", t.dump()));
      for (const json& d : shape) {
        if (!d.is_number_integer())
          fail_at_node(node.name, fmt::format("bad output type {}", t.dump()));
        out.shape.push_back(d.get<std::int64_t>());
      }
      outputs.push_back(std::move(out));
    }
    attrs["id"] = next_opaque_id_++;
    attrs["output_shapes"] = tensor::encode_output_types(outputs);
    const json payload = object.value("payload", json(""));
    if (!payload.is_string()) fail_at_node(node.name, "an opaque node's \"payload\" is a string");
    node.opaque = std::make_shared<tensor::OpaqueInfo>(
        tensor::OpaqueInfo{type.get<std::string>(), payload.get<std::string>()});
  }

  void read_outputs(const json& root) {
    const auto outputs = root.find("outputs");
    if (outputs == root.end() || !outputs->is_array() || outputs->empty())
      fail_at_file("\"outputs\" must be a non-empty array");
    for (const json& out : *outputs) {
      if (out.is_string()) {
        graph_.add_output(out.get<std::string>(), read_ref(out, "outputs"));
      } else if (out.is_object() && out.value("name", json()).is_string() &&
                 out.contains("tensor")) {
        graph_.add_output(out["name"].get<std::string>(), read_ref(out["tensor"], "outputs"));
      } else {
        fail_at_file(fmt::format(
            "a graph output must be \"tensor\" or {{\"name\", \"tensor\"}}, got {}", out.dump()));
      }
    }
  }

  std::string_view text_;
  std::string file_;
  Graph graph_;
  std::map<std::string, NodeId, std::less<>> ids_;
  std::int64_t next_opaque_id_ = 0;
  int version_ = kVersion;
};

json attr_json(const Attr& attr) {
  switch (tensor::attr_kind(attr)) {
    case ParamKind::kInt:
      return tensor::attr_int(attr);
    case ParamKind::kInts:
      return tensor::attr_ints(attr);
    default:
      return number_json(tensor::attr_float(attr));
  }
}

json ref_json(const Graph& graph, TensorRef ref) {
  if (ref.output == 0) return graph.node(ref.node).name;
  return {{"node", graph.node(ref.node).name}, {"output", ref.output}};
}

json node_json(const Graph& graph, const Node& node, bool with_values) {
  json out = json::object();
  out["name"] = node.name;
  out["op"] = tensor::op_name(node.op);
  if (!node.inputs.empty()) {
    json inputs = json::array();
    for (const TensorRef& in : node.inputs) inputs.push_back(ref_json(graph, in));
    out["inputs"] = std::move(inputs);
  }
  const tensor::OpSignature& sig = tensor::signature(node.op);
  json attrs = json::object();
  if (node.op == Op::kOpaque) {
    out["type"] = node.opaque ? node.opaque->type : "";
    json types = json::array();
    for (const auto& t : node.outputs)
      types.push_back({{"dtype", tensor::dtype_name(t.dtype)}, {"shape", t.shape}});
    out["output_types"] = std::move(types);
    if (node.opaque && !node.opaque->payload.empty()) out["payload"] = node.opaque->payload;
  } else {
    for (std::size_t i = 0; i < node.attrs.size(); ++i)
      attrs[std::string(sig.attr(i).name)] = attr_json(node.attrs[i]);
    if (!attrs.empty()) out["attrs"] = std::move(attrs);
  }
  if ((node.op == Op::kInput || node.op == Op::kWeight) &&
      node.leaf_dtype != tensor::DType::kFloat32)
    out["dtype"] = tensor::dtype_name(node.leaf_dtype);
  if (with_values && node.value) {
    json values = json::array();
    for (double v : node.value->data) values.push_back(number_json(v));
    out["values"] = std::move(values);
  }
  return out;
}

}  // namespace

Graph graph_from_json(std::string_view text, const std::string& file) {
  return read_json_fields(file, [&]() -> Graph { return GraphJsonReader(text, file).read(); });
}

std::string graph_to_json(const Graph& graph, bool with_values) {
  std::string text = fmt::format("{{\n  \"format\": \"{}\",\n  \"version\": {},\n  \"nodes\": [\n",
                                 kFormat, kVersion);
  for (std::size_t i = 0; i < graph.nodes().size(); ++i) {
    text += "    " + node_json(graph, graph.nodes()[i], with_values).dump();
    text += i + 1 < graph.nodes().size() ? ",\n" : "\n";
  }
  json outputs = json::array();
  for (const auto& out : graph.outputs())
    outputs.push_back({{"name", out.name}, {"tensor", ref_json(graph, out.tensor)}});
  text += "  ],\n  \"outputs\": " + outputs.dump() + "\n}\n";
  return text;
}

}  // namespace mctsat::frontend
