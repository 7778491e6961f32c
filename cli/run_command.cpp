// `mctsat run MODEL`: evaluates a model on seeded random inputs (and seeded random weights where a
// weight has no values) and prints a summary of each output. `--engine reference` (the default)
// uses the float64 reference interpreter; `--engine dnnl` runs the oneDNN executor and times
// end-to-end inference over `--runs` runs; `--compare OTHER` runs a second model (e.g. the
// optimized graph) on the same inputs, interleaved with the first, and reports the real speedup
// and the largest difference between their outputs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <numeric>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/model_options.hpp"
#include "frontend/model_io.hpp"
#include "support/error.hpp"
#include "tensor/dnnl_executor.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::cli {
namespace {

struct RunOptions {
  std::string model;
  ModelOptions model_options;
  std::string engine = "reference";
  std::string compare;
  std::uint64_t seed = 1;
  int runs = 0;
  int warmup = 3;
  int threads = 0;
  bool json = false;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

nlohmann::json output_summary(const tensor::Graph& graph,
                              const std::vector<tensor::Tensor>& outputs) {
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const auto& data = outputs[i].data;
    const double sum = std::accumulate(data.begin(), data.end(), 0.0);
    const auto [min, max] = std::minmax_element(data.begin(), data.end());
    list.push_back({{"name", graph.outputs()[i].name},
                    {"shape", outputs[i].shape},
                    {"mean", data.empty() ? 0.0 : sum / static_cast<double>(data.size())},
                    {"min", data.empty() ? 0.0 : *min},
                    {"max", data.empty() ? 0.0 : *max}});
  }
  return list;
}

// Median, minimum and maximum of timings in ms.
nlohmann::json timing_summary(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
  return {{"runs", n}, {"median_ms", median}, {"min_ms", ms.front()}, {"max_ms", ms.back()}};
}

// max |a - b| / max |a| over all outputs, which must have the same shapes.
double max_relative_difference(const std::vector<tensor::Tensor>& a,
                               const std::vector<tensor::Tensor>& b) {
  if (a.size() != b.size())
    throw Error(fmt::format("the models have {} and {} outputs", a.size(), b.size()));
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].shape != b[i].shape)
      throw Error(fmt::format("output {} has shape {} in one model and {} in the other", i,
                              tensor::shape_string(a[i].shape), tensor::shape_string(b[i].shape)));
    for (std::size_t j = 0; j < a[i].data.size(); ++j) {
      diff = std::max(diff, std::abs(a[i].data[j] - b[i].data[j]));
      scale = std::max(scale, std::abs(a[i].data[j]));
    }
  }
  return scale > 0 ? diff / scale : diff;
}

nlohmann::json run_reference(const RunOptions& options, const tensor::Graph& graph) {
  if (options.runs > 0 || !options.compare.empty())
    throw Error("--runs and --compare time the oneDNN executor: add --engine dnnl");
  const auto inputs = tensor::random_inputs(graph, options.seed);
  tensor::InterpretOptions interpret_options;
  interpret_options.random_weight_seed = options.seed;
  const auto start = Clock::now();
  const std::vector<tensor::Tensor> outputs = tensor::interpret(graph, inputs, interpret_options);
  return {{"model", options.model},
          {"engine", "reference"},
          {"seed", options.seed},
          {"seconds", seconds_since(start)},
          {"outputs", output_summary(graph, outputs)}};
}

