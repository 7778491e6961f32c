// The search-strategy interface. A Strategy takes the input graph and grows the e-graph the final
// extraction reads (eqsat: TENSAT's saturation; mcts: the PACT'24 paper's tree search; greedy:
// the best single rule at a time; taso: TASO's backtracking over concrete graphs, whose best graph
// becomes a single-graph e-graph), within the limits every strategy honours (SearchLimits), and
// returns one typed result with one StopReason. Strategies are named in one table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/lowering.hpp"
#include "search/mcts.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "search/stop_reason.hpp"
#include "search/taso.hpp"
#include "support/enum_names.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

enum class StrategyKind { kEqsat, kMcts, kGreedy, kTaso };
inline constexpr EnumNames<StrategyKind, 4> kStrategyNames{{{StrategyKind::kEqsat, "eqsat"},
                                                            {StrategyKind::kMcts, "mcts"},
                                                            {StrategyKind::kGreedy, "greedy"},
                                                            {StrategyKind::kTaso, "taso"}}};

// What a strategy reads besides its own options.
struct SearchContext {
  const dsl::RuleSet& rules;
  const tensor::CostModel& model;
  StateCost reward;  // mcts, greedy: the reward extractor's cost of a state
  SearchLimits limits;
  ProgressCallback progress;  // after each step, iteration or explored graph (may be empty)
};

struct StrategyResult {
  tensor::TensorEGraph state;  // the e-graph the final extraction reads
  std::size_t iterations = 0;  // eqsat iterations, mcts/greedy steps, taso graphs explored
  StopReason stop = StopReason::kStopped;
  std::vector<std::pair<std::string, std::size_t>> rules_used;  // rule -> changes, by name
  std::optional<MctsResult> mcts;  // mcts: the search's record (its state moved out)
  std::optional<TasoResult> taso;  // taso, mcts with a taso graph: TASO's record (graph moved out)
  // A graph the optimizer returns when the final extraction is not cheaper (mcts with a taso
  // graph: TASO's best graph, when it is cheaper than the input).
  std::optional<tensor::Graph> fallback;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual StrategyKind kind() const = 0;
  // Deterministic for the options' seed, the inputs and the thread count.
  virtual StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const = 0;
};

}  // namespace mctsat::search
