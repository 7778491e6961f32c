// Timing an original and an optimized graph in ONNX Runtime (see onnxruntime_measurement.hpp).
#include "study/onnxruntime_measurement.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "frontend/model_io.hpp"
#include "support/files.hpp"
#include "support/subprocess.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::study {

extern const char* const kOrtCompareScript;  // generated from ort-compare.cjs

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr double kLoadSeconds = 60;  // node's require of onnxruntime-node

constexpr const char* kHowToInstall =
    "install it with tests/data/install-onnxruntime.sh DIR (npm install --ignore-scripts "
    "onnxruntime-node into DIR; node and npm come with scripts/install-deps.sh), then pass "
    "--onnxruntime DIR or set MCTSAT_ONNXRUNTIME=DIR";

// ONNX Runtime's name of an element type (ort-compare.cjs's --input DTYPE).
std::string ort_dtype(const tensor::Node& node) {
  switch (node.leaf_dtype) {
    case tensor::DType::kFloat32:
      return "float32";
    case tensor::DType::kInt64:
      return "int64";
    case tensor::DType::kInt32:
      return "int32";
    case tensor::DType::kBool:
      return "bool";
    default:
      throw Error(fmt::format("ONNX Runtime is given random inputs of float32, int64, int32 or "
                              "bool only, not {}",
                              tensor::dtype_name(node.leaf_dtype)),
                  SourceLocation::at_node(node.name));
  }
}

// The graph with seeded random values for its weights without values (by name, so the original
// and the optimized graph get the same ones): the export writes them as initializers, as a
// deployed model has them (weights as graph inputs would be concatenated at every inference).
tensor::Graph with_weight_values(const tensor::Graph& graph, std::uint64_t seed) {
  tensor::Graph out = graph;
  for (tensor::Node& node : out.nodes())
    if (node.op == tensor::Op::kWeight && node.value == nullptr) {
      if (node.leaf_dtype != tensor::DType::kFloat32)
        throw Error(fmt::format("a {} weight without values cannot be given random values for "
                                "ONNX Runtime",
                                tensor::dtype_name(node.leaf_dtype)),
                    SourceLocation::at_node(node.name));
      node.value = std::make_shared<const tensor::Tensor>(
          tensor::random_weight(node.outputs.at(0).shape, seed, node.name));
    }
  return out;
}

}  // namespace

std::string onnxruntime_input_spec(const tensor::Node& node) {
  return fmt::format("{}={}:{}", node.name, ort_dtype(node),
                     fmt::join(node.outputs.at(0).shape, ","));
}

std::string onnxruntime_dir(const std::string& option) {
  if (!option.empty()) return option;
  const char* value = std::getenv(kOnnxRuntimeEnvironment);
  return value == nullptr ? std::string() : std::string(value);
}

void require_onnxruntime(const std::string& dir, const SourceLocation& where,
                         std::string_view who) {
  if (dir.empty())
    throw Error(fmt::format("{}, but no folder holding node_modules/onnxruntime-node is given: {}",
                            who, kHowToInstall),
                where);
  const std::string check =
      "require(require('path').resolve(process.argv[1], 'node_modules', 'onnxruntime-node'))";
  // Loading a module takes well under a second; one that never returns (or floods its output)
  // is killed.
  const auto loaded =
      run_program({"node", "-e", check, dir}, {}, ProgramLimits{kLoadSeconds, 1 << 20});
  if (!loaded)
    throw Error(fmt::format("{}, which needs node (Debian's nodejs: scripts/install-deps.sh "
                            "installs it); node is not on PATH",
                            who),
                where);
  if (loaded->timed_out || loaded->output_too_large)
    throw Error(fmt::format("{}, but node did not load onnxruntime-node from '{}' {}: {}", who, dir,
                            loaded->timed_out ? fmt::format("within {:g} s", kLoadSeconds)
                                              : std::string("without printing more than 1 MiB"),
                            kHowToInstall),
                where);
  if (loaded->exit_code != 0) {
    // node's message: the line that names the error ("Error: Cannot find module ..."), not the
    // stack before it.
    std::string reason = loaded->err.substr(0, loaded->err.find('\n'));
    if (const auto at = loaded->err.find("Error: "); at != std::string::npos)
      reason = loaded->err.substr(at, loaded->err.find('\n', at) - at);
    throw Error(fmt::format("{}, but node cannot load onnxruntime-node from '{}' ({}): {}", who,
                            dir, reason, kHowToInstall),
                where);
  }
}

void write_compare_script(const std::string& path) {
  write_file_atomically(path, kOrtCompareScript);
}

json measure_in_onnxruntime(const tensor::Graph& original, const tensor::Graph& optimized,
                            const OnnxRuntimeSetup& setup, const OnnxRuntimeMeasureOptions& options,
                            const std::string& file_prefix, const std::string& given_original) {
  const std::string original_file =
      given_original.empty() ? file_prefix + ".original.onnx" : given_original;
  const std::string optimized_file = file_prefix + ".optimized.onnx";
  struct RemoveFiles {
    std::vector<std::string> paths;
    ~RemoveFiles() {
      std::error_code ignored;
      for (const auto& path : paths) fs::remove(path, ignored);
    }
  } cleanup{{optimized_file}};
  if (given_original.empty()) {
    cleanup.paths.push_back(original_file);
    frontend::save_model(with_weight_values(original, options.seed), original_file);
  }
  frontend::save_model(with_weight_values(optimized, options.seed), optimized_file);

  std::vector<std::string> argv = {"node",        setup.script,
                                   "--ort",       setup.dir,
                                   "--rounds",    std::to_string(options.rounds),
                                   "--round-ms",  fmt::format("{}", options.round_ms),
                                   "--tolerance", fmt::format("{}", options.tolerance),
                                   "--seed",      std::to_string(options.seed),
                                   original_file, optimized_file};
  for (const tensor::Node& node : original.nodes())
    if (node.op == tensor::Op::kInput) {
      argv.push_back("--input");
      argv.push_back(onnxruntime_input_spec(node));
    }
  // Its report is a few kilobytes: a run that prints more than the limit is killed.
  const auto ran = run_program(argv, {}, ProgramLimits{0, std::size_t{16} << 20});
  if (!ran) throw Error("ONNX Runtime: node is not on PATH (scripts/install-deps.sh installs it)");
  if (ran->output_too_large)
    throw Error(
        "ONNX Runtime: ort-compare.cjs printed more than 16 MiB (no report is that long): "
        "stopped");
  // 0: the outputs agree, 1: they differ (a report all the same); anything else is a failure.
  if (ran->exit_code != 0 && ran->exit_code != 1)
    throw Error(fmt::format("ONNX Runtime failed (exit {}): {}", ran->exit_code, ran->err));
  json report = json::parse(ran->out, nullptr, false);
  if (report.is_discarded() || !report.is_object())
    throw Error(
        fmt::format("ONNX Runtime: ort-compare.cjs printed no report: {}{}", ran->out, ran->err));
  report["engine"] = "onnxruntime";
  report["seed"] = options.seed;
  report["outputs_agree"] = report.value("passed", false);
  report["faster"] = report.contains("paired_cpu_speedup_percent") &&
                     report["paired_cpu_speedup_percent"].value("q1", 0.0) > 0;
  return report;
}

}  // namespace mctsat::study
