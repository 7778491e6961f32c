// `mctsat convert INPUT OUTPUT`: reads a model (zoo name or file) and writes it in the format
// the output's extension names.
#include <iostream>

#include "cli/commands.hpp"
#include "frontend/model_io.hpp"

namespace mctsat::cli {

void add_convert_command(CLI::App& app) {
  struct Options {
    std::string input, output;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("convert", "Convert a model between formats (.json, .onnx, .dot)");
  command->add_option("input", options->input, "Zoo model name or model file")->required();
  command->add_option("output", options->output, "Output file; its extension picks the format")
      ->required();
  command->callback([options] {
    const tensor::Graph graph = frontend::load_model(options->input);
    frontend::save_model(graph, options->output);
    std::cout << "wrote " << options->output << " (" << graph.size() << " nodes)\n";
  });
}

}  // namespace mctsat::cli
