// A fingerprint of the graph a selection extracts from a tensor e-graph, for TASO's "seen" set:
// a hash of what the graph computes as written, independent of e-class and e-node ids, so equal
// graphs in different e-graphs (or reached in different orders) hash alike. Each chosen e-node
// hashes its operator, payload and children's fingerprints; inputs, weights and opaque operators
// hash by name (their payloads are table indices). Argument order counts, so (a + b) and (b + a)
// differ, as in TASO. Also counts the graph's operators without building it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

struct GraphFingerprint {
  std::uint64_t hash = 0;
  std::size_t operators = 0;  // chosen tensor-operator e-nodes (no leaves, literals or proj)
};

// The selection must be acyclic and choose a node in every class needed from the roots (literal
// classes may be left out); the e-graph must be clean.
GraphFingerprint graph_fingerprint(const tensor::TensorEGraph& state,
                                   const tensor::Selection& selection);

// An e-node's own part of its fingerprint (operator, and payload or name), before its children's
// fingerprints are combined into it in order: hash = hash_combine(..(own, child_0).., child_k).
std::uint64_t own_fingerprint(const tensor::TensorTables& tables, egraph::OpCode op,
                              std::int64_t payload);
// Whether an e-node counts as one of GraphFingerprint::operators.
bool counts_as_operator(egraph::OpCode op);

}  // namespace mctsat::search
