// Reading, writing, checking and importing egraph-serialize JSON.
#include "egraph/serialize.hpp"

#include <cmath>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/cost_range.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/json_text.hpp"

namespace mctsat::egraph {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;  // for writing e-nodes in the graph's order

// The keys of the top-level "nodes" object in document order (a std::map-based DOM sorts them):
// a second, DOM-free pass over text that already parsed.
class NodeOrder : public nlohmann::json_sax<Json> {
 public:
  std::vector<std::string> ids;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return ++depth_, true; }
  bool end_object() override { return --depth_, true; }
  bool start_array(std::size_t) override { return ++depth_, true; }
  bool end_array() override { return --depth_, true; }
  bool key(string_t& key) override {
    if (depth_ == 1) in_nodes_ = key == "nodes";
    if (depth_ == 2 && in_nodes_) ids.push_back(key);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  int depth_ = 0;
  bool in_nodes_ = false;
};

// Where `"key":` first appears in text at or after `from` (just the file when it does not).
SourceLocation locate_key(std::string_view text, std::string_view key, std::size_t from,
                          const std::string& file) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  for (std::size_t at = text.find(quoted, from); at != std::string_view::npos;
       at = text.find(quoted, at + 1)) {
    std::size_t i = at + quoted.size();
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
      ++i;
    if (i < text.size() && text[i] == ':') return location_of_offset(text, at, file);
  }
  return SourceLocation::at(file);
}

SourceLocation with_node(SourceLocation where, const std::string& node) {
  where.node = node;
  return where;
}

}  // namespace

std::string to_json(const SerializedEGraph& graph, int indent) {
  validate(graph);
  OrderedJson doc = OrderedJson::object();
  OrderedJson& nodes = doc["nodes"] = OrderedJson::object();
  // Appended directly: ids are unique (validated), and ordered_json's own insertion searches.
  auto& entries = nodes.get_ref<OrderedJson::object_t&>();
  entries.reserve(graph.nodes.size());
  for (const SerializedNode& n : graph.nodes) {
    OrderedJson node = OrderedJson::object();
    node["op"] = n.op;
    node["children"] = n.children;
    node["eclass"] = n.eclass;
    node["cost"] = n.cost;
    if (n.subsumed) node["subsumed"] = true;
    entries.emplace_back(n.id, std::move(node));
  }
  doc["root_eclasses"] = graph.root_eclasses;
  if (!graph.class_data.empty()) {
    try {
      doc["class_data"] = OrderedJson::parse(graph.class_data);
    } catch (const nlohmann::json::parse_error&) {
      throw Error("\"class_data\" is not valid JSON text");
    }
  }
  return doc.dump(indent) + "\n";
}

