// egraph-serialize JSON: export -> JSON -> import round trips (counts, costs, operators, roots,
// blacklisted e-nodes left out, cyclic e-graphs), a hand-written extraction-gym style file, and an
// error for every kind of malformed input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "egraph/serialize.hpp"
#include "support/error.hpp"

using namespace mctsat::egraph;

namespace serialize_test {

constexpr OpCode kNum = 0, kAdd = 1, kMul = 2, kNeg = 3;

std::string op_name(const EGraph<NoAnalysis>& egraph, Id node) {
  const ENodeRef n = egraph.node(node);
  switch (n.op) {
    case kNum:
      return std::to_string(n.payload);
    case kAdd:
      return "+";
    case kMul:
      return "*";
    default:
      return "neg";
  }
}
double cost_of(const EGraph<NoAnalysis>& egraph, Id node) {
  return 0.5 + static_cast<double>(egraph.node(node).op) + 0.25 * static_cast<double>(node % 3);
}

// -((3 + 2) * (2 + 3)) + 1 with 3 + 2 = 2 + 3 = (3 + 2) * 1: a small e-graph with merges.
struct Sample {
  EGraph<NoAnalysis> egraph;
  Id root;
  Sample() {
    const Id a = egraph.add(kNum, 3), b = egraph.add(kNum, 2), one = egraph.add(kNum, 1);
    const Id ab = egraph.add(kAdd, 0, {a, b}), ba = egraph.add(kAdd, 0, {b, a});
    const Id sq = egraph.add(kMul, 0, {ab, ba});
    const Id n = egraph.add(kNeg, 0, {sq});
    egraph.merge(ab, ba);
    egraph.merge(ab, egraph.add(kMul, 0, {ab, one}));
    root = egraph.add(kAdd, 0, {n, one});
    egraph.rebuild();
  }
  SerializedEGraph exported() const {
    const Id roots[] = {root};
    return export_egraph(
        egraph, roots, [&](Id node) { return op_name(egraph, node); },
        [&](Id node) { return cost_of(egraph, node); });
  }
};

// The what() of the Error `f` throws ("" when it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const mctsat::Error& e) {
    return e.what();
  }
  return "";
}

std::string read_error(const std::string& text) {
  return error_of([&] { from_json(text, "in.json"); });
}

// Per class (by sorted op names of its e-nodes), the multiset of its e-nodes' (op, cost).
template <class OpOf, class CostOf>
std::multiset<std::vector<std::pair<std::string, double>>> shape(const EGraph<NoAnalysis>& egraph,
                                                                 OpOf&& op_of, CostOf&& cost_of) {
  std::multiset<std::vector<std::pair<std::string, double>>> out;
  for (Id c : egraph.classes()) {
    std::vector<std::pair<std::string, double>> members;
    for (Id n : egraph.nodes_of(c))
      if (!egraph.blacklisted(n)) members.emplace_back(op_of(n), cost_of(n));
    std::sort(members.begin(), members.end());
    out.insert(members);
  }
  return out;
}

