// `mctsat run MODEL`: evaluates a model on seeded random inputs (and seeded random weights where a
// weight has no values) and prints a summary of each output. `--engine reference` (the default)
// uses the float64 reference interpreter; `--engine dnnl` runs the oneDNN executor and times
// end-to-end inference over `--runs` runs; `--compare OTHER` runs a second model (e.g. the
// optimized graph) on the same inputs, interleaved with the first, and reports the real speedup
// and the largest difference between their outputs.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/model_options.hpp"
#include "cli/number_checks.hpp"
#include "frontend/model_io.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "runtime/dnnl_executor.hpp"
#include "runtime/timed_execution.hpp"
#include "support/error.hpp"
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

nlohmann::json run_reference(const RunOptions& options, const tensor::Graph& graph) {
  if (options.runs > 0 || !options.compare.empty())
    throw Error("--runs and --compare time the oneDNN executor: add --engine dnnl");
  const auto inputs = tensor::random_inputs(graph, options.seed);
  tensor::InterpretOptions interpret_options = frontend::with_onnx_opaque_evaluator({});
  interpret_options.random_weight_seed = options.seed;
  const auto start = Clock::now();
  const std::vector<tensor::Tensor> outputs = tensor::interpret(graph, inputs, interpret_options);
  return {{"model", options.model},
          {"engine", "reference"},
          {"seed", options.seed},
          {"seconds", std::chrono::duration<double>(Clock::now() - start).count()},
          {"outputs", output_summary(graph, outputs)}};
}

nlohmann::json run_dnnl(const RunOptions& options, const tensor::Graph& graph) {
  if (options.threads > 0) runtime::set_executor_threads(options.threads);
  const auto inputs = tensor::random_inputs(graph, options.seed);
  std::vector<std::string> names{options.model};
  std::vector<runtime::TimedGraph> timed;
  // Opaque operators run on the host with the ONNX reference operators (reported: slow).
  const tensor::OpaqueEvaluator opaque = frontend::onnx_opaque_evaluator();
  timed.emplace_back(graph, inputs, options.seed, opaque);
  if (!options.compare.empty()) {
    names.push_back(options.compare);
    timed.emplace_back(frontend::load_model(options.compare), inputs, options.seed, opaque);
  }
  runtime::time_interleaved(timed, options.runs, options.warmup);

  nlohmann::json report = {{"model", options.model},
                           {"engine", "dnnl"},
                           {"seed", options.seed},
                           {"threads", runtime::executor_threads()},
                           {"clock", runtime::ExecutionClock::for_executor_threads().name()},
                           {"primitives", timed[0].primitives()},
                           {"host_fallback_operators", timed[0].host_steps()},
                           {"prepare_seconds", timed[0].prepare_seconds()},
                           {"outputs", output_summary(graph, timed[0].outputs())}};
  const auto original = runtime::TimingStats::of(timed[0].times_ms());
  if (options.runs > 0) report["timing"] = original.to_json();
  if (timed.size() == 2) {
    const runtime::TimedGraph& other = timed[1];
    nlohmann::json compared = {
        {"model", names[1]},
        {"primitives", other.primitives()},
        {"host_fallback_operators", other.host_steps()},
        {"prepare_seconds", other.prepare_seconds()},
        {"outputs_finite",
         runtime::outputs_finite(timed[0].outputs()) && runtime::outputs_finite(other.outputs())},
        {"max_relative_difference",
         runtime::max_relative_difference(timed[0].outputs(), other.outputs())}};
    if (options.runs > 0) {
      const auto stats = runtime::TimingStats::of(other.times_ms());
      compared["timing"] = stats.to_json();
      compared["speedup"] = original.median_ms / stats.median_ms - 1.0;
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

void print_run_report(const nlohmann::json& r) {
  const std::string model = r["model"].get<std::string>();
  if (r["engine"] == "reference") {
    std::cout << fmt::format("{}: evaluated with the reference interpreter in {:.3f} s (seed {})\n",
                             model, r["seconds"].get<double>(), r["seed"].get<std::uint64_t>());
  } else {
    std::cout << fmt::format(
        "{}: oneDNN executor, {} primitives, {} threads ({}), prepared in {:.3f} s (seed {})\n",
        model, r["primitives"].get<std::size_t>(), r["threads"].get<int>(),
        r["clock"].get<std::string>(), r["prepare_seconds"].get<double>(),
        r["seed"].get<std::uint64_t>());
    if (const auto host = r["host_fallback_operators"].get<std::size_t>(); host > 0)
      std::cout << fmt::format(
          "  {} opaque operators ran on the host with the ONNX reference operators (slow; "
          "included in the times)\n",
          host);
    if (r.contains("timing")) std::cout << "  time     " << timing_line(r["timing"]) << '\n';
  }
  for (const auto& out : r["outputs"])
    std::cout << fmt::format(
        "  {:<16} {:<20} mean {:+.6e}  min {:+.6e}  max {:+.6e}\n", out["name"].get<std::string>(),
        tensor::shape_string(out["shape"].get<tensor::Shape>()), out["mean"].get<double>(),
        out["min"].get<double>(), out["max"].get<double>());
  if (!r.contains("compare")) return;
  const auto& c = r["compare"];
  std::cout << fmt::format("compared with {}: {} primitives, {}\n", c["model"].get<std::string>(),
                           c["primitives"].get<std::size_t>(),
                           c["outputs_finite"].get<bool>()
                               ? fmt::format("max relative output difference {:.2e}",
                                             c["max_relative_difference"].get<double>())
                               : std::string("outputs overflow (NaN or infinity): not compared"));
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
      ->check(non_negative_integer)
      ->capture_default_str();
  command->add_option("--runs", options->runs, "Timed end-to-end runs (dnnl)")
      ->check(non_negative_number)
      ->capture_default_str();
  command->add_option("--warmup", options->warmup, "Untimed runs before timing (dnnl)")
      ->check(non_negative_number)
      ->capture_default_str();
  command
      ->add_option("--threads", options->threads,
                   "oneDNN threads (dnnl; default: OpenMP's, i.e. OMP_NUM_THREADS or all cores)")
      ->check(thread_count());
  command->add_option("--compare", options->compare,
                      "A second model (e.g. the optimized graph) run on the same inputs, "
                      "interleaved: reports the speedup and the output difference (dnnl)");
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([options, command] {
    // The reference interpreter is not timed: options of the timed executor need --engine dnnl
    // (--runs and --compare are checked by run_reference).
    if (options->engine != "dnnl")
      for (const char* flag : {"--warmup", "--threads"})
        if (command->count(flag) > 0)
          throw Error(fmt::format("{} applies to the oneDNN executor: add --engine dnnl", flag));
    const tensor::Graph graph = options->model_options.load(options->model);
    const nlohmann::json report =
        options->engine == "dnnl" ? run_dnnl(*options, graph) : run_reference(*options, graph);
    if (options->json)
      std::cout << report.dump(2) << '\n';
    else
      print_run_report(report);
  });
}

}  // namespace mctsat::cli
