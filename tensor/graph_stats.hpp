// Counts that describe a graph for people and reports: operators by kind, inputs, weights and
// parameters.
#pragma once

#include <cstdint>
#include <map>

#include "tensor/graph.hpp"

namespace mctsat::tensor {

struct GraphStats {
  std::size_t operators = 0;  // nodes that are neither inputs nor weights
  std::size_t inputs = 0;
  std::size_t weights = 0;
  std::int64_t parameters = 0;          // elements of all weights
  std::size_t weights_with_values = 0;  // weights whose values are known
  std::map<Op, std::size_t> by_op;      // operators per kind
};

GraphStats graph_stats(const Graph& graph);

}  // namespace mctsat::tensor
