// The fast subset of the PyTorch corpus (tests/data/torch-models.tsv, rows marked fast: exported
// by the CTest fixture `torch_models` with tests/data/export-torch-models.py into
// build/test-models/torch) end to end: every model imports with its inputs' shapes, optimizes with
// `--check` and exports with `-o`, and ONNX Runtime (onnxruntime-node, the fixture `onnxruntime`)
// gives the optimized file the outputs of the original (study/ort-compare.cjs; the original run
// without graph optimizations, which miscompute some PyTorch exports: see its header). When PyTorch
// is missing, or the npm registry unreachable, the fixtures say so in a file: this test prints the
// reason and exits with 77 (skipped).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

// A named namespace: the unity build compiles this file with the other CLI tests.
namespace torch_corpus {
namespace {

const fs::path kModelsDir = MCTSAT_TORCH_MODELS_DIR;
const fs::path kOrtDir = MCTSAT_ONNXRUNTIME_DIR;
const fs::path kManifest = fs::path(MCTSAT_SOURCE_DIR) / "tests" / "data" / "torch-models.tsv";

struct TorchModel {
  std::string id, group;
  bool fast = false;
  std::vector<std::string> inputs;  // NAME=DTYPE:DIMS[:FILL], as ort-compare.cjs reads them
  fs::path path() const { return kModelsDir / (id + ".onnx"); }
  // mctsat's --input-shape options for the inputs (last on a command line: they take every value
  // after them).
  std::string shape_options() const {
    std::string options;
    for (const std::string& input : inputs) {
      const auto equals = input.rfind('=');
      const std::string name = input.substr(0, equals);
      std::stringstream parts(input.substr(equals + 1));
      std::string dtype, dims;
      std::getline(parts, dtype, ':');
      std::getline(parts, dims, ':');
      options += " --input-shape '" + name + "=" + dims + "'";
    }
    return options;
  }
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) parts.push_back(part);
  return parts;
}

std::vector<TorchModel> manifest() {
  std::vector<TorchModel> models;
  std::ifstream file(kManifest);
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> cells = split(line, '\t');
    REQUIRE_MESSAGE(cells.size() == 6, line);
    models.push_back({cells[0], cells[1], cells[2] == "yes", split(cells[4], ';')});
  }
  return models;
}

}  // namespace

TEST_CASE("the manifest: 20+ models, 5+ transformers, 8+ CNNs, 2+ recurrent, a fast subset") {
  int transformers = 0, cnns = 0, recurrent = 0, fast = 0;
  const auto models = manifest();
  for (const TorchModel& model : models) {
    transformers += model.group == "transformer" || model.group == "vit";
    cnns += model.group == "cnn";
    recurrent += model.group == "recurrent";
    fast += model.fast;
  }
  CHECK(models.size() >= 20);
  CHECK(transformers >= 5);
  CHECK(cnns >= 8);
  CHECK(recurrent >= 2);
  CHECK(fast >= 3);
}

TEST_CASE("the fast PyTorch models import, optimize with --check, export, and agree in ORT") {
  skip_if_unavailable(kModelsDir, "the PyTorch corpus");
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-torch-models");
  for (const TorchModel& model : manifest()) {
    if (!model.fast) continue;
    CAPTURE(model.id);
    REQUIRE_MESSAGE(fs::exists(model.path()), model.path().string());
    const std::string options = model.shape_options();
    // Imports (`show` prints its operators).
    CHECK(!operator_line(shell_quoted(model.path()) + options).empty());
    // Optimizes (greedy keeps the test short; the strategies are tested elsewhere) with the
    // numeric check, and writes ONNX.
    const fs::path optimized = scratch.dir / (model.id + "-optimized.onnx");
    require_check_passed(run_mctsat("optimize " + shell_quoted(model.path()) +
                                    " --strategy greedy --check -o " + shell_quoted(optimized) +
                                    options));
    // ONNX Runtime runs both files on the same inputs: equal outputs.
    check_onnxruntime_agrees(kOrtDir, model.path(), optimized, model.inputs,
                             "--reference-level disabled");
  }
}