TEST_CASE("export -> JSON -> import keeps classes, e-nodes, operators and costs") {
  const Sample sample;
  const SerializedEGraph exported = sample.exported();
  CHECK(exported.nodes.size() == sample.egraph.num_nodes());
  REQUIRE(exported.root_eclasses.size() == 1);
  CHECK(exported.root_eclasses[0] == std::to_string(sample.egraph.find(sample.root)));

  const std::string text = to_json(exported);
  const SerializedEGraph read = from_json(text, "sample.json");
  CHECK(read.nodes.size() == exported.nodes.size());
  CHECK(to_json(read) == text);  // the document order is kept

  const ImportedEGraph imported = import_egraph(read);
  const EGraph<NoAnalysis>& g = imported.egraph;
  CHECK(g.num_classes() == sample.egraph.num_classes());
  CHECK(g.num_nodes() == sample.egraph.num_nodes());
  CHECK(imported.duplicates == 0);
  CHECK(imported.placeholders == 0);
  CHECK(imported.op_names.size() == 6);  // "3", "2", "1", "+", "*", "neg"
  // The same classes with the same e-nodes and costs, and each e-node's cost and name kept.
  CHECK(shape(
            g, [&](Id n) { return imported.op_names[g.node(n).op]; },
            [&](Id n) { return imported.costs[n]; }) ==
        shape(
            sample.egraph, [&](Id n) { return op_name(sample.egraph, n); },
            [&](Id n) { return cost_of(sample.egraph, n); }));
  for (Id n = 0; n < g.num_ids(); ++n) {
    if (!g.live(n)) continue;
    const Id original = static_cast<Id>(std::stoul(imported.node_names[n]));
    CHECK(imported.costs[n] == cost_of(sample.egraph, original));
    CHECK(imported.op_names[g.node(n).op] == op_name(sample.egraph, original));
  }
  REQUIRE(imported.roots.size() == 1);
  CHECK(imported.op_names[g.node(g.nodes_of(imported.roots[0])[0]).op] == "+");
}

TEST_CASE("blacklisted e-nodes are left out, and e-nodes that need them") {
  Sample sample;
  EGraph<NoAnalysis>& egraph = sample.egraph;
  const Id plus = egraph.nodes_of(egraph.find(sample.root))[0];  // -(...) + 1
  const Id neg_class = egraph.find(egraph.node(plus).children[0]);
  const Id mul_class = egraph.find(egraph.node(egraph.nodes_of(neg_class)[0]).children[0]);
  const Id sum_class = egraph.find(egraph.node(egraph.nodes_of(mul_class)[0]).children[0]);
  REQUIRE(egraph.nodes_of(sum_class).size() == 3);  // 3 + 2, 2 + 3, (3 + 2) * 1

  // (3 + 2) * 1 goes; a child in its class names the smallest e-node left.
  const Id times_one = egraph.nodes_of(sum_class, kMul)[0];
  egraph.blacklist(times_one);
  SerializedEGraph exported = sample.exported();
  CHECK(exported.nodes.size() == egraph.num_nodes() - 1);
  for (const SerializedNode& n : exported.nodes) {
    CHECK(n.id != std::to_string(times_one));
    if (n.op == "*")
      CHECK(n.children ==
            std::vector<std::string>(2, std::to_string(egraph.nodes_of(sum_class)[0])));
  }
  ImportedEGraph imported = import_egraph(from_json(to_json(exported)));
  CHECK(imported.egraph.num_nodes() == egraph.num_nodes() - 1);
  CHECK(imported.egraph.num_classes() == egraph.num_classes());

  // Without its only e-node the negation's class is gone, and with it the root's only e-node.
  egraph.blacklist(egraph.nodes_of(neg_class)[0]);
  exported = sample.exported();
  CHECK(exported.nodes.size() == egraph.num_nodes() - 3);
  for (const SerializedNode& n : exported.nodes) CHECK(n.op != "neg");
  const std::string root = std::to_string(egraph.find(sample.root));
  CHECK(exported.root_eclasses == std::vector<std::string>{root});
  CHECK(error_of([&] { import_egraph(exported); }) ==
        "error: root e-class '" + root + "' has no e-nodes");
  exported.root_eclasses.clear();
  imported = import_egraph(exported);
  CHECK(imported.egraph.num_classes() == egraph.num_classes() - 2);
}

