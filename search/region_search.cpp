// Optimizing the regions of a large graph, once per structure, and joining the results.
#include "search/region_search.hpp"

#include <chrono>
#include <map>
#include <string>

#include "tensor/graph_regions.hpp"
#include "tensor/runtime_fusions.hpp"

namespace mctsat::search {

void share_budgets(OptimizeOptions& options, double share) {
  options.limits.seconds *= share;
  options.extractor.time_limit_seconds *= share;   // the whole extraction's, like the search's
  if (options.limits.work != SearchLimits{}.work)  // the default: unlimited
    options.limits.work = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(static_cast<double>(options.limits.work) * share));
}

std::optional<OptimizeResult> optimize_by_regions(const tensor::Graph& graph,
                                                  const dsl::RuleSet& rules,
                                                  const tensor::CostModel& model,
                                                  const OptimizeOptions& options,
                                                  const Strategy& strategy) {
  if (options.region_ops == 0 || tensor::operator_count(graph) <= 2 * options.region_ops)
    return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<tensor::GraphRegion> regions =
      tensor::cut_into_regions(graph, options.region_ops);
  // The first region of each structure represents it.
  std::map<std::string, std::size_t> first_of;
  std::vector<std::size_t> representative(regions.size());
  std::size_t distinct_operators = 0;
  for (std::size_t r = 0; r < regions.size(); ++r) {
    const auto [it, inserted] = first_of.emplace(regions[r].structure_key, r);
    representative[r] = it->second;
    if (inserted) distinct_operators += regions[r].operators;
  }

  OptimizeResult result;
  result.strategy = strategy.traits();
  result.original_cost = tensor::as_run_cost(graph, model);
  result.regions = regions.size();
  result.distinct_regions = first_of.size();
  std::vector<OptimizeResult> solved(regions.size());
  std::map<std::string, std::size_t> used;
  std::size_t searched = 0;
  for (std::size_t r = 0; r < regions.size(); ++r) {
    if (representative[r] == r) {
      OptimizeOptions region_options = options;
      region_options.region_ops = 0;
      if (options.progress)
        region_options.progress = [&options, region = ++searched,
                                   count = first_of.size()](const Progress& progress) {
          Progress in_region = progress;
          in_region.region = region;
          in_region.regions = count;
          options.progress(in_region);
        };
      share_budgets(region_options,
                    static_cast<double>(regions[r].operators) /
                        static_cast<double>(std::max<std::size_t>(distinct_operators, 1)));
      solved[r] = optimize(regions[r].graph, rules, model, region_options, strategy);
      result.record = solved[r].record;
      result.nodes += solved[r].nodes;
      result.classes += solved[r].classes;
      result.iterations += solved[r].iterations;
      result.extraction_seconds += solved[r].extraction_seconds;
      result.stop = solved[r].stop;
    }
    for (const auto& [rule, count] : solved[representative[r]].rules_used) used[rule] += count;
  }
  result.rules_used.assign(used.begin(), used.end());
  std::vector<const tensor::Graph*> optimized;
  for (std::size_t r = 0; r < regions.size(); ++r)
    optimized.push_back(&solved[representative[r]].graph);
  result.graph = tensor::join_regions(graph, regions, optimized, representative);
  result.optimized_cost = tensor::as_run_cost(result.graph, model);
  if (result.optimized_cost >= result.original_cost) {
    result.graph = graph;
    result.optimized_cost = result.original_cost;
    result.kept_original = true;
  }
  result.exploration_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() -
      result.extraction_seconds;
  return result;
}

}  // namespace mctsat::search
