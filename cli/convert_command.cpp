// `mctsat convert INPUT OUTPUT [--check]`: reads a model (zoo name or file) and writes it in the
// format the output's extension names; --check parses the output back (.json, .onnx) and compares
// its outputs with the input's on seeded random inputs before anything is written, so a failed
// check leaves no file behind.
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/model_options.hpp"
#include "cli/number_checks.hpp"
#include "frontend/equivalence_check.hpp"
#include "frontend/model_io.hpp"
#include "support/error.hpp"
#include "support/files.hpp"

namespace mctsat::cli {

void add_convert_command(CLI::App& app) {
  struct Options {
    std::string input, output;
    ModelOptions model;
    bool check = false;
    double tolerance = 1e-6;
    std::uint64_t seed = 1;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("convert", "Convert a model between formats (.json, .onnx, .dot, .svg)");
  command->add_option("input", options->input, "Zoo model name or model file")->required();
  options->model.add_to(*command);
  command->add_option("output", options->output, "Output file; its extension picks the format")
      ->required();
  command->add_flag("--check", options->check,
                    "Load the output back (.json, .onnx) and check numerically that it computes "
                    "the same outputs");
  command
      ->add_option("--tolerance", options->tolerance,
                   "--check: largest relative difference allowed")
      ->check(non_negative_number)
      ->capture_default_str();
  command->add_option("--seed", options->seed, "--check: random seed")
      ->check(non_negative_integer)
      ->capture_default_str();
  command->callback([options] {
    const Options& o = *options;
    const std::string extension = std::filesystem::path(o.output).extension().string();
    if (o.check && extension != ".json" && extension != ".onnx")
      throw Error(fmt::format("--check needs an output that loads back (.json or .onnx), not '{}'",
                              o.output));
    check_output_paths({{"OUTPUT", o.output}}, {o.input});
    const tensor::Graph graph = o.model.load(o.input);
    const std::string text = frontend::model_text(graph, o.output);
    if (o.check) {
      const tensor::Graph converted = frontend::parse_model(text, o.output);
      const nlohmann::json check =
          frontend::check_equivalence(graph, converted, o.tolerance, o.seed);
      if (check["passed"].get<bool>())
        std::cout << fmt::format(
            "check passed (max relative difference {:.3g}, max absolute difference {:.3g}, "
            "tolerance {:.3g})\n",
            check["max_relative_difference"].get<double>(),
            check["max_abs_difference"].get<double>(), o.tolerance);
      if (!check["passed"].get<bool>())
        throw Error(fmt::format("{}'s outputs differ from {}'s ({}); nothing written", o.output,
                                o.input, frontend::check_failure(check)));
    }
    write_file_atomically(o.output, text);
    std::cout << "wrote " << o.output << " (" << graph.size() << " nodes)\n";
  });
}

}  // namespace mctsat::cli
