// The record of one optimization, typed: what was optimized (model, operators, cost model), with
// which options, and the result, plus the optional numeric check and measured speedup records of
// the layers that make them. `mctsat optimize` prints it for people (cli/) and as JSON; the study
// library (`mctsat bench`) stores the JSON per run, so that both speak the same format.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/optimizer.hpp"

namespace mctsat::search {

struct OptimizeReport {
  std::string model;          // as the user named it
  std::size_t operators = 0;  // of the input graph
  std::string cost_model;     // the cost model's name
  OptimizeOptions options;
  OptimizeResult result;
  std::optional<nlohmann::json> check;     // --check: the equivalence check's record
  std::optional<nlohmann::json> measured;  // --measure: the measured speedup's record
  std::optional<nlohmann::json> guard;     // -o .onnx: the never-slower guard's verdict
  // -o .onnx for ONNX Runtime: what the lowering wrote, {"attention": n (blocks as its contrib
  // Attention), "flat_sums": n (residual sums before a layer norm on [B*S, H] views)}
  std::optional<nlohmann::json> lowering;
  // -o: which graph was written, "optimized", or "original" when --measure did not find the
  // optimized one faster.
  std::optional<std::string> written_graph;
  std::vector<std::string> warnings;  // what the user should know about the written graph
  // Rule -> its operators at a glance (dsl/rule_sketch.hpp), for the rules of result.rules_used;
  // a rule without one is written without.
  std::map<std::string, std::string> rule_sketches;

  // Keys: model, operators, cost_model, strategy, extract, final_extract, options (every
  // registry option by name), original_cost_ms, optimized_cost_ms, speedup_percent,
  // exploration_seconds, extraction_seconds, egraph {nodes, classes}, iterations, iteration_name
  // (the strategy's unit), stop_reason, rules_used [{rule, count, sketch}], extraction {status,
  // dag_cost_ms, gap, seconds, detail}, kept_original, kept_fallback (the result is the strategy's
  // fallback graph: mcts's cheapest pass graph, named by "fallback": tree, taso or saturation),
  // optimized_operators, check, measured, guard, lowering, written_graph and warnings when
  // present, and the strategy's record's keys (mcts: "mcts", "fallback", "eqsat_pass", and "taso"
  // with TASO's pass; taso: "taso"; search_records.hpp and eqsat_pass.hpp list theirs). mcts's
  // rules_used: its committed steps and TASO's graph's rewrites (mcts_with_taso.hpp).
  nlohmann::json to_json() const;
};

}  // namespace mctsat::search