nlohmann::json run_dnnl(const RunOptions& options, const tensor::Graph& graph) {
  if (options.threads > 0) tensor::set_executor_threads(options.threads);
  const auto inputs = tensor::random_inputs(graph, options.seed);
  tensor::ExecutorOptions executor_options;
  executor_options.random_weight_seed = options.seed;

  // Each model: a prepared executor, its outputs on the inputs, its timings.
  struct Subject {
    std::string name;
    tensor::Graph graph;
    std::optional<tensor::DnnlExecutor> executor;
    double prepare_seconds = 0;
    std::vector<tensor::Tensor> outputs;
    std::vector<double> ms;
  };
  std::vector<Subject> subjects;
  subjects.push_back({options.model, graph, std::nullopt, 0, {}, {}});
  if (!options.compare.empty())
    subjects.push_back(
        {options.compare, frontend::load_model(options.compare), std::nullopt, 0, {}, {}});
  for (Subject& s : subjects) {
    const auto start = Clock::now();
    s.executor.emplace(s.graph, executor_options);
    s.executor->set_inputs(inputs);
    s.prepare_seconds = seconds_since(start);
    s.executor->execute();
    s.outputs = s.executor->outputs();
    for (int i = 0; i < options.warmup; ++i) s.executor->execute();
  }
  // Interleaved, alternating which model goes first, so drifts in machine load hit both alike.
  for (int run = 0; run < options.runs; ++run) {
    for (std::size_t k = 0; k < subjects.size(); ++k) {
      Subject& s = subjects[(k + static_cast<std::size_t>(run)) % subjects.size()];
      const auto start = Clock::now();
      s.executor->execute();
      s.ms.push_back(seconds_since(start) * 1e3);
    }
  }

  nlohmann::json report = {{"model", options.model},
                           {"engine", "dnnl"},
                           {"seed", options.seed},
                           {"threads", tensor::executor_threads()},
                           {"primitives", subjects[0].executor->primitive_count()},
                           {"prepare_seconds", subjects[0].prepare_seconds},
                           {"outputs", output_summary(graph, subjects[0].outputs)}};
  if (options.runs > 0) report["timing"] = timing_summary(subjects[0].ms);
  if (subjects.size() == 2) {
    const Subject& other = subjects[1];
    nlohmann::json compared = {
        {"model", other.name},
        {"primitives", other.executor->primitive_count()},
        {"prepare_seconds", other.prepare_seconds},
        {"max_relative_difference", max_relative_difference(subjects[0].outputs, other.outputs)}};
    if (options.runs > 0) {
      compared["timing"] = timing_summary(other.ms);
      compared["speedup"] = report["timing"]["median_ms"].get<double>() /
                                compared["timing"]["median_ms"].get<double>() -
                            1.0;
    }
    report["compare"] = std::move(compared);
  }
  return report;
}

std::string timing_line(const nlohmann::json& timing) {
  return fmt::format("median {:.3f} ms (min {:.3f}, max {:.3f}) over {} runs",
                     timing["median_ms"].get<double>(), timing["min_ms"].get<double>(),
                     timing["max_ms"].get<double>(), timing["runs"].get<int>());
}

void print_report(const nlohmann::json& r) {
  const std::string model = r["model"].get<std::string>();
  if (r["engine"] == "reference") {
    std::cout << fmt::format("{}: evaluated with the reference interpreter in {:.3f} s (seed {})\n",
                             model, r["seconds"].get<double>(), r["seed"].get<std::uint64_t>());
  } else {
    std::cout << fmt::format(
        "{}: oneDNN executor, {} primitives, {} threads, prepared in {:.3f} s (seed {})\n", model,
        r["primitives"].get<std::size_t>(), r["threads"].get<int>(),
        r["prepare_seconds"].get<double>(), r["seed"].get<std::uint64_t>());
    if (r.contains("timing")) std::cout << "  time     " << timing_line(r["timing"]) << '\n';
  }
  for (const auto& out : r["outputs"])
    std::cout << fmt::format(
        "  {:<16} {:<20} mean {:+.6e}  min {:+.6e}  max {:+.6e}\n", out["name"].get<std::string>(),
        tensor::shape_string(out["shape"].get<tensor::Shape>()), out["mean"].get<double>(),
        out["min"].get<double>(), out["max"].get<double>());
  if (!r.contains("compare")) return;
  const auto& c = r["compare"];
  std::cout << fmt::format(
      "compared with {}: {} primitives, max relative output difference {:.2e}\n",
      c["model"].get<std::string>(), c["primitives"].get<std::size_t>(),
      c["max_relative_difference"].get<double>());
  if (c.contains("timing"))
    std::cout << "  time     " << timing_line(c["timing"]) << '\n'
              << fmt::format("  speedup  {:+.2f}% (median against median, runs interleaved)\n",
                             100 * c["speedup"].get<double>());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run", "Evaluate a model on random inputs (reference interpreter or oneDNN, timed)");
  command->add_option("model", options->model, "Zoo model name or model file")->required();
  options->model_options.add_to(*command);
  command->add_option("--engine", options->engine, "reference (float64) or dnnl (oneDNN, float32)")
      ->check(CLI::IsMember({"reference", "dnnl"}))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of the random inputs and missing weights")
      ->capture_default_str();
  command->add_option("--runs", options->runs, "Timed end-to-end runs (dnnl)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--warmup", options->warmup, "Untimed runs before timing (dnnl)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command
      ->add_option("--threads", options->threads,
                   "oneDNN threads (dnnl; default: OpenMP's, i.e. OMP_NUM_THREADS or all cores)")
      ->check(CLI::PositiveNumber);
  command->add_option("--compare", options->compare,
                      "A second model (e.g. the optimized graph) run on the same inputs, "
                      "interleaved: reports the speedup and the output difference (dnnl)");
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([options] {
    const tensor::Graph graph = options->model_options.load(options->model);
    const nlohmann::json report =
        options->engine == "dnnl" ? run_dnnl(*options, graph) : run_reference(*options, graph);
    if (options->json)
      std::cout << report.dump(2) << '\n';
    else
      print_report(report);
  });
}

}  // namespace mctsat::cli
