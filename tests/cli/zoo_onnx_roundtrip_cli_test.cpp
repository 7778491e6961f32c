// A zoo model optimizes alike from the zoo and from its ONNX export: `convert MODEL m.onnx` then
// `optimize m.onnx` starts from the same cost and finds the same speedup as `optimize MODEL`
// (the importer reads back SAME padding where the export wrote pads that equal it, weights
// without values as weights, and separate activations as separate operators).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.hpp"

TEST_CASE("squeezenet and resnet50 optimize alike from the zoo and from ONNX") {
  const Scratch scratch("mctsat-zoo-onnx");
  for (const char* name : {"squeezenet", "resnet50"}) {
    CAPTURE(name);
    const std::string onnx = scratch.file(std::string(name) + ".onnx");
    const CliResult converted = run_mctsat(std::string("convert ") + name + " " + onnx);
    REQUIRE_MESSAGE(converted.status == 0, converted.output);
    const std::string options = " --strategy eqsat --json";
    const nlohmann::json direct = run_json(std::string("optimize ") + name + options);
    const nlohmann::json via = run_json("optimize " + onnx + options);
    CHECK(via["original_cost_ms"].get<double>() ==
          doctest::Approx(direct["original_cost_ms"].get<double>()).epsilon(1e-12));
    CHECK(via["optimized_cost_ms"].get<double>() ==
          doctest::Approx(direct["optimized_cost_ms"].get<double>()).epsilon(1e-12));
    CHECK(via["speedup_percent"].get<double>() ==
          doctest::Approx(direct["speedup_percent"].get<double>()).epsilon(1e-9));
    CHECK(direct["speedup_percent"].get<double>() > 0);  // rules applied
  }
}

TEST_CASE("an optimized model written to ONNX reads back at the cost it was written with") {
  // Fused activations are written as Conv + Relu; the importer fuses the ones it marked again.
  const Scratch scratch("mctsat-zoo-onnx-show");
  const std::string out = scratch.file("squeezenet-optimized.onnx");
  const nlohmann::json optimized =
      run_json("optimize squeezenet --strategy eqsat --json -o " + out);
  const nlohmann::json shown = run_json("show " + out + " --json");
  CHECK(shown["cost"]["total_ms"].get<double>() ==
        doctest::Approx(optimized["optimized_cost_ms"].get<double>()).epsilon(1e-12));
  CHECK(optimized["optimized_cost_ms"].get<double>() < optimized["original_cost_ms"].get<double>());
}
