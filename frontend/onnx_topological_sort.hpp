// Topological sorting of ONNX graphs. ONNX requires a graph's nodes in topological order and its
// checker rejects other files, but ONNX Runtime runs them, and some tools write them (nodes
// appended after the nodes that read them). The importer sorts every model first.
// Internal to frontend/.
#pragma once

#include <onnx/onnx_pb.h>

namespace mctsat::frontend {

// Reorders `graph`'s nodes (and, recursively, its subgraphs' nodes) so that every node comes after
// the nodes producing what it reads, its subgraphs' outer-scope reads included. Stable: a sorted
// graph is left as it is, and otherwise each node keeps its place relative to the others as far as
// the order allows (among the nodes ready to come next, the first in the file comes first). Nodes
// on a cycle, and what depends on them, keep their relative order at the end (the checker then
// reports them). Reads of names no node of the graph produces (inputs, initializers, outer names,
// undefined names) impose no order. O(N log N + E) for N nodes reading E names.
void sort_topologically(onnx::GraphProto& graph);

}  // namespace mctsat::frontend
