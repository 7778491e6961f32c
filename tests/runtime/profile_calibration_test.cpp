// Calibrating a device profile: timings produced by the roofline model of a known profile give
// that profile back (whichever profile the fit starts from), the calibrated profile round-trips
// through its JSON file, and bad sample sets are refused.
#include "runtime/profile_calibration.hpp"

#include <vector>

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "tensor/shape_inference.hpp"

#include "tests/tensor/op_instances.hpp"

namespace mctsat::runtime {
namespace {

using namespace tensor;

using testing::f32;
using testing::Instance;
using testing::make;

// Compute-bound matmuls and memory-bound elementwise operators of several sizes.
std::vector<Instance> operators() {
  std::vector<Instance> out;
  for (std::int64_t n : {16, 64, 256, 512})
    out.push_back(make(Op::kMatmul, {f32({n, n}), f32({n, n})}, {std::int64_t{0}}));
  for (std::int64_t n : {100, 10000, 1000000}) {
    out.push_back(make(Op::kRelu, {f32({n})}, {}));
    out.push_back(make(Op::kEwAdd, {f32({n}), f32({n})}, {}));
  }
  return out;
}

DeviceProfile machine() {
  DeviceProfile p = builtin_profile("cpu-2core");
  p.name = "truth";
  p.peak_flops = 90e9;
  p.memory_bandwidth = 7e9;
  p.launch_overhead_s = 3e-6;
  p.saturation_elements = 512;
  return p;
}

std::vector<CalibrationSample> samples_of(const DeviceProfile& truth) {
  const RooflineCostModel model(truth);
  std::vector<CalibrationSample> samples;
  for (const Instance& op : operators())
    samples.push_back(calibration_sample(model.estimate(op.get()), model.cost(op.get())));
  return samples;
}

TEST_CASE("timings of a roofline device give its profile back") {
  const DeviceProfile truth = machine();
  const std::vector<CalibrationSample> samples = samples_of(truth);
  std::size_t compute_bound = 0;
  for (const Instance& op : operators())
    if (RooflineCostModel(truth).estimate(op.get()).compute_bound()) ++compute_bound;
  CHECK(compute_bound >= 2);  // the samples exercise both roofs
  CHECK(compute_bound < samples.size() - 2);
  for (const std::string start : {"cpu-2core", "v100"}) {
    CAPTURE(start);
    const Calibration fit = calibrate_profile(samples, builtin_profile(start));
    CHECK(fit.profile.peak_flops == doctest::Approx(truth.peak_flops).epsilon(1e-6));
    CHECK(fit.profile.memory_bandwidth == doctest::Approx(truth.memory_bandwidth).epsilon(1e-6));
    CHECK(fit.profile.launch_overhead_s == doctest::Approx(truth.launch_overhead_s).epsilon(1e-6));
    CHECK(fit.profile.saturation_elements == truth.saturation_elements);
    CHECK(fit.log_rms < 1e-6);
    CHECK(fit.compute_bound == compute_bound);
    CHECK(fit.memory_bound == samples.size() - compute_bound);
    for (const char* field :
         {"peak_flops", "memory_bandwidth", "launch_overhead_s", "saturation_elements"})
      CHECK(fit.profile.notes.at(field).rfind("Fitted", 0) == 0);
  }
}

TEST_CASE("a roof no operator is bound by keeps every operator on the other roof") {
  const DeviceProfile truth = machine();
  const RooflineCostModel model(truth);
  std::vector<CalibrationSample> samples;
  for (const Instance& op : operators())
    if (op.op != Op::kMatmul)
      samples.push_back(calibration_sample(model.estimate(op.get()), model.cost(op.get())));
  const Calibration fit = calibrate_profile(samples, builtin_profile("cpu-2core"));
  CHECK(fit.compute_bound == 0);
  CHECK(fit.memory_bound == samples.size());
  CHECK(fit.profile.memory_bandwidth == doctest::Approx(truth.memory_bandwidth).epsilon(1e-6));
  CHECK(fit.profile.notes.at("peak_flops").rfind("Not determined", 0) == 0);
  // The chosen peak leaves the memory roof binding: the fitted profile reproduces every timing.
  const RooflineCostModel fitted(fit.profile);
  for (const Instance& op : operators())
    if (op.op != Op::kMatmul)
      CHECK(fitted.cost(op.get()) == doctest::Approx(model.cost(op.get())).epsilon(1e-6));
}

TEST_CASE("the calibrated profile round-trips through its JSON text") {
  const Calibration fit = calibrate_profile(samples_of(machine()), builtin_profile("cpu-2core"));
  DeviceProfile profile = fit.profile;
  profile.name = "my-cpu";
  profile.sources = {"a test"};
  CHECK(parse_profile(format_profile(profile), "my-cpu.json") == profile);
}

TEST_CASE("too few samples and non-positive times are refused") {
  std::vector<CalibrationSample> samples = samples_of(machine());
  CHECK_THROWS_WITH_AS(calibrate_profile(std::span(samples).first(2), builtin_profile("cpu-2core")),
                       doctest::Contains("at least 3 timed operators"), Error);
  samples[1].measured_ms = 0;
  CHECK_THROWS_WITH_AS(calibrate_profile(samples, builtin_profile("cpu-2core")),
                       doctest::Contains("must be positive"), Error);
}

}  // namespace
}  // namespace mctsat::runtime