SerializedEGraph from_json(std::string_view text, const std::string& file) try {
  const Json doc = parse_json_text(text, file);
  if (!doc.is_object())
    throw Error("an egraph-serialize document must be a JSON object", SourceLocation::at(file));
  const auto nodes = doc.find("nodes");
  if (nodes == doc.end())
    throw Error("missing \"nodes\" (an object of e-nodes by id)", SourceLocation::at(file));
  const SourceLocation nodes_at = locate_key(text, "nodes", 0, file);
  if (!nodes->is_object()) throw Error("\"nodes\" must be an object of e-nodes by id", nodes_at);
  const std::size_t nodes_offset = text.find("\"nodes\"");

  NodeOrder order;
  Json::sax_parse(text.begin(), text.end(), &order);
  SerializedEGraph graph;
  graph.nodes.reserve(order.ids.size());
  for (const std::string& id : order.ids) {
    const Json& value = nodes->at(id);
    // Located only on error: a search of the text per e-node would be quadratic.
    auto where = [&] { return with_node(locate_key(text, id, nodes_offset, file), id); };
    if (!value.is_object()) throw Error("an e-node must be a JSON object", where());
    SerializedNode& n = graph.nodes.emplace_back();
    n.id = id;
    const auto op = value.find("op");
    if (op == value.end() || !op->is_string())
      throw Error("the e-node has no \"op\" string", where());
    n.op = op->get<std::string>();
    if (const auto children = value.find("children"); children != value.end()) {
      if (!children->is_array())
        throw Error("\"children\" must be an array of e-node ids", where());
      for (const Json& child : *children) {
        if (!child.is_string()) throw Error("\"children\" must hold e-node id strings", where());
        n.children.push_back(child.get<std::string>());
      }
    }
    const auto eclass = value.find("eclass");
    if (eclass == value.end() || !eclass->is_string())
      throw Error("the e-node has no \"eclass\" string", where());
    n.eclass = eclass->get<std::string>();
    if (const auto cost = value.find("cost"); cost != value.end()) {
      if (!cost->is_number()) throw Error("\"cost\" must be a number", where());
      n.cost = cost->get<double>();
    }
    if (const auto subsumed = value.find("subsumed"); subsumed != value.end()) {
      if (!subsumed->is_boolean()) throw Error("\"subsumed\" must be true or false", where());
      n.subsumed = subsumed->get<bool>();
    }
  }
  if (const auto roots = doc.find("root_eclasses"); roots != doc.end()) {
    const SourceLocation where = locate_key(text, "root_eclasses", 0, file);
    if (!roots->is_array()) throw Error("\"root_eclasses\" must be an array of e-class ids", where);
    for (const Json& root : *roots) {
      if (!root.is_string()) throw Error("\"root_eclasses\" must hold e-class id strings", where);
      graph.root_eclasses.push_back(root.get<std::string>());
    }
  }
  if (const auto data = doc.find("class_data"); data != doc.end()) {
    if (!data->is_object())
      throw Error("\"class_data\" must be an object", locate_key(text, "class_data", 0, file));
    graph.class_data = data->dump();
  }
  try {
    validate(graph, file);
  } catch (const Error& e) {
    // Point at the e-node (or the root list) the problem is about.
    const std::string& node = e.where().node;
    throw Error(e.message(), node.empty()
                                 ? locate_key(text, "root_eclasses", 0, file)
                                 : with_node(locate_key(text, node, nodes_offset, file), node));
  }
  return graph;
} catch (const nlohmann::json::exception& e) {
  // A value of a type the reader did not expect: an Error naming the file, not a crash.
  throw json_error(e, file);
}

SerializedEGraph load_serialized(const std::string& path) {
  return from_json(read_text_file(path), path);
}

void save_serialized(const std::string& path, const SerializedEGraph& graph) {
  write_file_atomically(path, to_json(graph));
}

void validate(const SerializedEGraph& graph, const std::string& file) {
  auto at_node = [&](const std::string& id) {
    SourceLocation where = SourceLocation::at(file);
    where.node = id;
    return where;
  };
  std::unordered_map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (!index.emplace(graph.nodes[i].id, i).second)
      throw Error("two e-nodes have this id", at_node(graph.nodes[i].id));
  }
  for (const SerializedNode& n : graph.nodes) {
    if (const std::string error = cost_error(n.cost); !error.empty())
      throw Error(fmt::format("the cost {} (a cost is 0 or from {:g} to {:g} ms)", error,
                              kMinCostMs, kMaxCostMs),
                  at_node(n.id));
    for (const std::string& child : n.children) {
      if (!index.contains(child))
        throw Error("child '" + child + "' is not an e-node", at_node(n.id));
    }
  }
  std::unordered_set<std::string_view> classes;
  for (const SerializedNode& n : graph.nodes) classes.insert(n.eclass);
  for (const std::string& root : graph.root_eclasses) {
    if (!classes.contains(root))
      throw Error("root e-class '" + root + "' has no e-nodes", SourceLocation::at(file));
  }
}

