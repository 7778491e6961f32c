// The memory budget of computations on concrete tensors (the reference interpreter, random inputs,
// the oneDNN executor, measured costs): before allocating a graph's tensors their declared sizes
// are added up and compared with the memory this process may use, so that a model declaring a
// 10^12-element tensor is a clear error at that tensor instead of std::bad_alloc or the OOM killer.
#pragma once

#include <cstdint>
#include <string_view>

#include "support/error.hpp"
#include "tensor/graph.hpp"

namespace mctsat::tensor {

// The bytes this process may allocate: the machine's physical memory, or less when an address-
// space or data-segment limit (setrlimit; the study library sets one per run) is lower.
std::uint64_t memory_budget_bytes();

// Throws Error when `bytes` (saturating: pass UINT64_MAX for "more than can be counted") exceed
// the budget; `what` says what needs them ("the reference interpreter's tensors") and `where`
// the largest tensor involved.
void check_memory_budget(std::uint64_t bytes, std::string_view what, const SourceLocation& where);

// Checks that the output tensors of `graph`'s nodes (all of them; inputs only when inputs_only),
// at bytes_per_element each, fit in the budget; the error names the largest tensor's node.
void check_graph_fits_in_memory(const Graph& graph, std::uint64_t bytes_per_element,
                                std::string_view what, bool inputs_only = false);

}  // namespace mctsat::tensor
