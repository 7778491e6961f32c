// A fingerprint of a concrete graph for TASO's "seen" set: a hash of what the graph computes as
// written, independent of node ids and of the names of operator nodes (which rewriting invents).
// Each node hashes its operator, attributes and input fingerprints; inputs, weights and opaque
// operators hash by name. Argument order counts, so (a + b) and (b + a) differ, as in TASO.
#pragma once

#include <cstdint>

#include "tensor/graph.hpp"

namespace mctsat::search {

// The graph must be validated (acyclic).
std::uint64_t graph_fingerprint(const tensor::Graph& graph);

}  // namespace mctsat::search
