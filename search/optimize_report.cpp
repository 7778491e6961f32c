// Building the JSON record of an optimization.
#include "search/optimize_report.hpp"

#include <cmath>

#include "extract/extractor.hpp"
#include "tensor/graph_stats.hpp"

namespace mctsat::search {

nlohmann::json optimize_report(const OptimizeResult& r, const OptimizeOptions& options) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [name, count] : r.rules_used)
    rules.push_back({{"rule", name}, {"count", count}});
  nlohmann::json report = {
      {"strategy", options.strategy},
      {"extract", options.extract},
      {"final_extract", options.final_extract},
      {"original_cost_ms", r.original_cost},
      {"optimized_cost_ms", r.optimized_cost},
      {"speedup_percent", r.speedup_percent()},
      {"exploration_seconds", r.exploration_seconds},
      {"extraction_seconds", r.extraction_seconds},
      {"egraph", {{"nodes", r.nodes}, {"classes", r.classes}}},
      {"iterations", r.iterations},
      {"stop_reason", r.stop_reason},
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
  if (options.strategy == "mcts") {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& step : r.mcts.steps)
      steps.push_back({{"rule", step.rule},
                       {"mean_value", step.mean_value},
                       {"cost_ms", step.cost},
                       {"nodes", step.nodes}});
    report["mcts"] = {
        {"seed", options.mcts.seed},
        {"simulations", r.mcts.simulations},
        {"reward_extractions", r.mcts.evaluations},
        {"memo_hits", r.mcts.memo_hits},
        {"threads", options.mcts.threads},
        {"batch", options.mcts.batch == 0 ? options.mcts.threads : options.mcts.batch},
        {"stop_without_gain", options.mcts.stop_without_gain},
        {"tie_break", tie_break_name(options.mcts.tie_break)},
        {"cpu_seconds", r.mcts.cpu_seconds},
        {"simulation_cpu_seconds", r.mcts.simulation_cpu_seconds},
        {"critical_cpu_seconds", r.mcts.critical_cpu_seconds},
        {"steps", steps}};
    if (options.taso_graph != "none")
      report["taso_graph"] = {
          {"mode", options.taso_graph},  {"budget", options.taso.budget},
          {"explored", r.taso.explored}, {"best_explored", r.taso.best_explored},
          {"cost_ms", r.taso.cost},      {"stop_reason", r.taso.stop_reason},
          {"kept", r.kept_taso}};
  }
  if (options.strategy == "taso")
    report["taso"] = {{"alpha", options.taso.alpha},     {"budget", options.taso.budget},
                      {"explored", r.taso.explored},     {"best_explored", r.taso.best_explored},
                      {"candidates", r.taso.candidates}, {"queued", r.taso.queued},
                      {"cyclic", r.taso.cyclic},         {"threads", options.taso.threads}};
  return report;
}

}  // namespace mctsat::search
