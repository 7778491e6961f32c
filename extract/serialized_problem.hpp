// Extraction on e-graphs in the egraph-serialize JSON format (ours, or extraction-gym's suite):
// the problem of an imported e-graph (egraph/serialize.hpp), with each e-node's cost from the
// file. Placeholders and subsumed e-nodes are blacklisted by the import and so forbidden here.
#pragma once

#include <string>

#include "egraph/serialize.hpp"
#include "extract/problem.hpp"

namespace mctsat::extract {

Problem problem_from_imported(const egraph::ImportedEGraph& imported);
// Validates and imports a serialized e-graph (throws mctsat::Error as egraph::import_egraph does).
Problem problem_from_serialized(const egraph::SerializedEGraph& graph);
// Reads a JSON file (throws mctsat::Error at file:line:col).
Problem load_problem(const std::string& path);

}  // namespace mctsat::extract