TEST_CASE("cyclic e-graphs round trip, and classes built only by cycles get a placeholder") {
  // a = g(f(a)): the class of a has a leaf, so no placeholder is needed.
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kNum, 7);
  const Id fa = egraph.add(kNeg, 0, {a});
  egraph.merge(a, egraph.add(kNeg, 0, {fa}));
  egraph.rebuild();
  const Id roots[] = {a};
  const SerializedEGraph exported = export_egraph(
      egraph, roots, [&](Id n) { return op_name(egraph, n); }, [](Id) { return 2.0; });
  const ImportedEGraph imported = import_egraph(from_json(to_json(exported, -1)));
  CHECK(imported.placeholders == 0);
  CHECK(imported.egraph.num_nodes() == 3);
  CHECK(imported.egraph.num_classes() == 2);

  // A class whose only e-node points at itself (an infinite term).
  const ImportedEGraph loop = import_egraph(from_json(R"({"nodes": {
      "x": {"op": "f", "children": ["x"], "eclass": "c"},
      "y": {"op": "g", "children": ["x"], "eclass": "d"}}, "root_eclasses": ["d"]})"));
  CHECK(loop.placeholders == 1);
  CHECK(loop.egraph.num_classes() == 2);
  CHECK(loop.egraph.num_nodes() == 3);
  CHECK(loop.egraph.num_blacklisted() == 1);
  CHECK(loop.op_names.back() == "<placeholder>");
  for (Id n = 0; n < loop.egraph.num_ids(); ++n) {
    if (loop.node_names[n].empty()) {
      CHECK(loop.egraph.blacklisted(n));
      CHECK(loop.costs[n] == std::numeric_limits<double>::infinity());
    }
  }
}

TEST_CASE("a hand-written extraction-gym file imports") {
  // Children may name any e-node of the child class; costs default to 1, children to [].
  const std::string text = R"({
  "nodes": {
    "mul-1": {"op": "*", "children": ["x", "two"], "eclass": "root", "cost": 4},
    "shl-1": {"op": "<<", "children": ["x-again", "one"], "eclass": "root", "cost": 1.5},
    "x": {"op": "x", "children": [], "eclass": "vx", "cost": 0},
    "x-again": {"op": "id", "children": ["x"], "eclass": "vx", "cost": 0.5},
    "two": {"op": "2", "eclass": "c2"},
    "one": {"op": "1", "children": [], "eclass": "c1", "subsumed": false}
  },
  "root_eclasses": ["root"],
  "class_data": {"root": {"type": "Math"}}
})";
  const SerializedEGraph read = from_json(text, "gym.json");
  CHECK(read.nodes.size() == 6);
  CHECK(read.nodes[0].id == "mul-1");  // document order
  CHECK(read.nodes[4].cost == 1.0);
  CHECK(read.nodes[4].children.empty());
  CHECK(read.class_data == R"({"root":{"type":"Math"}})");
  const ImportedEGraph imported = import_egraph(read);
  const EGraph<NoAnalysis>& g = imported.egraph;
  CHECK(g.num_classes() == 4);
  CHECK(g.num_nodes() == 6);
  CHECK(imported.op_names == std::vector<std::string>{"*", "<<", "x", "id", "2", "1"});
  REQUIRE(imported.roots.size() == 1);
  CHECK(g.nodes_of(imported.roots[0]).size() == 2);
  std::map<std::string, double> costs;
  for (Id n = 0; n < g.num_ids(); ++n) costs[imported.node_names[n]] = imported.costs[n];
  CHECK(costs ==
        std::map<std::string, double>{
            {"mul-1", 4}, {"shl-1", 1.5}, {"x", 0}, {"x-again", 0.5}, {"two", 1}, {"one", 1}});
  // "x-again" and "x" are one class: the first child of both root e-nodes.
  const auto x = std::find(imported.node_names.begin(), imported.node_names.end(), "x");
  REQUIRE(x != imported.node_names.end());
  for (Id n : g.nodes_of(imported.roots[0]))
    CHECK(g.find(g.node(n).children[0]) ==
          g.find(static_cast<Id>(x - imported.node_names.begin())));
  // The class data survives a round trip.
  CHECK(from_json(to_json(read)).class_data == read.class_data);
}

