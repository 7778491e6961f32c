// Timing single operators with the oneDNN executor, naming the machine, and the cached cost model.
#include "runtime/measured_cost_model.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <thread>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <oneapi/dnnl/dnnl.hpp>

#include "runtime/dnnl_executor.hpp"
#include "runtime/timed_execution.hpp"
#include "support/error.hpp"
#include "support/stable_hash.hpp"
#include "support/user_cache.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/single_op_graph.hpp"

namespace mctsat::runtime {

using namespace tensor;
namespace {

// Operands a model would hold as weights: the executor prepares them once, so timing them as
// run-time inputs would add a per-run kernel reorder no model pays.
bool weight_operand(Op op, std::size_t index) {
  return (op == Op::kConv2d && index == 1) || (op == Op::kBatchNorm && index >= 1);
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

std::string isa_name(dnnl::cpu_isa isa) {
  switch (isa) {
    case dnnl::cpu_isa::sse41:
      return "sse41";
    case dnnl::cpu_isa::avx:
      return "avx";
    case dnnl::cpu_isa::avx2:
      return "avx2";
    case dnnl::cpu_isa::avx2_vnni:
      return "avx2_vnni";
    case dnnl::cpu_isa::avx512_core:
      return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx:
      return "avx512_core_amx";
    default:
      return fmt::format("isa {:#x}", static_cast<unsigned>(isa));
  }
}

// Bytes written to push an operator's operands out of the core's private caches: four times the
// L2 (the largest private level on the CPUs we run on; it need not be strictly LRU).
std::size_t eviction_bytes() {
  const long l2 = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
  return 4 * static_cast<std::size_t>(l2 > 0 ? l2 : 2L << 20);
}

// Touches one byte per cache line of a buffer larger than the private caches, so that what ran
// before (the operator's own operands included) is evicted.
thread_local volatile unsigned char eviction_sink = 0;  // keeps the touches from being elided

void evict_private_caches() {
  thread_local std::vector<unsigned char> scratch(eviction_bytes());
  unsigned char sum = 0;
  for (std::size_t i = 0; i < scratch.size(); i += 64) sum += ++scratch[i];
  eviction_sink = sum;
}

}  // namespace

double measure_op(const OpInstance& instance, const MeasureOptions& options) {
  if (options.repeats < 1 || options.executors < 1 || options.warmup < 0)
    throw Error(
        fmt::format("measurement needs at least one timed run on at least one executor and no "
                    "negative warm-up, got {} runs on {} executors after {} warm-ups",
                    options.repeats, options.executors, options.warmup));
  const Graph graph = single_op_graph(instance, weight_operand);
  const std::map<std::string, Tensor> inputs = random_inputs(graph, 1);
  const ExecutionClock clock = ExecutionClock::for_executor_threads();
  double fastest = std::numeric_limits<double>::infinity();
  std::vector<double> times;
  for (int e = 0; e < options.executors; ++e) {
    DnnlExecutor executor(graph);
    executor.set_inputs(inputs);
    for (int i = 0; i < options.warmup; ++i) executor.execute();
    times.clear();
    for (int i = 0; i < options.repeats; ++i) {
      if (options.evict) evict_private_caches();
      const double start = clock.now_ms();
      executor.execute();
      times.push_back(clock.now_ms() - start);
    }
    fastest = std::min(fastest, quantile(times, 0.5));
  }
  return fastest;
}

std::string machine_description(const MeasureOptions& options) {
  const dnnl_version_t* version = dnnl::version();
  return fmt::format(
      "{}, {} hardware threads, oneDNN {}.{}.{} {}, {} executor threads, fastest of {} "
      "executors' medians of {} runs ({}){}",
      cpu_model(), std::thread::hardware_concurrency(), version->major, version->minor,
      version->patch, isa_name(dnnl::get_effective_cpu_isa()), executor_threads(),
      options.executors, options.repeats, ExecutionClock::for_executor_threads().name(),
      options.evict ? " from evicted caches" : "");
}

std::string default_measured_cache_path(const MeasureOptions& options) {
  return user_cache_file(fmt::format("measured-{:016x}.json", fnv1a(machine_description(options))));
}

MeasuredCostModel::MeasuredCostModel(std::string cache_path, MeasureOptions options,
                                     std::shared_ptr<const CostModel> fallback)
    : MeasuredCostModel(std::move(cache_path), std::make_shared<DnnlOperatorTimer>(options),
                        std::move(fallback)) {}

MeasuredCostModel::MeasuredCostModel(std::string cache_path,
                                     std::shared_ptr<const OperatorTimer> timer,
                                     std::shared_ptr<const CostModel> fallback)
    : cache_path_(std::move(cache_path)),
      timer_(std::move(timer)),
      fallback_(std::move(fallback)),
      table_(timer_->machine()) {
  if (!std::filesystem::exists(cache_path_)) return;
  CostTable cached = CostTable::load(cache_path_);
  if (cached.machine() != table_.machine())
    throw Error(fmt::format("the cost table was measured on '{}', this machine is '{}' (use "
                            "another cache file)",
                            cached.machine(), table_.machine()),
                SourceLocation::at(cache_path_));
  table_ = std::move(cached);
}

MeasuredCostModel::~MeasuredCostModel() {
  try {
    save();
  } catch (const Error&) {
    // Documented: losing a cache write only costs a re-measurement later.
  }
}

double MeasuredCostModel::cost(const OpInstance& instance) const {
  if (signature(instance.op).view) return 0;
  std::string key = cost_key(instance);
  std::lock_guard lock(mutex_);
  if (const auto ms = table_.find(key)) return *ms;
  if (fallback_ && untimed_.contains(key)) return fallback_->cost(instance);
  double ms = 0;
  try {
    ms = timer_->time_ms(instance);
  } catch (const Error& e) {
    if (!fallback_)
      throw Error(e.message() +
                      " (a fallback cost model prices what cannot be timed: --cost-fallback, or "
                      "cost_fallback=True in Python)",
                  e.where());
    untimed_.insert(std::move(key));
    return fallback_->cost(instance);
  }
  table_.set(std::move(key), ms);
  ++measured_;
  dirty_ = true;
  return ms;
}

std::string MeasuredCostModel::name() const {
  std::string name = fmt::format("measured({})", table_.machine());
  if (fallback_) name += " else " + fallback_->name();
  return name;
}

void MeasuredCostModel::save() const {
  std::lock_guard lock(mutex_);
  if (!dirty_) return;
  const std::filesystem::path path(cache_path_);
  std::error_code ignored;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ignored);
  table_.save(cache_path_);
  dirty_ = false;
}

CostTable MeasuredCostModel::table() const {
  std::lock_guard lock(mutex_);
  return table_;
}

std::size_t MeasuredCostModel::measured_count() const {
  std::lock_guard lock(mutex_);
  return measured_;
}

}  // namespace mctsat::runtime
