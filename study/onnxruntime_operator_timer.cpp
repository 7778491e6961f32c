// Timing one-operator models in ONNX Runtime through its profiler (see the header).
#include "study/onnxruntime_operator_timer.hpp"

#include <cstdio>
#include <filesystem>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/model_io.hpp"
#include "study/machine_info.hpp"
#include "study/onnxruntime_measurement.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/stable_hash.hpp"
#include "support/user_cache.hpp"
#include "tensor/single_op_graph.hpp"

namespace mctsat::study {

using nlohmann::json;
using tensor::Op;

namespace {

constexpr int kWarmup = 2, kRuns = 10;
// One instance: loading its model and 12 runs; a large convolution takes well under a second.
constexpr double kAnswerSeconds = 120;

// Operands a model holds as initializers: a convolution's kernel, batch normalization's
// parameters, a product's rank-2 right operand (a linear layer's weight).
bool initializer_operand(const tensor::OpInstance& instance, std::size_t index) {
  switch (instance.op) {
    case Op::kConv2d:
      return index == 1;
    case Op::kBatchNorm:
      return index >= 1;
    case Op::kMatmul:
      return index == 1 && instance.inputs[index].shape.size() == 2;
    default:
      return false;
  }
}

// ONNX Runtime fuses GELU's tanh form into its FastGelu only where the result is no graph output,
// as it never is inside a model; alone, the operator's result is one. So a tanh gelu is timed read
// by a relu, whose kernel the sum leaves out. The Relu type its request names as uncounted.
bool timed_with_reader(const tensor::OpInstance& instance) {
  return instance.op == Op::kGelu && tensor::attr_int(instance.attrs.at(0)) == 1;
}

tensor::Graph read_by_relu(const tensor::Graph& graph) {
  tensor::Graph read;
  for (const tensor::Node& node : graph.nodes()) read.add_node(node);
  for (const tensor::GraphOutput& out : graph.outputs()) {
    tensor::Node relu;
    relu.name = out.name + "/reader";
    relu.op = Op::kRelu;
    relu.inputs = {out.tensor};
    read.add_output(out.name, {read.add_node(std::move(relu)), 0});
  }
  read.infer_and_validate();
  return read;
}

std::string onnxruntime_version(const std::string& dir) {
  const json package = json::parse(
      read_text_file(dir + "/node_modules/onnxruntime-node/package.json", 1 << 20), nullptr, false);
  if (!package.is_object() || !package.contains("version") || !package["version"].is_string())
    throw Error("onnxruntime-node's package.json names no version",
                SourceLocation::at(dir + "/node_modules/onnxruntime-node/package.json"));
  return package["version"].get<std::string>();
}

// onnxruntime-node profiles from 1.21 on (sessionOptions.enableProfiling).
bool can_profile(const std::string& version) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(version.c_str(), "%u.%u", &major, &minor) != 2) return false;
  return major > 1 || (major == 1 && minor >= 21);
}

}  // namespace

OnnxRuntimeOperatorTimer::OnnxRuntimeOperatorTimer(std::string dir)
    : dir_(std::move(dir)), scratch_("mctsat-ort-costs") {
  require_onnxruntime(dir_, SourceLocation{}, "--cost onnxruntime times operators in ONNX Runtime");
  version_ = onnxruntime_version(dir_);
  if (!can_profile(version_))
    throw Error(fmt::format("--cost onnxruntime needs onnxruntime-node 1.21 or later, whose "
                            "profiler it reads; '{}' holds {} (tests/data/install-onnxruntime.sh "
                            "installs one that profiles)",
                            dir_, version_));
}

OnnxRuntimeOperatorTimer::~OnnxRuntimeOperatorTimer() = default;

std::string OnnxRuntimeOperatorTimer::machine() const {
  return fmt::format(
      "{}, {} hardware threads, onnxruntime-node {}, 1 thread, level all, kernels' fastest of {} "
      "profiled runs",
      machine_info()["cpu"].get<std::string>(), std::thread::hardware_concurrency(), version_,
      kRuns);
}

double OnnxRuntimeOperatorTimer::time_ms(const tensor::OpInstance& instance) const {
  if (instance.op == Op::kOpaque || instance.op == Op::kNoop)
    throw Error(fmt::format("ONNX Runtime does not time {} operators here",
                            tensor::op_name(instance.op)));
  for (const tensor::TensorType& type : instance.inputs)
    if (type.dtype != tensor::DType::kFloat32)
      throw Error("ONNX Runtime times operators on float32 operands only here");
  const tensor::Graph alone = tensor::single_op_graph(
      instance, [&](Op, std::size_t index) { return initializer_operand(instance, index); });
  const bool with_reader = timed_with_reader(instance);
  const tensor::Graph graph = with_reader ? read_by_relu(alone) : alone;
  const std::string model = scratch_.file(fmt::format("op{}.onnx", timed_++));
  frontend::save_model(graph, model);
  json request = {{"model", model}, {"warmup", kWarmup}, {"runs", kRuns}};
  if (with_reader) request["uncounted"] = {"Relu"};
  request["inputs"] = json::array();
  for (const tensor::Node& node : graph.nodes())
    if (node.op == Op::kInput) request["inputs"].push_back(onnxruntime_input_spec(node));
  if (!server_) {
    const std::string script = scratch_.file("ort-compare.cjs");
    write_compare_script(script);
    server_ = std::make_unique<LineServer>(std::vector<std::string>{
        "node", script, "--ort", dir_, "--serve-op-times", scratch_.path()});
  }
  std::string line;
  try {
    line = server_->ask(request.dump(), kAnswerSeconds);
  } catch (const Error&) {
    server_.reset();  // ended or hung: the next instance starts another
    throw;
  }
  const json answer = json::parse(line, nullptr, false);
  std::filesystem::remove(model);
  if (!answer.is_object() || answer.contains("error") || !answer.contains("ms") ||
      !answer["ms"].is_number())
    throw Error(fmt::format("ONNX Runtime could not time {}: {}", tensor::op_name(instance.op),
                            answer.is_object() && answer.contains("error")
                                ? answer["error"].dump()
                                : std::string("no time in its answer")));
  return answer["ms"].get<double>();
}

std::string default_onnxruntime_cache_path(const OnnxRuntimeOperatorTimer& timer) {
  return user_cache_file(fmt::format("onnxruntime-{:016x}.json", fnv1a(timer.machine())));
}

}  // namespace mctsat::study
