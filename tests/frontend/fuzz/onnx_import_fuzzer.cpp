// libFuzzer target for the ONNX importer as `mctsat show` and `mctsat optimize` use it: arbitrary
// bytes go through graph_from_onnx (protobuf parsing, ONNX's checker, version converter and shape
// inference, operator mapping, constant folding, canonical forms), which may only return a graph
// or throw mctsat::Error; any other exception, crash, hang or leak is a finding. A graph it returns
// must export to ONNX and import again. (Debian's libonnx and libprotobuf are not instrumented: a
// memory error inside them is found only when it crashes.) Built and run by
// tests/fuzz/run_fuzzer.sh onnx_import (CTest test frontend_onnx_import_fuzz).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "support/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  using namespace mctsat;
  tensor::Graph graph;
  try {
    graph = frontend::graph_from_onnx(bytes, "fuzz.onnx");
  } catch (const Error&) {
    return 0;
  }
  const std::string written = frontend::graph_to_onnx(graph);
  try {
    (void)frontend::graph_from_onnx(written, "again.onnx");
  } catch (const Error& e) {
    std::fprintf(stderr, "onnx_import_fuzzer: the exported graph does not import: %s\n", e.what());
    std::abort();
  }
  return 0;
}
