// Serialized e-graphs as extraction problems.
#include "extract/serialized_problem.hpp"

namespace mctsat::extract {

Problem problem_from_imported(const egraph::ImportedEGraph& imported) {
  return problem_from_egraph(imported.egraph, imported.roots,
                             [&](Id node) { return imported.costs[node]; });
}

Problem problem_from_serialized(const egraph::SerializedEGraph& graph) {
  return problem_from_imported(egraph::import_egraph(graph));
}

Problem load_problem(const std::string& path) {
  return problem_from_serialized(egraph::load_serialized(path));
}

}  // namespace mctsat::extract