TEST_CASE("duplicate e-nodes merge their classes; subsumed e-nodes are blacklisted") {
  const ImportedEGraph imported = import_egraph(from_json(R"({"nodes": {
      "a": {"op": "a", "eclass": "A"},
      "f1": {"op": "f", "children": ["a"], "eclass": "F1", "cost": 3},
      "f2": {"op": "f", "children": ["a"], "eclass": "F2", "cost": 5},
      "s": {"op": "s", "children": ["f2"], "eclass": "F1", "subsumed": true}}})"));
  CHECK(imported.duplicates == 1);
  CHECK(imported.egraph.num_classes() == 2);  // F1 and F2 are one
  CHECK(imported.egraph.num_nodes() == 3);
  CHECK(imported.egraph.num_blacklisted() == 1);
  for (Id n = 0; n < imported.egraph.num_ids(); ++n) {
    CHECK(imported.egraph.blacklisted(n) == (imported.node_names[n] == "s"));
    if (imported.node_names[n] == "f1") CHECK(imported.costs[n] == 3);
  }
}

TEST_CASE("a long chain round trips in document order") {
  // Deep and large: the import's worklist and the reader's passes are linear and iterative.
  EGraph<NoAnalysis> egraph;
  Id top = egraph.add(kNum, 0);
  constexpr int kLength = 10'000;
  for (int i = 0; i < kLength; ++i) top = egraph.add(kNeg, 0, {top});
  egraph.rebuild();
  const Id roots[] = {top};
  const SerializedEGraph exported = export_egraph(
      egraph, roots, [&](Id n) { return op_name(egraph, n); }, [](Id) { return 1.0; });
  const std::string text = to_json(exported, -1);
  const SerializedEGraph read = from_json(text);
  CHECK(read.nodes.front().id == "0");
  CHECK(read.nodes.back().id == std::to_string(kLength));
  const ImportedEGraph imported = import_egraph(read);
  CHECK(imported.egraph.num_nodes() == kLength + 1);
  CHECK(imported.egraph.num_classes() == kLength + 1);
  CHECK(imported.node_names[kLength] == std::to_string(kLength));  // ids in document order
}

TEST_CASE("files are saved and loaded") {
  const Sample sample;
  const auto path = std::filesystem::temp_directory_path() / "mctsat_serialize_test.json";
  save_serialized(path.string(), sample.exported());
  const SerializedEGraph loaded = load_serialized(path.string());
  std::filesystem::remove(path);
  CHECK(loaded.nodes.size() == sample.egraph.num_nodes());
  CHECK(error_of([] {
          load_serialized("/nonexistent/mctsat.json");
        }).find("/nonexistent/mctsat.json") != std::string::npos);
}

