// libFuzzer target for the e-graph JSON reader that `mctsat extract` uses: arbitrary bytes go
// through egraph::from_json (JSON syntax, field types, ids) and extract::problem_from_serialized
// (validation, import into an e-graph, congruence closure, the extraction problem), which may only
// succeed or throw mctsat::Error; any other exception, crash, hang or leak is a finding. An e-graph
// it reads must write and read back to the same JSON text, and the greedy extractor's tree costs
// must be computable on the problem it becomes. Built and run by tests/fuzz/run_fuzzer.sh
// egraph_json (CTest test extract_egraph_json_fuzz).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "egraph/serialize.hpp"
#include "extract/greedy_extractor.hpp"
#include "extract/serialized_problem.hpp"
#include "support/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using namespace mctsat;
  egraph::SerializedEGraph graph;
  try {
    graph = egraph::from_json(text, "fuzz.json");
  } catch (const Error&) {
    return 0;
  }
  std::string written;
  try {
    written = egraph::to_json(graph, -1);
  } catch (const Error&) {
    return 0;  // a non-finite cost (JSON cannot hold it)
  }
  const std::string again = egraph::to_json(egraph::from_json(written, "again.json"), -1);
  if (again != written) {
    std::fprintf(stderr, "egraph_json_fuzzer: the written e-graph reads back differently\n");
    std::abort();
  }
  try {
    const extract::Problem problem = extract::problem_from_serialized(graph);
    const extract::TreeCosts costs = extract::tree_costs(problem);
    if (costs.cost.size() != problem.num_classes()) std::abort();
  } catch (const Error&) {
  }
  return 0;
}
