// Costs measured in ONNX Runtime (see onnxruntime_cost_model.hpp).
#include "study/onnxruntime_cost_model.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/model_io.hpp"
#include "study/machine_info.hpp"
#include "support/error.hpp"
#include "support/scratch_directory.hpp"
#include "support/stable_hash.hpp"
#include "support/subprocess.hpp"
#include "tensor/single_op_graph.hpp"

namespace mctsat::study {

using nlohmann::json;
using tensor::Op;

namespace {

constexpr int kWarmup = 3, kRuns = 15;

// Operands a model holds as initializers: a convolution's kernel, batch-normalization's
// parameters, a product's rank-2 right operand (a linear layer's weight; ONNX Runtime prepacks
// those once).
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

// What ONNX Runtime can be given here: a catalog operator on float32 tensors.
bool runnable(const tensor::OpInstance& instance) {
  if (instance.op == Op::kOpaque || instance.op == Op::kNoop) return false;
  for (const tensor::TensorType& type : instance.inputs)
    if (type.dtype != tensor::DType::kFloat32) return false;
  return true;
}

tensor::Graph instance_graph(const tensor::OpInstance& instance) {
  return tensor::single_op_graph(
      instance, [&](Op, std::size_t index) { return initializer_operand(instance, index); });
}

// A model that does no work but copy `elements` float32 values in and out: an Identity.
tensor::Graph overhead_graph(std::int64_t elements) {
  tensor::Graph graph;
  tensor::Node x;
  x.name = "x";
  x.attrs = {tensor::Shape{elements}};
  const tensor::NodeId in = graph.add_node(std::move(x));
  tensor::Node copy;
  copy.name = "copy";
  copy.op = Op::kIdentity;
  copy.inputs = {{in, 0}};
  graph.add_output("y", {graph.add_node(std::move(copy)), 0});
  graph.infer_and_validate();
  return graph;
}

// The model written to `path`, its inputs for ort-compare.cjs and the bytes its inputs and outputs
// move through the binding.
json model_job(const tensor::Graph& graph, const std::string& path) {
  frontend::save_model(graph, path);
  json inputs = json::array();
  std::int64_t bytes = 0;
  for (const tensor::Node& node : graph.nodes())
    if (node.op == Op::kInput) {
      inputs.push_back(onnxruntime_input_spec(node));
      bytes +=
          tensor::numel(node.outputs.at(0).shape) * tensor::dtype_bytes(node.outputs.at(0).dtype);
    }
  for (const tensor::GraphOutput& out : graph.outputs()) {
    const tensor::TensorType& type = graph.type_of(out.tensor);
    bytes += tensor::numel(type.shape) * tensor::dtype_bytes(type.dtype);
  }
  return {{"path", path}, {"inputs", inputs}, {"io_bytes", bytes}};
}

std::string onnxruntime_version(const std::string& ort_dir) {
  std::ifstream in(std::filesystem::path(ort_dir) / "node_modules" / "onnxruntime-node" /
                   "package.json");
  const json package = json::parse(in, nullptr, false);
  return package.is_object() && package.contains("version") && package["version"].is_string()
             ? package["version"].get<std::string>()
             : std::string("unknown");
}

}  // namespace

std::string onnxruntime_machine_description(const std::string& ort_dir) {
  return fmt::format(
      "{}, {} hardware threads, onnxruntime-node {}, 1 thread, level all, median of {} runs by "
      "CPU time less an empty run's",
      machine_info()["cpu"].get<std::string>(), std::thread::hardware_concurrency(),
      onnxruntime_version(ort_dir), kRuns);
}

std::string default_onnxruntime_cache_path(const std::string& ort_dir) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".cache";
  else
    base = ".";
  return (base / "mctsat" /
          fmt::format("onnxruntime-{:016x}.json", fnv1a(onnxruntime_machine_description(ort_dir))))
      .string();
}

OnnxRuntimeCostModel::OnnxRuntimeCostModel(OnnxRuntimeSetup setup, std::string cache_path,
                                           std::shared_ptr<const tensor::CostModel> fallback)
    : setup_(std::move(setup)),
      cache_path_(std::move(cache_path)),
      fallback_(std::move(fallback)),
      table_(onnxruntime_machine_description(setup_.dir)) {
  if (!std::filesystem::exists(cache_path_)) return;
  tensor::CostTable cached = tensor::CostTable::load(cache_path_);
  if (cached.machine() != table_.machine())
    throw Error(fmt::format("the cost table was measured on '{}', this machine is '{}' (use "
                            "another cache file)",
                            cached.machine(), table_.machine()),
                SourceLocation::at(cache_path_));
  table_ = std::move(cached);
}

