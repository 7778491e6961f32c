// libFuzzer target for the graph JSON reader: arbitrary bytes go through graph_from_json (JSON
// parsing, field types, node references, shape inference and validation), which may only return a
// graph or throw mctsat::Error; any other exception, crash, hang or leak is a finding. A graph it
// returns must write and read back to the same JSON text. Built and run by
// tests/fuzz/run_fuzzer.sh graph_json (CTest test frontend_graph_json_fuzz).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/graph_json.hpp"
#include "support/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const mctsat::tensor::Graph graph = mctsat::frontend::graph_from_json(text, "fuzz.json");
    const std::string written = mctsat::frontend::graph_to_json(graph);
    const std::string again =
        mctsat::frontend::graph_to_json(mctsat::frontend::graph_from_json(written, "again.json"));
    if (again != written) {
      std::fprintf(stderr, "graph_json_fuzzer: the written graph reads back differently\n");
      std::abort();
    }
  } catch (const mctsat::Error&) {
  }
  return 0;
}
