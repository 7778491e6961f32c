// The cost a reward extractor assigns to an e-graph state (lower is better): what the planners
// (mcts, greedy) compare states by. The optimizer makes it from the reward extractor and the cost
// model (SearchContext::reward); tests may pass any function. Called concurrently when a search
// runs on several threads, so it must be safe to call from several threads at once.
#pragma once

#include <functional>

#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

using StateCost = std::function<double(const tensor::TensorEGraph&)>;

}  // namespace mctsat::search
