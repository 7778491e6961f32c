// ONNX's own reference outputs: every model of Debian's libonnx-testdata (node, pytorch-converted,
// pytorch-operator and simple cases) that imports is run through the reference interpreter on each
// of its test_data_set_* inputs, and must reproduce the expected outputs, and so must the model
// exported back to ONNX and imported again. Opaque operators run through the ONNX reference
// operators (onnx_opaque_evaluator); models with opaque operators those do not implement are
// counted, not run. Per operator family the pass counts are printed; the families the catalog
// covers, and the operators the evaluator implements, must each have passing cases.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "frontend/onnx_export.hpp"
#include "frontend/onnx_import.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "frontend/onnx_reference_ops.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "tensor/interpreter.hpp"

using namespace mctsat;
namespace fs = std::filesystem;

namespace {

const fs::path kTestData = "/usr/share/libonnx-testdata/data";

struct Counts {
  int passed = 0, evaluated = 0, opaque = 0, not_imported = 0, failed = 0;
};

// "test_conv_with_strides_padding" -> "conv"; pytorch cases keep their directory as a prefix.
std::string family(const fs::path& dir) {
  std::string name = dir.filename().string().substr(5);
  const auto cut = name.find('_');
  return cut == std::string::npos ? name : name.substr(0, cut);
}

bool close(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= 1e-4 + 1e-3 * std::abs(want);
}

// Runs one case: "" when every data set matches, otherwise what differs.
std::string run_case(const tensor::Graph& graph, const fs::path& dir) {
  std::vector<std::string> input_names;
  for (const auto& node : graph.nodes()) {
    if (node.op == tensor::Op::kInput) input_names.push_back(node.name);
  }
  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("test_data_set_", 0) == 0)
      sets.push_back(entry.path());
  }
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) return "no test data";
  for (const fs::path& set : sets) {
    std::map<std::string, tensor::Tensor> inputs;
    for (std::size_t k = 0;; ++k) {
      const fs::path file = set / ("input_" + std::to_string(k) + ".pb");
      if (!fs::exists(file)) break;
      std::string name;
      tensor::Tensor value = frontend::tensor_from_onnx(read_text_file(file), file.string(), &name);
      if (name.empty() && k < input_names.size()) name = input_names[k];
      inputs[name] = std::move(value);
    }
    const std::vector<tensor::Tensor> outputs =
        tensor::interpret(graph, inputs, frontend::with_onnx_opaque_evaluator({}));
    for (std::size_t k = 0; k < outputs.size(); ++k) {
      const fs::path file = set / ("output_" + std::to_string(k) + ".pb");
      const tensor::Tensor want = frontend::tensor_from_onnx(read_text_file(file), file.string());
      if (want.shape != outputs[k].shape)
        return set.filename().string() + ": output " + std::to_string(k) + " has shape " +
               tensor::shape_string(outputs[k].shape) + ", expected " +
               tensor::shape_string(want.shape);
      for (std::size_t i = 0; i < want.size(); ++i) {
        if (!close(outputs[k].data[i], want.data[i]))
          return set.filename().string() + ": output " + std::to_string(k) + " element " +
                 std::to_string(i) + " is " + std::to_string(outputs[k].data[i]) + ", expected " +
                 std::to_string(want.data[i]);
      }
    }
  }
  return "";
}

}  // namespace