TEST_CASE("--onnx-ops onnxruntime writes ONNX Runtime's Attention and flat residual sums") {
  skip_if_unavailable(kModelsDir, "the PyTorch corpus");
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const Scratch scratch("mctsat-torch-attention");
  // The exporters' forms: Hugging Face-style with an additive mask input (bert-layer), with the
  // mask made from token flags (bert-hf-tiny) and causal (gpt2-block), and nn.MultiheadAttention
  // (encoder-tiny, and at batch 4 its heads of all batches along one axis); their residual sums
  // with layer norms written on [B*S, H] views (so that ONNX Runtime does not fuse them into its
  // slower SkipLayerNormalization), post-LN (bert-layer: two per layer; bert-hf-tiny: and its
  // embeddings'), not pre-LN (gpt2-block: the sum also feeds the next residual, which ONNX Runtime
  // does not fuse; its first norm reads the input, no sum).
  // And torchvision's Swin Transformer: its 12 window attentions, each over a batch of windows with
  // the relative position bias (plus, in the 2 shifted ones, each window's shift mask) as the
  // attention_bias; its layer norms have no residual sum before them.
  const std::tuple<const char*, int, int> expected[] = {{"bert-layer", 1, 2},
                                                        {"bert-hf-tiny", 1, 3},
                                                        {"gpt2-block", 1, 0},
                                                        {"encoder-tiny", 1, 2},
                                                        {"encoder-tiny-b4", 1, 2},
                                                        {"swin-t", 12, 0}};
  for (const auto& [id, attention, flat_sums] : expected) {
    CAPTURE(id);
    const auto models = manifest();
    const auto model =
        std::find_if(models.begin(), models.end(), [&](const TorchModel& m) { return m.id == id; });
    REQUIRE(model != models.end());
    const fs::path lowered = scratch.dir / (model->id + "-onnxruntime.onnx");
    const CliResult optimized = run_mctsat(
        "optimize " + shell_quoted(model->path()) + " --strategy greedy --guard off -o " +
        shell_quoted(lowered) + " --onnx-ops onnxruntime --json" + model->shape_options());
    REQUIRE_MESSAGE(optimized.status == 0, optimized.output);
    const auto report = nlohmann::json::parse(optimized.output);
    CHECK(report["lowering"]["attention"] == attention);
    CHECK(report["lowering"]["flat_sums"] == flat_sums);
    std::ifstream file(lowered, std::ios::binary);
    const std::string bytes(std::istreambuf_iterator<char>(file), {});
    CHECK(bytes.find("com.microsoft") != std::string::npos);
    CHECK(bytes.find("SkipLayerNormalization") == std::string::npos);
    // ONNX Runtime runs the contrib operator: the original's outputs, with the mask's flags all
    // set and all clear.
    for (const char* flags : {":1", ":0"}) {
      std::vector<std::string> inputs = model->inputs;
      for (std::string& input : inputs)
        if (input.starts_with("attention_mask=")) input = input.substr(0, input.rfind(':')) + flags;
      check_onnxruntime_agrees(kOrtDir, model->path(), lowered, inputs,
                               "--reference-level disabled");
    }
  }
}

TEST_CASE("layer norms, GELU and attention import as operators, and the lowering gains as run") {
  skip_if_unavailable(kModelsDir, "the PyTorch corpus");
  const Scratch scratch("mctsat-torch-as-run");
  const auto models = manifest();
  const auto model = std::find_if(models.begin(), models.end(),
                                  [](const TorchModel& m) { return m.id == "bert-layer"; });
  REQUIRE(model != models.end());
  const std::string as_run = " --device cpu-2core --runtime-fusions onnxruntime";
  // bert-layer's two decomposed layer norms (9 operators each), its erf GELU (5) and its
  // self-attention (12 after the projections) import as the catalog's layernorm, gelu and
  // attention: nothing stays opaque.
  const nlohmann::json shown =
      run_json("show " + shell_quoted(model->path()) + as_run + " --json" + model->shape_options());
  CHECK(shown["operator_counts"]["layernorm"] == 2);
  CHECK(shown["operator_counts"]["gelu"] == 1);
  CHECK(shown["operator_counts"]["attention"] == 1);
  CHECK_FALSE(shown["operator_counts"].contains("softmax"));
  CHECK(shown["opaque_counts"].empty());
  // Its self-attention written as ONNX Runtime's Attention is estimated faster as run (the
  // guard measured it at +2..+4%: bench/results/2026-12-06-runtime-fusions).
  const nlohmann::json report = run_json(
      "optimize " + shell_quoted(model->path()) + " --strategy greedy --guard off -o " +
      shell_quoted(scratch.dir / "lowered.onnx") + " --onnx-ops onnxruntime --json" + as_run +
      model->shape_options());
  CHECK(report["lowering"]["attention"] == 1);
  CHECK(report["lowering"]["estimated_speedup_percent"].get<double>() > 0);
  // Operator by operator the lowered file has no estimate: its Attention would be priced as
  // data movement.
  const nlohmann::json plain = run_json(
      "optimize " + shell_quoted(model->path()) + " --strategy greedy --guard off -o " +
      shell_quoted(scratch.dir / "plain.onnx") + " --onnx-ops onnxruntime --json" +
      model->shape_options());
  CHECK_FALSE(plain["lowering"].contains("estimated_speedup_percent"));
}

}  // namespace torch_corpus
