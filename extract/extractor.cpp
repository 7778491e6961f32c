// The extraction interface's shared part: timing, restriction to needed classes, scoring, and the
// factory.
#include "extract/extractor.hpp"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "extract/beam_extractor.hpp"
#include "extract/dag_extractor.hpp"
#include "extract/greedy_extractor.hpp"
#include "extract/ilp_extractor.hpp"
#include "extract/paper_extractor.hpp"
#include "support/error.hpp"

namespace mctsat::extract {

std::string_view status_name(Status status) {
  switch (status) {
    case Status::kOptimal:
      return "optimal";
    case Status::kHeuristic:
      return "heuristic";
    case Status::kTimeLimit:
      return "time limit";
    case Status::kMemoryLimit:
      return "memory limit";
    case Status::kInfeasible:
      return "infeasible";
  }
  return "?";
}

nlohmann::json result_json(const Result& r) {
  const auto number_or_null = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nullptr;
  };
  return {{"dag_cost", number_or_null(r.dag_cost)}, {"seconds", r.seconds},
          {"status", status_name(r.status)},        {"lower_bound", number_or_null(r.lower_bound)},
          {"gap", number_or_null(r.gap)},           {"detail", r.detail}};
}

Result Extractor::extract(const Problem& problem) const {
  const auto start = std::chrono::steady_clock::now();
  Result result;
  solve(problem, result);
  if (result.status == Status::kInfeasible) {
    result.choice.clear();
    result.dag_cost = std::numeric_limits<double>::infinity();
  } else {
    const ChoiceCheck check = check_choice(problem, result.choice, problem.roots());
    if (!check.valid)
      throw InvalidChoice(
          fmt::format("extractor '{}' produced an invalid extraction: {}", name(), check.error));
    Choice needed(problem.num_classes(), kNone);
    for (Index eclass : check.order) needed[eclass] = result.choice[eclass];
    result.choice = std::move(needed);
    result.dag_cost = check.cost;
    if (!std::isnan(result.lower_bound))
      result.gap =
          result.dag_cost > 0 ? (result.dag_cost - result.lower_bound) / result.dag_cost : 0.0;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<std::string> extractor_names() {
  return names_of(kExtractorNames);
}

std::unique_ptr<Extractor> make_extractor(ExtractorKind kind, const ExtractorOptions& options) {
  switch (kind) {
    case ExtractorKind::kGreedy:
      return std::make_unique<GreedyExtractor>();
    case ExtractorKind::kPaper:
      return std::make_unique<PaperExtractor>();
    case ExtractorKind::kDag:
      return std::make_unique<DagExtractor>(options);
    case ExtractorKind::kIlp:
      return std::make_unique<IlpExtractor>(options);
    case ExtractorKind::kBeam:
      return std::make_unique<BeamExtractor>(options);
  }
  MCTSAT_ASSERT(false && "unknown extractor kind");
  return nullptr;
}

std::unique_ptr<Extractor> make_extractor(std::string_view name, const ExtractorOptions& options) {
  return make_extractor(parse_name(kExtractorNames, name, "extractor"), options);
}

}  // namespace mctsat::extract
