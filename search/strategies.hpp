// The four strategies behind the Strategy interface, made from the optimization's options.
#pragma once

#include <memory>

#include "search/optimize_options.hpp"
#include "search/strategy.hpp"

namespace mctsat::search {

// The strategy options.strategy names, reading its part of `options` (copied).
std::unique_ptr<Strategy> make_strategy(const OptimizeOptions& options);

}  // namespace mctsat::search
