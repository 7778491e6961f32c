// E-graphs in the egraph-serialize JSON format of the extraction-gym benchmarks
// (github.com/egraphs-good/egraph-serialize):
//
//   {"nodes": {"<node id>": {"op": "<name>", "children": ["<node id>", ...], "eclass": "<class
//   id>",
//                           "cost": <number>}, ...},
//    "root_eclasses": ["<class id>", ...], "class_data": {...}}
//
// A child names any e-node of the child e-class. "children" defaults to [], "cost" to 1,
// "root_eclasses" to []; "class_data" is optional and kept as it is. `SerializedEGraph` is the
// plain form of such a document; `export_egraph` builds it from an EGraph, `import_egraph` turns
// it into an EGraph<NoAnalysis> (operators interned by name, per-e-node costs beside it) so that
// external e-graphs can be extracted.
#pragma once

#include <algorithm>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/analysis.hpp"
#include "egraph/egraph.hpp"

namespace mctsat::egraph {

struct SerializedNode {
  std::string id;
  std::string op;
  std::vector<std::string> children;  // e-node ids (any e-node of the child e-class)
  std::string eclass;
  double cost = 1.0;
  bool subsumed = false;  // egglog's "subsumed" flag: never to be extracted
};

struct SerializedEGraph {
  std::vector<SerializedNode> nodes;  // in document order
  std::vector<std::string> root_eclasses;
  std::string class_data;  // the optional "class_data" object as JSON text; empty when absent
};

// The JSON text of a serialized e-graph (`indent` < 0: compact). Throws Error for a non-finite
// cost, which JSON cannot hold.
std::string to_json(const SerializedEGraph& graph, int indent = 1);
// Reads JSON text (`file` names it in errors). Throws Error at file:line:col for syntax errors and
// naming the e-node for semantic ones (a missing "op", a child that is no e-node, ...).
SerializedEGraph from_json(std::string_view text, const std::string& file = "");
SerializedEGraph load_serialized(const std::string& path);
void save_serialized(const std::string& path, const SerializedEGraph& graph);

// Checks a serialized e-graph: unique e-node ids, finite costs >= 0, children that are e-nodes,
// root e-classes that hold an e-node. Throws Error naming the e-node or e-class.
void validate(const SerializedEGraph& graph, const std::string& file = "");

// The live, non-blacklisted e-nodes of a clean e-graph, by id, with `op_name(node)` (a string)
// and `cost(node)` (a double). A child refers to the smallest exported e-node of its class;
// e-nodes with a child class that has no exported e-node left are left out as well. Node ids are
// e-node ids and class ids canonical class ids, in decimal.
template <class Analysis, class OpName, class Cost>
SerializedEGraph export_egraph(const EGraph<Analysis>& egraph, std::span<const Id> roots,
                               OpName&& op_name, Cost&& cost) {
  MCTSAT_ASSERT(egraph.clean());
  const std::size_t ids = egraph.num_ids();
  std::vector<std::uint8_t> exported(ids, 0);
  std::vector<std::uint32_t> count(ids, 0);  // exported e-nodes per class
  for (Id node = 0; node < ids; ++node) {
    if (!egraph.live(node) || egraph.blacklisted(node)) continue;
    exported[node] = 1;
    ++count[egraph.find(node)];
  }
  // Classes left without an exported e-node take their parents out with them.
  std::vector<Id> emptied;
  for (Id eclass : egraph.classes())
    if (count[eclass] == 0) emptied.push_back(eclass);
  while (!emptied.empty()) {
    const Id eclass = emptied.back();
    emptied.pop_back();
    egraph.for_each_parent(eclass, [&](Id parent) {
      if (!exported[parent]) return;
      exported[parent] = 0;
      if (--count[egraph.find(parent)] == 0) emptied.push_back(egraph.find(parent));
    });
  }
  std::vector<Id> representative(ids, kNoId);
  for (Id node = 0; node < ids; ++node) {
    Id& rep = representative[egraph.find(node)];
    if (exported[node] && rep == kNoId) rep = node;
  }

  SerializedEGraph out;
  for (Id node = 0; node < ids; ++node) {
    if (!exported[node]) continue;
    SerializedNode& n = out.nodes.emplace_back();
    n.id = std::to_string(node);
    n.op = op_name(node);
    for (Id child : egraph.node(node).children)
      n.children.push_back(std::to_string(representative[egraph.find(child)]));
    n.eclass = std::to_string(egraph.find(node));
    n.cost = static_cast<double>(cost(node));
  }
  for (Id root : roots) {
    std::string name = std::to_string(egraph.find(root));
    if (std::find(out.root_eclasses.begin(), out.root_eclasses.end(), name) ==
        out.root_eclasses.end())
      out.root_eclasses.push_back(std::move(name));
  }
  return out;
}

// An imported e-graph: e-nodes of equal "eclass" merged (and then congruence closed), operators
// interned in order of first appearance. Serialized e-nodes equal to an earlier one (same op and
// child classes) add nothing and are counted as duplicates. A class that no e-node can be built
// for before its own descendants (every e-node of it lies on a cycle) gets a blacklisted
// placeholder leaf e-node (operator "<placeholder>", infinite cost) to stand for it; subsumed
// e-nodes are blacklisted.
struct ImportedEGraph {
  EGraph<NoAnalysis> egraph;
  std::vector<std::string> op_names;    // by operator code
  std::vector<double> costs;            // by e-node id
  std::vector<std::string> node_names;  // by e-node id: the serialized id ("" for placeholders)
  std::vector<Id> roots;                // the root classes, canonical
  std::size_t duplicates = 0;
  std::size_t placeholders = 0;
};

// Validates and imports; throws Error as `validate` does.
ImportedEGraph import_egraph(const SerializedEGraph& graph);

}  // namespace mctsat::egraph
