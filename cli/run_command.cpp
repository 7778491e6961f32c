// `mctsat run MODEL`: evaluates a model on seeded random inputs (and seeded random weights where a
// weight has no values) and prints a summary of each output. Today's engine is the reference
// interpreter (float64, exact and slow); oneDNN execution comes with the CPU backend.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "frontend/model_io.hpp"
#include "tensor/interpreter.hpp"

namespace mctsat::cli {

void add_run_command(CLI::App& app) {
  struct Options {
    std::string model;
    std::uint64_t seed = 1;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("run", "Evaluate a model on random inputs with the reference interpreter");
  command->add_option("model", options->model, "Zoo model name or model file")->required();
  command->add_option("--seed", options->seed, "Seed of the random inputs and missing weights")
      ->capture_default_str();
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([options] {
    const tensor::Graph graph = frontend::load_model(options->model);
    const auto inputs = tensor::random_inputs(graph, options->seed);
    tensor::InterpretOptions interpret_options;
    interpret_options.random_weight_seed = options->seed;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<tensor::Tensor> outputs = tensor::interpret(graph, inputs, interpret_options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    nlohmann::json report = {{"model", options->model},
                             {"engine", "reference"},
                             {"seed", options->seed},
                             {"seconds", seconds},
                             {"outputs", nlohmann::json::array()}};
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const auto& data = outputs[i].data;
      const double sum = std::accumulate(data.begin(), data.end(), 0.0);
      const auto [min, max] = std::minmax_element(data.begin(), data.end());
      report["outputs"].push_back(
          {{"name", graph.outputs()[i].name},
           {"shape", outputs[i].shape},
           {"mean", data.empty() ? 0.0 : sum / static_cast<double>(data.size())},
           {"min", data.empty() ? 0.0 : *min},
           {"max", data.empty() ? 0.0 : *max}});
    }
    if (options->json) {
      std::cout << report.dump(2) << '\n';
      return;
    }
    std::cout << fmt::format("{}: evaluated with the reference interpreter in {:.3f} s (seed {})\n",
                             options->model, seconds, options->seed);
    for (const auto& out : report["outputs"])
      std::cout << fmt::format(
          "  {:<16} {:<20} mean {:+.6e}  min {:+.6e}  max {:+.6e}\n",
          out["name"].get<std::string>(), tensor::shape_string(out["shape"].get<tensor::Shape>()),
          out["mean"].get<double>(), out["min"].get<double>(), out["max"].get<double>());
  });
}

}  // namespace mctsat::cli
