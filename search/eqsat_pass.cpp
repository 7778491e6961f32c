// The saturation pass: saturate a copy of the input graph, extract it, build the graph.
#include "search/eqsat_pass.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "extract/extractor.hpp"
#include "extract/tensor_problem.hpp"
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
  extract::ExtractorOptions extractor_options;
  extractor_options.max_set_bytes =
      std::min(extractor_options.max_set_bytes, limits.memory_bytes / 4);
  const extract::Problem problem = extract::problem_from_tensor(state, model);
  const extract::Result extraction =
      extract::make_extractor(extract::ExtractorKind::kDag, extractor_options)->extract(problem);
  EqsatPassResult result;
  result.record = {{"iterations", report.iterations.size()},
                   {"nodes", state.egraph.num_nodes()},
                   {"stop_reason", name_of(kStopReasonNames, from_runner(report.stop))},
                   {"cost_ms", nullptr}};
  if (std::isfinite(extraction.dag_cost)) {
    result.graph =
        tensor::build_graph(state, extract::to_selection(problem, extraction.choice, state));
    result.cost = tensor::graph_cost(*result.graph, model);
    result.record["cost_ms"] = result.cost;
  }
  result.record["seconds"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace mctsat::search
