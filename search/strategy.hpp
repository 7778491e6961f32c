// The search-strategy interface. A Strategy takes the input graph and grows the e-graph the final
// extraction reads, within the limits every strategy honours (SearchLimits), and returns one
// result with one StopReason and its own JSON record. A strategy describes itself (StrategyTraits:
// its name, what one iteration is, whether it reads the reward, builds an e-graph, depends on the
// seed), so that the layers above ask it instead of switching over strategies. The built-in ones
// (strategies.hpp): eqsat (TENSAT's saturation), mcts (the PACT'24 paper's tree search, with
// TASO's pass by default: mcts_with_taso.hpp), greedy (the best single rule at a time) and taso
// (TASO's backtracking over concrete graphs, whose best graph becomes a single-graph e-graph).
// Another strategy implements this interface and runs through optimize(..., strategy)
// (optimizer.hpp); docs/extending.md shows one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "dsl/lowering.hpp"
#include "search/progress.hpp"
#include "search/search_limits.hpp"
#include "search/state_cost.hpp"
#include "search/stop_reason.hpp"
#include "support/enum_names.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph.hpp"

namespace mctsat::search {

// The built-in strategies, as --strategy and the option registry name them.
enum class StrategyKind { kEqsat, kMcts, kGreedy, kTaso };
inline constexpr EnumNames<StrategyKind, 4> kStrategyNames{{{StrategyKind::kEqsat, "eqsat"},
                                                            {StrategyKind::kMcts, "mcts"},
                                                            {StrategyKind::kGreedy, "greedy"},
                                                            {StrategyKind::kTaso, "taso"}}};

// What a strategy is like, for the layers that report, check and plan its runs. The names are
// static strings (they outlive every result that copies the traits).
struct StrategyTraits {
  std::string_view name;       // in reports ("strategy") and progress lines
  std::string_view iteration;  // one unit of StrategyResult::iterations: "iteration", "step", ...
  bool uses_reward = false;    // reads SearchContext::reward (the reward extractor's cost)
  bool builds_egraph = true;   // grows an e-graph of many graphs (false: one concrete graph)
  bool seeded = false;         // its result depends on the seed (studies run it once per seed)
  // rules_used counts the rules it chose (committed steps, a graph's rewrites); false: every
  // application of every rule (saturation applies rules where the others commit them).
  bool commits_rules = true;
  bool step_hooks = false;  // calls the MCTS step hooks (MctsOptions::on_step, ::reward)
};

// What a strategy reads besides its own options.
struct SearchContext {
  const dsl::RuleSet& rules;
  const tensor::CostModel& model;
  StateCost reward;  // the reward extractor's cost of a state (for strategies that use it)
  SearchLimits limits;
  ProgressCallback progress;  // after each step, iteration or explored graph (may be empty)
};

struct StrategyResult {
  tensor::TensorEGraph state;  // the e-graph the final extraction reads
  std::size_t iterations = 0;  // in the strategy's unit (StrategyTraits::iteration)
  StopReason stop = StopReason::kStopped;
  std::vector<std::pair<std::string, std::size_t>> rules_used;  // rule -> changes, by name
  // The strategy's own record, an object whose keys join the report's (optimize_report.hpp): mcts
  // writes "mcts" (and "taso" for its TASO pass), taso writes "taso"; empty for none.
  nlohmann::json record = nlohmann::json::object();
  // A graph the optimizer returns when the final extraction is not cheaper (mcts: the cheapest of
  // its passes' graphs, the tree search's, TASO's and the saturation pass's, when it is cheaper
  // than the input; its record's "fallback" names the pass).
  std::optional<tensor::Graph> fallback;
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual const StrategyTraits& traits() const = 0;
  // Deterministic for the options' seed, the inputs and the thread count.
  virtual StrategyResult run(const tensor::Graph& graph, const SearchContext& context) const = 0;
};

}  // namespace mctsat::search