TEST_CASE("malformed input gives located errors") {
  // Syntax errors come at file:line:col.
  CHECK(read_error("{\n  \"nodes\": {,\n}").find("in.json:2:") == 0);
  CHECK(read_error("").find("in.json:1:1: error: invalid JSON") == 0);

  CHECK(read_error("[]") == "in.json: error: an egraph-serialize document must be a JSON object");
  CHECK(read_error("{}") == "in.json: error: missing \"nodes\" (an object of e-nodes by id)");
  CHECK(read_error("{\"nodes\": []}") ==
        "in.json:1:2: error: \"nodes\" must be an object of e-nodes by id");

  // Semantic errors name the e-node and point at its entry.
  const std::string head = "{\"nodes\": {\n  \"n1\": ";
  auto node_error = [&](const std::string& body) { return read_error(head + body + "}}"); };
  const std::string at = "in.json:2:3 (node 'n1'): error: ";
  CHECK(node_error("3") == at + "an e-node must be a JSON object");
  CHECK(node_error("{\"eclass\": \"c\"}") == at + "the e-node has no \"op\" string");
  CHECK(node_error("{\"op\": 5, \"eclass\": \"c\"}") == at + "the e-node has no \"op\" string");
  CHECK(node_error("{\"op\": \"f\"}") == at + "the e-node has no \"eclass\" string");
  CHECK(node_error("{\"op\": \"f\", \"eclass\": 3}") == at + "the e-node has no \"eclass\" string");
  CHECK(node_error("{\"op\": \"f\", \"eclass\": \"c\", \"children\": \"n1\"}") ==
        at + "\"children\" must be an array of e-node ids");
  CHECK(node_error("{\"op\": \"f\", \"eclass\": \"c\", \"children\": [1]}") ==
        at + "\"children\" must hold e-node id strings");
  CHECK(node_error("{\"op\": \"f\", \"eclass\": \"c\", \"cost\": \"high\"}") ==
        at + "\"cost\" must be a number");
  CHECK(node_error("{\"op\": \"f\", \"eclass\": \"c\", \"subsumed\": 1}") ==
        at + "\"subsumed\" must be true or false");
  CHECK(node_error("{\"op\": \"f\", \"eclass\": \"c\", \"children\": [\"n2\"]}") ==
        at + "child 'n2' is not an e-node");

  // The root list and the class data.
  const std::string ok = "{\"nodes\": {\"n1\": {\"op\": \"f\", \"eclass\": \"c\"}}, ";
  const std::string after_ok = "in.json:1:" + std::to_string(ok.size() + 1) + ": error: ";
  CHECK(read_error(ok + "\"root_eclasses\": \"c\"}") ==
        after_ok + "\"root_eclasses\" must be an array of e-class ids");
  CHECK(read_error(ok + "\"root_eclasses\": [1]}") ==
        after_ok + "\"root_eclasses\" must hold e-class id strings");
  CHECK(read_error(ok + "\"root_eclasses\": [\"d\"]}") ==
        after_ok + "root e-class 'd' has no e-nodes");
  CHECK(read_error(ok + "\"class_data\": []}") == after_ok + "\"class_data\" must be an object");
  CHECK(read_error(ok + "\"root_eclasses\": [\"c\"]}").empty());

  // An id given twice in the file.
  CHECK(read_error("{\"nodes\": {\n \"a\": {\"op\": \"f\", \"eclass\": \"c\"},\n"
                   " \"a\": {\"op\": \"g\", \"eclass\": \"c\"}}}") ==
        "in.json:2:2 (node 'a'): error: two e-nodes have this id");

  // Hand-built structures are checked on import as well.
  SerializedEGraph twice;
  twice.nodes.push_back({"n", "f", {}, "c", 1.0, false});
  twice.nodes.push_back({"n", "g", {}, "c", 1.0, false});
  CHECK(error_of([&] { import_egraph(twice); }) == "node 'n': error: two e-nodes have this id");
  SerializedEGraph dangling;
  dangling.nodes.push_back({"n", "f", {"m"}, "c", 1.0, false});
  CHECK(error_of([&] { import_egraph(dangling); }) ==
        "node 'n': error: child 'm' is not an e-node");
  SerializedEGraph infinite;
  infinite.nodes.push_back({"n", "f", {}, "c", std::numeric_limits<double>::infinity(), false});
  CHECK(error_of([&] { to_json(infinite); }) ==
        "node 'n': error: the cost inf is not a finite number (a cost is 0 or from 1e-10 to 1e+09 "
        "ms)");
  // A denormal cost would make the ILP's scale infinite; 1e308 would make sums infinite.
  for (const double cost : {5e-324, 1e308}) {
    SerializedEGraph bad;
    bad.nodes.push_back({"n", "f", {}, "c", cost, false});
    CAPTURE(cost);
    CHECK(error_of([&] { import_egraph(bad); }).find("node 'n': error: the cost ") == 0);
  }
  SerializedEGraph bad_data;
  bad_data.class_data = "{";
  CHECK(error_of([&] { to_json(bad_data); }) == "error: \"class_data\" is not valid JSON text");
}

}  // namespace serialize_test
