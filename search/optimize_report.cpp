// Serializing the record of an optimization.
#include "search/optimize_report.hpp"

#include <cmath>

#include "extract/extractor.hpp"
#include "search/option_registry.hpp"
#include "tensor/graph_stats.hpp"

namespace mctsat::search {

std::string_view iteration_name(StrategyKind strategy) {
  switch (strategy) {
    case StrategyKind::kEqsat:
      return "iteration";
    case StrategyKind::kMcts:
    case StrategyKind::kGreedy:
      return "step";
    case StrategyKind::kTaso:
      return "graph";
  }
  return "iteration";
}

nlohmann::json OptimizeReport::to_json() const {
  const OptimizeResult& r = result;
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [name, count] : r.rules_used)
    rules.push_back({{"rule", name}, {"count", count}});
  nlohmann::json report = {
      {"model", model},
      {"operators", operators},
      {"cost_model", cost_model},
      {"strategy", name_of(kStrategyNames, options.strategy)},
      {"extract", name_of(extract::kExtractorNames, options.extract)},
      {"final_extract", name_of(extract::kExtractorNames, options.final_extract)},
      {"options", options_json(options)},
      {"original_cost_ms", r.original_cost},
      {"optimized_cost_ms", r.optimized_cost},
      {"speedup_percent", r.speedup_percent()},
      {"exploration_seconds", r.exploration_seconds},
      {"extraction_seconds", r.extraction_seconds},
      {"egraph", {{"nodes", r.nodes}, {"classes", r.classes}}},
      {"iterations", r.iterations},
      {"iteration_name", iteration_name(options.strategy)},
      {"stop_reason", name_of(kStopReasonNames, r.stop)},
      {"rules_used", rules},
      {"extraction",
       {{"status", extract::status_name(r.extraction.status)},
        {"dag_cost_ms", r.extraction.dag_cost},
        {"gap", std::isnan(r.extraction.gap) ? nlohmann::json() : nlohmann::json(r.extraction.gap)},
        {"seconds", r.extraction.seconds},
        {"detail", r.extraction.detail}}},
      {"kept_original", r.kept_original},
      {"optimized_operators", tensor::graph_stats(r.graph).operators},
  };
  if (r.mcts) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : r.mcts->steps)
      steps.push_back({{"rule", step.rule},
                       {"mean_value", step.mean_value},
                       {"cost_ms", step.cost},
                       {"nodes", step.nodes}});
    nlohmann::json scheduled = nlohmann::json::object();
    for (const auto& [threads, seconds] : r.mcts->scheduled_cpu_seconds)
      scheduled[std::to_string(threads)] = seconds;
    report["mcts"] = {
        {"seed", options.mcts.seed},
        {"simulations", r.mcts->simulations},
        {"reward_extractions", r.mcts->evaluations},
        {"memo_hits", r.mcts->memo_hits},
        {"threads", options.limits.threads},
        {"batch", options.mcts.batch == 0 ? options.limits.threads : options.mcts.batch},
        {"stop_without_gain", options.mcts.stop_without_gain},
        {"state_steps", r.mcts->state_steps},
        {"tie_break", name_of(kTieBreakNames, options.mcts.tie_break)},
        {"cpu_seconds", r.mcts->cpu_seconds},
        {"simulation_cpu_seconds", r.mcts->simulation_cpu_seconds},
        {"critical_cpu_seconds", r.mcts->critical_cpu_seconds},
        {"scheduled_cpu_seconds", scheduled},
        {"steps", steps}};
  }
  if (r.taso)
    report["taso"] = {{"alpha", options.taso.alpha},
                      {"budget", options.taso.budget},
                      {"stop_reason", name_of(kStopReasonNames, r.taso->stop)},
                      {"explored", r.taso->explored},
                      {"best_explored", r.taso->best_explored},
                      {"longest_wait", r.taso->longest_wait},
                      {"cost_ms", r.taso->cost},
                      {"candidates", r.taso->candidates},
                      {"queued", r.taso->queued},
                      {"cyclic", r.taso->cyclic},
                      {"cpu_seconds", r.taso->cpu_seconds},
                      {"parallel_cpu_seconds", r.taso->parallel_cpu_seconds},
                      {"threads", options.limits.threads}};
  report["kept_fallback"] = r.kept_fallback;
  if (check) report["check"] = *check;
  if (measured) report["measured"] = *measured;
  if (written_graph) report["written_graph"] = *written_graph;
  return report;
}

}  // namespace mctsat::search