TEST_CASE("the models of libonnx-testdata reproduce ONNX's reference outputs") {
  REQUIRE_MESSAGE(fs::exists(kTestData), "install libonnx-testdata (scripts/install-deps.sh)");
  std::map<std::string, Counts> counts;
  std::vector<fs::path> cases;
  for (const char* group : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
    for (const auto& entry : fs::directory_iterator(kTestData / group)) {
      if (fs::exists(entry.path() / "model.onnx")) cases.push_back(entry.path());
    }
  }
  std::sort(cases.begin(), cases.end());
  for (const fs::path& dir : cases) {
    const std::string group = dir.parent_path().filename().string();
    Counts& count = counts[group == "node" ? family(dir) : group];
    tensor::Graph graph;
    try {
      graph = frontend::graph_from_onnx(read_text_file((dir / "model.onnx").string()),
                                        (dir / "model.onnx").string());
    } catch (const Error& error) {
      ++count.not_imported;
      continue;
    }
    // Every importable model exports (passing the checker) and imports back to as many nodes.
    tensor::Graph again;
    try {
      again = frontend::graph_from_onnx(frontend::graph_to_onnx(graph), "exported");
    } catch (const Error& error) {
      FAIL_CHECK(dir.filename().string() << ": export round trip: " << error.what());
      continue;
    }
    CHECK_MESSAGE(again.size() == graph.size(), dir.filename().string());
    const auto is_opaque = [](const tensor::Node& n) { return n.op == tensor::Op::kOpaque; };
    const bool has_opaque = std::any_of(graph.nodes().begin(), graph.nodes().end(), is_opaque);
    if (std::any_of(graph.nodes().begin(), graph.nodes().end(), [&](const tensor::Node& n) {
          return is_opaque(n) && !frontend::onnx_reference_op_supported(n.opaque->type);
        })) {
      ++count.opaque;
      continue;
    }
    // Both the imported graph and its exported-and-reimported copy compute ONNX's outputs.
    std::string failure;
    try {
      failure = run_case(graph, dir);
      if (failure.empty()) failure = run_case(again, dir);
    } catch (const Error& error) {
      failure = error.what();
    }
    if (has_opaque && failure.find("not supported") != std::string::npos) {
      ++count.opaque;  // a use the reference operators do not implement, e.g. cubic Resize
      continue;
    }
    if (failure.empty()) {
      ++(has_opaque ? count.evaluated : count.passed);
    } else {
      ++count.failed;
      FAIL_CHECK(dir.filename().string() << ": " << failure);
    }
  }
  Counts total;
  std::string report =
      "case family: passed (mapped) / passed (opaque, evaluated) / kept opaque / not imported / "
      "failed\n";
  for (const auto& [name, c] : counts) {
    total.passed += c.passed;
    total.evaluated += c.evaluated;
    total.opaque += c.opaque;
    total.not_imported += c.not_imported;
    total.failed += c.failed;
    if (c.passed + c.evaluated + c.failed > 0)
      report += "  " + name + ": " + std::to_string(c.passed) + " / " +
                std::to_string(c.evaluated) + " / " + std::to_string(c.opaque) + " / " +
                std::to_string(c.not_imported) + " / " + std::to_string(c.failed) + "\n";
  }
  report += "  all " + std::to_string(cases.size()) + " cases: " + std::to_string(total.passed) +
            " / " + std::to_string(total.evaluated) + " / " + std::to_string(total.opaque) + " / " +
            std::to_string(total.not_imported) + " / " + std::to_string(total.failed);
  MESSAGE(report);
  for (const std::string covered :
       {"conv",      "matmul",   "gemm",    "add",         "sub",
        "mul",       "div",      "relu",    "sigmoid",     "tanh",
        "concat",    "split",    "maxpool", "averagepool", "globalaveragepool",
        "transpose", "reshape",  "flatten", "batchnorm",   "softmax",
        "clip",      "identity", "dropout"}) {
    CAPTURE(covered);
    CHECK(counts[covered].passed > 0);
  }
  for (const std::string evaluated :
       {"resize",  "convtranspose", "hardsigmoid", "hardswish", "slice", "gather",
        "squeeze", "unsqueeze",     "cast",        "pow",       "sqrt",  "exp",
        "expand",  "where",         "reduce",      "range",     "tile",  "leakyrelu",
        "erf",     "neg",           "reciprocal"}) {
    CAPTURE(evaluated);
    CHECK(counts[evaluated].evaluated + counts[evaluated].passed > 0);
  }
}