OnnxRuntimeCostModel::~OnnxRuntimeCostModel() {
  try {
    save();
  } catch (const Error&) {
    // Documented: losing a cache write only costs a re-measurement later.
  }
}

void OnnxRuntimeCostModel::measure(std::vector<Pending>& pending) const {
  if (pending.empty()) return;
  const ScratchDirectory scratch("mctsat-ort-costs");
  std::string script = setup_.script;
  if (script.empty()) {
    script = scratch.file("ort-compare.cjs");
    write_compare_script(script);
  }
  json jobs = {{"warmup", kWarmup}, {"runs", kRuns}};
  jobs["overhead"] = {
      model_job(overhead_graph(1), scratch.file("overhead-small.onnx")),
      model_job(overhead_graph(std::int64_t{1} << 20), scratch.file("overhead-large.onnx"))};
  jobs["models"] = json::array();
  for (std::size_t i = 0; i < pending.size(); ++i)
    jobs["models"].push_back(
        model_job(pending[i].graph, scratch.file(fmt::format("op{}.onnx", i))));
  const std::string jobs_file = scratch.file("jobs.json");
  std::ofstream(jobs_file) << jobs.dump();
  const auto ran = run_program({"node", script, "--ort", setup_.dir, "--time-ops", jobs_file});
  if (!ran) throw Error("ONNX Runtime: node is not on PATH (scripts/install-deps.sh installs it)");
  if (ran->exit_code != 0)
    throw Error(fmt::format("ONNX Runtime could not time {} operator{} (exit {}): {}",
                            pending.size(), pending.size() == 1 ? "" : "s", ran->exit_code,
                            ran->err));
  const json report = json::parse(ran->out, nullptr, false);
  if (!report.is_object() || !report.contains("cpu_ms") || !report["cpu_ms"].is_array() ||
      report["cpu_ms"].size() != pending.size())
    throw Error("ONNX Runtime: ort-compare.cjs --time-ops printed no report: " + ran->out +
                ran->err);
  for (std::size_t i = 0; i < pending.size(); ++i)
    table_.set(std::move(pending[i].key), report["cpu_ms"][i].get<double>());
  measured_ += pending.size();
  dirty_ = true;
}

double OnnxRuntimeCostModel::cost(const tensor::OpInstance& instance) const {
  if (tensor::signature(instance.op).view) return 0;
  if (!runnable(instance)) {
    if (fallback_) return fallback_->cost(instance);
    throw Error(
        fmt::format("ONNX Runtime is not given {} here (catalog operators on float32 "
                    "tensors only): add --cost-fallback",
                    tensor::op_name(instance.op)));
  }
  std::string key = tensor::cost_key(instance);
  std::lock_guard lock(mutex_);
  if (const auto ms = table_.find(key)) return *ms;
  std::vector<Pending> pending;
  pending.push_back({key, instance_graph(instance)});
  measure(pending);
  return *table_.find(key);
}

void OnnxRuntimeCostModel::prefetch(const tensor::Graph& graph) const {
  std::lock_guard lock(mutex_);
  std::vector<Pending> pending;
  std::set<std::string> seen;
  tensor::for_each_priced_instance(graph, [&](tensor::NodeId, const tensor::OpInstance& instance) {
    if (!runnable(instance)) return;
    std::string key = tensor::cost_key(instance);
    if (table_.find(key) || !seen.insert(key).second) return;
    pending.push_back({std::move(key), instance_graph(instance)});
  });
  measure(pending);
}

std::string OnnxRuntimeCostModel::name() const {
  std::string name = "onnxruntime (measured per operator)";
  if (fallback_) name += " else " + fallback_->name();
  return name;
}

void OnnxRuntimeCostModel::save() const {
  std::lock_guard lock(mutex_);
  if (!dirty_) return;
  const std::filesystem::path path(cache_path_);
  std::error_code ignored;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ignored);
  table_.save(cache_path_);
  dirty_ = false;
}

std::size_t OnnxRuntimeCostModel::measured_count() const {
  std::lock_guard lock(mutex_);
  return measured_;
}

}  // namespace mctsat::study
