// `mctsat bench` with "measure_onnxruntime": a tiny study (the zoo's demo model and a real
// exported ONNX model, greedy search) whose runs export the original and the optimized graph and
// time both in ONNX Runtime (onnxruntime-node, installed by the CTest fixture `onnxruntime`; the
// real model comes from the fixture `real_models`). The records hold the ONNX Runtime report with
// outputs that agree, `bench report` shows its speedup next to the estimate, and a study that
// measures in ONNX Runtime without it fails before any run with an error naming the config and
// how to install it. When the npm registry is unreachable the test prints why and exits with 77.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

// A namespace of its own: the CLI tests are compiled as a unity build.
namespace bench_onnxruntime_cli {

const fs::path kOrtDir = MCTSAT_ONNXRUNTIME_DIR;
const fs::path kModelsDir = MCTSAT_REAL_MODELS_DIR;
// A wake-word head of the corpus (tests/data/real-models.tsv): 0.3 MB, input 'onnx::Flatten_0'.
const fs::path kRealModel =
    kModelsDir / "openwakeword-js" / "package" / "models" / "hello_deepa.onnx";

std::string write_config(const Scratch& scratch) {
  const json config = {
      {"name", "ort-tiny"},
      {"models", {"demo", {{"name", "wakeword"}, {"path", kRealModel.string()}}}},
      {"configurations", {{{"name", "greedy"}, {"strategy", "greedy"}}}},
      {"cost_models", {{{"name", "v100"}, {"model", "roofline"}, {"device", "v100"}}}},
      {"limits", {{"seconds", 120}, {"memory_mb", 4096}}},
      {"measure_onnxruntime", {{"rounds", 3}}}};
  const std::string path = scratch.file("ort-tiny.json");
  std::ofstream(path) << config.dump(1);
  return path;
}

TEST_CASE("a study measured in ONNX Runtime records agreeing outputs and the speedup") {
  skip_if_unavailable(kOrtDir, "ONNX Runtime");
  skip_if_unavailable(kModelsDir, "the real-model corpus");
  const Scratch scratch("mctsat-bench-ort");
  const std::string config = write_config(scratch);
  const std::string out = scratch.file("out");
  const CliResult ran = run_mctsat("bench '" + config + "' --out '" + out + "' --onnxruntime '" +
                                   kOrtDir.string() + "' --quiet");
  REQUIRE_MESSAGE(ran.status == 0, ran.output);

  std::ifstream records(fs::path(out) / "runs.jsonl");
  int count = 0;
  for (std::string line; std::getline(records, line);) {
    const json record = json::parse(line);
    CAPTURE(record.dump());
    ++count;
    REQUIRE(record["status"] == "ok");
    const json& ort = record["result"]["onnxruntime"];
    CHECK(ort["engine"] == "onnxruntime");
    CHECK(ort["outputs_agree"] == true);
    CHECK(ort["threads"] == 1);
    CHECK(ort["rounds"] == 3);
    CHECK(ort["original_ms"]["median"].get<double>() > 0);
    CHECK(ort["optimized_ms"]["median"].get<double>() > 0);
    CHECK(ort["speedup_percent"].is_number());
    CHECK(ort["paired_speedup_percent"]["q1"].get<double>() <=
          ort["paired_speedup_percent"]["q3"].get<double>());
    CHECK(ort["faster"].is_boolean());
    REQUIRE(!ort["outputs"].empty());
    for (const json& output : ort["outputs"]) CHECK(output["ok"] == true);
  }
  CHECK(count == 2);
  // The exported models and the script are removed after the runs.
  CHECK(!fs::exists(fs::path(out) / "onnxruntime"));

  const CliResult report = run_mctsat("bench report '" + out + "' --no-plots");
  REQUIRE_MESSAGE(report.status == 0, report.output);
  std::ifstream markdown(fs::path(out) / "report.md");
  const std::string text((std::istreambuf_iterator<char>(markdown)), {});
  CHECK(text.find("Estimated / oneDNN / ONNX Runtime speedup") != std::string::npos);
  std::ifstream runs_csv(fs::path(out) / "runs.csv");
  std::string header;
  std::getline(runs_csv, header);
  CHECK(header.find("onnxruntime_speedup_percent,onnxruntime_outputs_agree") != std::string::npos);
  for (std::string row; std::getline(runs_csv, row);) CHECK(row.ends_with(",true"));
}

TEST_CASE("without ONNX Runtime such a study fails first, saying how to get it") {
  skip_if_unavailable(kModelsDir, "the real-model corpus");
  const Scratch scratch("mctsat-bench-ort-missing");
  const std::string config = write_config(scratch);
  // Neither the option nor the environment variable.
  const CliResult none =
      run_shell("env -u MCTSAT_ONNXRUNTIME " + std::string(MCTSAT_BINARY) + " bench '" + config +
                "' --out '" + scratch.file("a") + "' --quiet");
  CHECK(none.status != 0);
  CHECK_MESSAGE(none.output.find("ort-tiny.json") != std::string::npos, none.output);
  CHECK_MESSAGE(none.output.find("measure_onnxruntime") != std::string::npos, none.output);
  CHECK_MESSAGE(none.output.find("install-onnxruntime.sh") != std::string::npos, none.output);
  CHECK(!fs::exists(fs::path(scratch.file("a")) / "runs.jsonl"));
  // A folder without onnxruntime-node, from the environment variable.
  const CliResult empty =
      run_shell("MCTSAT_ONNXRUNTIME='" + scratch.dir.string() + "' " + std::string(MCTSAT_BINARY) +
                " bench '" + config + "' --out '" + scratch.file("b") + "' --quiet");
  CHECK(empty.status != 0);
  CHECK_MESSAGE(empty.output.find("cannot load onnxruntime-node") != std::string::npos,
                empty.output);
  CHECK(!fs::exists(fs::path(scratch.file("b")) / "runs.jsonl"));
}

}  // namespace bench_onnxruntime_cli