ImportedEGraph import_egraph(const SerializedEGraph& graph) {
  validate(graph);
  ImportedEGraph out;
  EGraph<NoAnalysis>& egraph = out.egraph;
  const std::size_t count = graph.nodes.size();

  // Dense indexes: e-nodes by id, classes and operators by first appearance.
  std::unordered_map<std::string_view, std::uint32_t> node_index, class_index;
  std::unordered_map<std::string_view, OpCode> op_codes;
  std::vector<std::uint32_t> class_of(count);
  std::vector<OpCode> op_of(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const SerializedNode& n = graph.nodes[i];
    node_index.emplace(n.id, i);
    class_of[i] =
        class_index.emplace(n.eclass, static_cast<std::uint32_t>(class_index.size())).first->second;
    const auto [op, added] = op_codes.emplace(n.op, static_cast<OpCode>(out.op_names.size()));
    if (added) out.op_names.push_back(n.op);
    op_of[i] = op->second;
  }

  // An e-node can be added once each child class holds an added e-node: a worklist in document
  // order, releasing the e-nodes that wait on a class when it first gets one.
  std::vector<Id> class_id(class_index.size(), kNoId);
  std::vector<std::uint32_t> waiting_on(count, 0);
  std::vector<std::vector<std::uint32_t>> waiters(class_index.size());
  std::vector<std::vector<std::uint32_t>> child_classes(count);
  std::deque<std::uint32_t> ready;
  for (std::uint32_t i = 0; i < count; ++i) {
    for (const std::string& child : graph.nodes[i].children)
      child_classes[i].push_back(class_of[node_index.at(child)]);
    waiting_on[i] = static_cast<std::uint32_t>(child_classes[i].size());
    for (std::uint32_t c : child_classes[i]) waiters[c].push_back(i);
    if (waiting_on[i] == 0) ready.push_back(i);
  }
  auto record = [&](Id node, double cost, std::string name) {
    out.costs.resize(egraph.num_ids(), std::numeric_limits<double>::infinity());
    out.node_names.resize(egraph.num_ids());
    out.costs[node] = cost;
    out.node_names[node] = std::move(name);
  };
  auto settle = [&](std::uint32_t c, Id eclass) {
    if (class_id[c] != kNoId) {
      egraph.merge(class_id[c], eclass);
      return;
    }
    class_id[c] = eclass;
    for (std::uint32_t w : waiters[c])
      if (--waiting_on[w] == 0) ready.push_back(w);
  };

  std::vector<std::uint8_t> added(count, 0);
  std::size_t done = 0, scan = 0;
  std::vector<Id> children;
  while (done < count) {
    if (ready.empty()) {
      // Every e-node left waits on a class of a cycle: a placeholder stands for one such class.
      while (added[scan]) ++scan;
      std::uint32_t blocked = 0;
      for (std::uint32_t c : child_classes[scan])
        if (class_id[c] == kNoId) blocked = c;
      if (out.placeholders++ == 0) out.op_names.push_back("<placeholder>");
      const auto placeholder = static_cast<OpCode>(out.op_names.size() - 1);
      const Id node = egraph.add(placeholder, static_cast<std::int64_t>(blocked), {});
      record(node, std::numeric_limits<double>::infinity(), "");
      egraph.blacklist(node);
      settle(blocked, node);
      continue;
    }
    const std::uint32_t i = ready.front();
    ready.pop_front();
    const SerializedNode& n = graph.nodes[i];
    children.clear();
    for (std::uint32_t c : child_classes[i]) children.push_back(class_id[c]);
    const std::size_t ids_before = egraph.num_ids();
    const Id eclass = egraph.add(op_of[i], 0, std::span<const Id>(children));
    if (egraph.num_ids() > ids_before) {
      record(eclass, n.cost, n.id);
      if (n.subsumed) egraph.blacklist(eclass);
    } else {
      ++out.duplicates;
    }
    added[i] = 1;
    ++done;
    settle(class_of[i], eclass);
  }
  egraph.rebuild();
  out.costs.resize(egraph.num_ids(), std::numeric_limits<double>::infinity());
  out.node_names.resize(egraph.num_ids());
  for (const std::string& root : graph.root_eclasses)
    out.roots.push_back(egraph.find(class_id[class_index.at(root)]));
  return out;
}

}  // namespace mctsat::egraph
