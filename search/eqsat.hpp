// TENSAT's strategy: run every rule with the runner until saturation or a limit (TENSAT's
// experiment settings by default: node limit 50,000, 15 iterations, multi-pattern rules in the
// first iteration only, cycle filtering on), then extract.
#pragma once

#include <cstddef>

#include "dsl/lowering.hpp"
#include "egraph/runner.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

struct EqsatOptions {
  std::size_t node_limit = 50'000;
  std::size_t iterations = 15;
  std::size_t multi_iterations = 1;  // TENSAT's k_multi
  ProgressCallback progress;         // after each iteration (no cost: best_cost is NaN)
};

// Limits: seconds and memory_bytes (the e-graph's) stop the runner; threads match rules.
egraph::RunReport run_eqsat(tensor::TensorEGraph& state, const dsl::RuleSet& rules,
                            const EqsatOptions& options, const SearchLimits& limits);

}  // namespace mctsat::search
