// Conversions between tensor graphs and tensor e-graphs (encoding: tensor_language.hpp).
//
//   to_egraph(graph)              every node becomes an e-node (attributes as literal classes,
//                                 multi-output nodes read through proj), one root per graph output
//   add_equivalent_graph(e, g)    an equivalent graph's nodes added, its outputs merged with roots
//   build_graph(egraph, choice)   a chosen e-node per needed class -> a validated Graph
//   source_selection(egraph)      the choice of the e-nodes that came from the source graph
//
// Conversion hash-conses: structurally identical nodes of the source graph (same operator,
// attributes and inputs) become one e-node, so building back yields one node for them. Inputs,
// weights and opaque operators are never merged this way (each has its own table index).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "tensor/graph.hpp"
#include "tensor/tensor_analysis.hpp"

namespace mctsat::tensor {

using TensorGraphEGraph = egraph::EGraph<TensorAnalysis>;

// What the e-graph remembers of its source graph (immutable, shared by copies).
struct GraphSource {
  std::vector<std::string> output_names;  // graph outputs, in order (one per root)
  // Per e-node id below source_nodes: the name of the graph node it came from ("" for literals,
  // proj e-nodes, and duplicates of an earlier node). Every id below it is an e-node of the source.
  std::vector<std::string> node_names;
  std::size_t source_nodes = 0;
};

// A tensor e-graph with its roots and tables. Copying it copies the e-graph (flat arrays) and
// shares the immutable tables.
struct TensorEGraph {
  TensorGraphEGraph egraph;
  std::vector<Id> roots;  // one per graph output, in order (canonicalize with egraph.find)
  std::shared_ptr<const GraphSource> source;

  const TensorTables& tables() const { return egraph.analysis().tables(); }
};

// The e-graph of a validated graph (node output types filled), rebuilt. Throws mctsat::Error at a
// node the e-graph cannot represent (a rank or an integer list longer than 8) and for a graph
// that was not validated.
TensorEGraph to_egraph(const Graph& graph);

// Adds a validated graph equivalent to the e-graph's (e.g. one a search derived from its source)
// and merges the class of each of its outputs with the root of the same position, so the e-graph
// also represents that graph. Its inputs, weights and opaque nodes are found by name in the
// e-graph's tables. Throws mctsat::Error at a leaf or opaque node the tables do not hold, and when
// the output counts differ. Rebuilds the e-graph. Equivalence is the caller's promise: merging
// the roots makes the e-graph treat the graphs as equal.
void add_equivalent_graph(TensorEGraph& state, const Graph& graph);

// A choice of one e-node per e-class: indexed by class id (size EGraph::num_ids()), kNoId where
// no e-node is chosen. Only tensor, tuple and data-less classes reachable from the roots need a
// choice; literal classes are read from their analysis data.
using Selection = std::vector<Id>;

// For every class, its live e-node of lowest id among those that came from the source graph
// (kNoId where none did). Children come before parents in the source, so this choice is acyclic;
// right after to_egraph it builds the source graph back.
Selection source_selection(const TensorEGraph& egraph);

// The graph of the chosen e-nodes, from the roots down: literal classes become attribute values,
// leaves come back with their names, types and values, opaque nodes unchanged, split + proj as
// one split node, graph outputs with their names. A class is built once however many e-nodes use
// it. Nodes from the source keep their names; others are named "<op>_<n>". Throws
// std::logic_error (an internal error: the selection is wrong) when a needed class has no chosen
// e-node, a chosen e-node is dead or not in its class, or the choice is cyclic. The e-graph must
// be clean.
Graph build_graph(const TensorEGraph& egraph, const Selection& selection);

}  // namespace mctsat::tensor
