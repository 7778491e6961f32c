// The saturation pass: saturate a copy of the input graph, extract it, build the graph.
#include "search/eqsat_pass.hpp"

#include <chrono>
#include <optional>

#include "search/extracted_graph.hpp"
#include "search/rules_used.hpp"
#include "search/stop_reason.hpp"
#include "tensor/egraph_conversion.hpp"

namespace mctsat::search {

EqsatPassResult run_eqsat_pass(const tensor::Graph& graph, const dsl::RuleSet& rules,
                               const tensor::CostModel& model, const EqsatOptions& options,
                               const SearchLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  tensor::TensorEGraph state = tensor::to_egraph(graph);
  EqsatOptions quiet = options;
  quiet.progress = {};
  const egraph::RunReport report = run_eqsat(state, rules, quiet, limits);
  std::optional<ExtractedGraph> extracted = dag_extracted_graph(state, model, limits.memory_bytes);
  EqsatPassResult result;
  result.record = {{"iterations", report.iterations.size()},
                   {"nodes", state.egraph.num_nodes()},
                   {"stop_reason", name_of(kStopReasonNames, from_runner(report.stop))},
                   {"cost_ms", nullptr}};
  if (extracted) {
    result.cost = extracted->cost;
    result.graph = std::move(extracted->graph);
    result.record["cost_ms"] = result.cost;
  }
  nlohmann::json used = nlohmann::json::array();
  for (const auto& [rule, count] : applied_rules(rules, report))
    used.push_back({{"rule", rule}, {"count", count}});
  result.record["rules_used"] = std::move(used);
  result.record["seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace mctsat::search
