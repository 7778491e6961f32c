// The JSON records of the tree search and of TASO's search.
#include "search/search_records.hpp"

#include <string>

namespace mctsat::search {

nlohmann::json mcts_record(const MctsResult& result, const MctsOptions& options,
                           std::size_t threads) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : result.steps)
    steps.push_back({{"rule", step.rule_name},
                     {"mean_value", step.mean_value},
                     {"cost_ms", step.cost},
                     {"nodes", step.nodes}});
  nlohmann::json scheduled = nlohmann::json::object();
  for (const auto& [thread_count, seconds] : result.scheduled_cpu_seconds)
    scheduled[std::to_string(thread_count)] = seconds;
  return {{"seed", options.seed},
          {"simulations", result.simulations},
          {"reward_extractions", result.evaluations},
          {"memo_hits", result.memo_hits},
          {"work", result.work},
          {"threads", threads},
          {"batch", options.batch == 0 ? threads : options.batch},
          {"stop_without_gain", options.stop_without_gain},
          {"state_steps", result.state_steps},
          {"tie_break", name_of(kTieBreakNames, options.tie_break)},
          {"cpu_seconds", result.cpu_seconds},
          {"simulation_cpu_seconds", result.simulation_cpu_seconds},
          {"critical_cpu_seconds", result.critical_cpu_seconds},
          {"scheduled_cpu_seconds", scheduled},
          {"steps", steps}};
}

nlohmann::json taso_record(const TasoResult& result, const TasoOptions& options,
                           std::size_t threads) {
  return {{"alpha", options.alpha},
          {"budget", options.budget},
          {"stop_reason", name_of(kStopReasonNames, result.stop)},
          {"explored", result.explored},
          {"best_explored", result.best_explored},
          {"longest_wait", result.longest_wait},
          {"cost_ms", result.cost},
          {"candidates", result.candidates},
          {"queued", result.queued},
          {"cyclic", result.cyclic},
          {"work", result.work},
          {"cpu_seconds", result.cpu_seconds},
          {"parallel_cpu_seconds", result.parallel_cpu_seconds},
          {"threads", threads}};
}

}  // namespace mctsat::search
