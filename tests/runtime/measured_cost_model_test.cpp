// The measured cost model: single-operator timings, the on-disk cache (round trip, reuse, another
// machine's table refused), views without timing, and what the executor cannot run (error or
// fallback). Timings are only checked to be positive and finite, never compared.
#include "runtime/measured_cost_model.hpp"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include <doctest/doctest.h>

#include "support/error.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tensor/shape_inference.hpp"

#include "tests/tensor/op_instances.hpp"

namespace mctsat::runtime {
namespace {

using namespace tensor;

using testing::f32;
using testing::Instance;
using testing::make;

Instance conv() {
  return make(Op::kConv2d, {{{1, 8, 16, 16}}, {{8, 8, 3, 3}}},
              {std::int64_t{1}, std::int64_t{1}, std::int64_t{0}, std::int64_t{2}});
}
Instance matmul() {
  return make(Op::kMatmul, {{{16, 32}}, {{32, 8}}}, {std::int64_t{0}});
}
Instance batchnorm() {
  return make(Op::kBatchNorm, {{{1, 4, 5, 5}}, {{4}}, {{4}}, {{4}}, {{4}}}, {});
}

struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("mctsat_measured_cost_model_test_" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST_CASE("measure_op times operators: a positive, finite median") {
  for (const Instance& instance : {conv(), matmul(), batchnorm()}) {
    const double ms = measure_op(instance.get(), {1, 3});
    CHECK(std::isfinite(ms));
    CHECK(ms > 0);
  }
  CHECK_THROWS_AS(measure_op(conv().get(), {1, 0}), Error);
  CHECK_THROWS_AS(measure_op(conv().get(), {1, 3, 0}), Error);
  CHECK_THROWS_AS(measure_op(conv().get(), {-1, 3, 1}), Error);
}

TEST_CASE("the table names the measuring method: tables measured otherwise are not reused") {
  CHECK(machine_description({2, 5, 3}) != machine_description({2, 5, 1}));
  CHECK(machine_description({2, 5, 3}) != machine_description({2, 7, 3}));
  CHECK(default_measured_cache_path({2, 5, 3}) != default_measured_cache_path({2, 5, 1}));
  CHECK(machine_description().find("fastest of 3 executors' medians of 5 runs") !=
        std::string::npos);
}

TEST_CASE("the cache round-trips: a second model reuses every timing") {
  const TempDir dir;
  const std::string path = (dir.path / "sub" / "cache.json").string();
  double conv_ms = 0, matmul_ms = 0;
  {
    MeasuredCostModel model(path, {1, 3});
    conv_ms = model.cost(conv().get());
    matmul_ms = model.cost(matmul().get());
    CHECK(model.cost(conv().get()) == conv_ms);  // cached, not re-measured
    CHECK(model.measured_count() == 2);
    model.save();
    CHECK(model.name().rfind("measured(", 0) == 0);
  }
  const CostTable written = CostTable::load(path);
  CHECK(written.size() == 2);
  CHECK(written.machine() == machine_description({1, 3}));
  CHECK(written.find(cost_key(conv().get())) == conv_ms);

  MeasuredCostModel again(path, {1, 3});
  CHECK(again.cost(conv().get()) == conv_ms);
  CHECK(again.cost(matmul().get()) == matmul_ms);
  CHECK(again.measured_count() == 0);
}

TEST_CASE("the destructor saves new measurements") {
  const TempDir dir;
  const std::string path = (dir.path / "cache.json").string();
  { MeasuredCostModel(path, MeasureOptions{0, 1}).cost(matmul().get()); }
  CHECK(CostTable::load(path).size() == 1);
}

TEST_CASE("a table measured on another machine is refused") {
  const TempDir dir;
  const std::string path = (dir.path / "other.json").string();
  CostTable other("some other machine");
  other.set(cost_key(matmul().get()), 1.0);
  other.save(path);
  try {
    MeasuredCostModel model(path);
    FAIL("no error");
  } catch (const Error& error) {
    CHECK(std::string(error.what()).find("some other machine") != std::string::npos);
    CHECK(error.where().file == path);
  }
}

TEST_CASE("views cost nothing; what the executor cannot run fails or falls back") {
  const TempDir dir;
  const Instance reshape = make(Op::kReshape, {{{4, 6}}}, {std::vector<std::int64_t>{6, 4}});
  const std::vector<TensorType> types = {TensorType{{2, 2}}};
  const Instance opaque =
      make(Op::kOpaque, {{{2, 2}}}, {std::int64_t{3}, encode_output_types(types)});
  const Instance doubles = make(Op::kRelu, {{{4}, DType::kFloat64}}, {});

  MeasuredCostModel strict((dir.path / "a.json").string(), MeasureOptions{0, 1});
  CHECK(strict.cost(reshape.get()) == 0);
  CHECK_THROWS_AS(strict.cost(opaque.get()), Error);
  CHECK_THROWS_AS(strict.cost(doubles.get()), Error);
  CHECK(strict.measured_count() == 0);

  auto roofline = std::make_shared<RooflineCostModel>(builtin_profile("cpu-2core"));
  MeasuredCostModel lenient((dir.path / "b.json").string(), MeasureOptions{0, 1}, roofline);
  CHECK(lenient.cost(opaque.get()) == roofline->cost(opaque.get()));
  CHECK(lenient.name().find("else roofline") != std::string::npos);
}

// A timer that times matmuls at 1 ms and cannot time anything else, counting its calls.
class CountingTimer final : public OperatorTimer {
 public:
  std::string machine() const override { return "counting timer"; }
  double time_ms(const OpInstance& instance) const override {
    ++calls;
    if (instance.op != Op::kMatmul) throw Error("not a matmul");
    return 1.0;
  }
  mutable int calls = 0;
};

TEST_CASE("any timer fills the table; an instance it cannot time is asked once") {
  // The ONNX Runtime timer builds and runs a model per call: asked again for every e-node of an
  // instance it had refused, a search spent its time in failed timings.
  const TempDir dir;
  auto timer = std::make_shared<CountingTimer>();
  auto roofline = std::make_shared<RooflineCostModel>(builtin_profile("cpu-2core"));
  const MeasuredCostModel model((dir.path / "c.json").string(), timer, roofline);
  CHECK(model.cost(matmul().get()) == 1.0);
  CHECK(model.cost(matmul().get()) == 1.0);
  CHECK(model.cost(conv().get()) == roofline->cost(conv().get()));
  CHECK(model.cost(conv().get()) == roofline->cost(conv().get()));
  CHECK(timer->calls == 2);
  CHECK(model.measured_count() == 1);
  CHECK(model.table().machine() == "counting timer");
  // Without a fallback, the timer's reason and what would price the instance.
  const MeasuredCostModel strict((dir.path / "s.json").string(), timer, nullptr);
  CHECK_THROWS_WITH_AS(strict.cost(conv().get()),
                       doctest::Contains("not a matmul (a fallback cost model prices what cannot "
                                         "be timed: --cost-fallback"),
                       Error);
}

}  // namespace
}  // namespace mctsat::runtime
