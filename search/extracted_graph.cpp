// dag_extracted_graph: extract, build, price.
#include "search/extracted_graph.hpp"

#include <algorithm>
#include <cmath>

#include "extract/extractor.hpp"
#include "extract/tensor_problem.hpp"

namespace mctsat::search {

std::optional<ExtractedGraph> dag_extracted_graph(const tensor::TensorEGraph& state,
                                                  const tensor::CostModel& model,
                                                  std::size_t memory_bytes) {
  extract::ExtractorOptions options;
  options.max_set_bytes = std::min(options.max_set_bytes, memory_bytes / 4);
  const extract::Problem problem = extract::problem_from_tensor(state, model);
  const extract::Result extraction =
      extract::make_extractor(extract::ExtractorKind::kDag, options)->extract(problem);
  if (!std::isfinite(extraction.dag_cost)) return std::nullopt;
  ExtractedGraph result{
      tensor::build_graph(state, extract::to_selection(problem, extraction.choice, state)), 0};
  result.cost = tensor::graph_cost(result.graph, model);
  return result;
}

}  // namespace mctsat::search
