// Serializing the record of an optimization.
#include "search/optimize_report.hpp"

#include <cmath>

#include "extract/extractor.hpp"
#include "search/option_registry.hpp"
#include "support/error.hpp"
#include "tensor/graph_stats.hpp"

namespace mctsat::search {

nlohmann::json OptimizeReport::to_json() const {
  const OptimizeResult& r = result;
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [name, count] : r.rules_used) {
    rules.push_back({{"rule", name}, {"count", count}});
    if (const auto it = rule_sketches.find(name); it != rule_sketches.end())
      rules.back()["sketch"] = it->second;
  }
  nlohmann::json report = {
      {"model", model},
      {"operators", operators},
      {"cost_model", cost_model},
      {"strategy", r.strategy.name},
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
      {"iteration_name", r.strategy.iteration},
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
  for (const auto& [key, value] : r.record.items()) {
    MCTSAT_ASSERT(!report.contains(key) && "a strategy's record key is one of the report's own");
    report[key] = value;
  }
  if (r.regions > 0) report["regions"] = {{"count", r.regions}, {"distinct", r.distinct_regions}};
  report["kept_fallback"] = r.kept_fallback;
  if (check) report["check"] = *check;
  if (measured) report["measured"] = *measured;
  if (guard) report["guard"] = *guard;
  if (lowering) report["lowering"] = *lowering;
  if (written_graph) report["written_graph"] = *written_graph;
  if (!warnings.empty()) report["warnings"] = warnings;
  return report;
}

}  // namespace mctsat::search
