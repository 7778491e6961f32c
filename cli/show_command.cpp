// `mctsat show MODEL`: what a model is (operators, inputs, outputs, parameters) and what it
// costs under a cost model, with its costliest operators; `--dot`/`--svg` also draw it.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/cost_options.hpp"
#include "cli/model_options.hpp"
#include "frontend/graph_dot.hpp"
#include "frontend/graph_svg.hpp"
#include "frontend/model_io.hpp"
#include "support/files.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/runtime_fusions.hpp"

namespace mctsat::cli {
namespace {

struct ShowOptions {
  std::string model;
  CostOptions cost;
  ModelOptions model_options;
  std::size_t top = 5;
  bool json = false;
  std::string dot;  // also write the drawing as DOT
  std::string svg;  // ... or as SVG
};

nlohmann::json tensor_list(const tensor::Graph& graph, bool inputs) {
  nlohmann::json list = nlohmann::json::array();
  if (inputs) {
    for (const tensor::Node& node : graph.nodes()) {
      if (node.op == tensor::Op::kInput)
        list.push_back({{"name", node.name}, {"type", type_string(node.outputs[0])}});
    }
  } else {
    for (const auto& out : graph.outputs())
      list.push_back({{"name", out.name}, {"type", type_string(graph.type_of(out.tensor))}});
  }
  return list;
}

nlohmann::json build_report(const ShowOptions& options, const tensor::Graph& graph) {
  const tensor::GraphStats stats = tensor::graph_stats(graph);
  const auto model = options.cost.make();
  tensor::AsRunCosts as_run = tensor::as_run_costs(graph, *model);
  std::vector<tensor::NodeCost>& costs = as_run.nodes;
  const double total = as_run.total_ms;
  std::stable_sort(costs.begin(), costs.end(),
                   [](const auto& a, const auto& b) { return a.cost_ms > b.cost_ms; });

  nlohmann::json operators = nlohmann::json::object();
  for (const auto& [op, count] : stats.by_op) operators[std::string(tensor::op_name(op))] = count;
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i = 0; i < std::min(options.top, costs.size()) && costs[i].cost_ms > 0; ++i) {
    const tensor::Node& node = graph.node(costs[i].node);
    top.push_back(
        {{"node", node.name}, {"op", tensor::op_name(node.op)}, {"ms", costs[i].cost_ms}});
    if (node.opaque) top.back()["opaque"] = node.opaque->type;
  }
  // Opaque operators by the type their frontend gave them (ONNX op_type: LayerNormalization, ...).
  nlohmann::json opaque = nlohmann::json::object();
  for (const tensor::Node& node : graph.nodes())
    if (node.op == tensor::Op::kOpaque && node.opaque)
      opaque[node.opaque->type] = opaque.value(node.opaque->type, 0) + 1;
  return {{"model", options.model},
          {"nodes", graph.size()},
          {"operators", stats.operators},
          {"operator_counts", operators},
          {"opaque_counts", opaque},
          {"inputs", tensor_list(graph, true)},
          {"outputs", tensor_list(graph, false)},
          {"weights", stats.weights},
          {"parameters", stats.parameters},
          {"weights_with_values", stats.weights_with_values},
          {"cost",
           {{"model", model->name()},
            {"total_ms", total},
            {"fused_operators", as_run.fused},
            {"copies_ms", as_run.copies_ms},
            {"costliest", top}}}};
}

void print_show_report(const nlohmann::json& r) {
  auto count = [](std::size_t n, const char* noun) {
    return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
  };
  std::cout << fmt::format(
      "model {}: {}, {}, {} ({} parameters, {} with values)\n", r["model"].get<std::string>(),
      count(r["operators"].get<std::size_t>(), "operator"), count(r["inputs"].size(), "input"),
      count(r["weights"].get<std::size_t>(), "weight"), r["parameters"].get<std::int64_t>(),
      r["weights_with_values"].get<std::size_t>());
  std::string counts;
  for (const auto& [op, n] : r["operator_counts"].items())
    counts += fmt::format(" {} {},", op, n.get<std::size_t>());
  if (!counts.empty()) counts.pop_back();
  std::cout << "operators:" << counts << '\n';
  for (const char* side : {"inputs", "outputs"}) {
    std::cout << side << ':';
    for (const auto& t : r[side])
      std::cout << ' ' << t["name"].get<std::string>() << ' ' << t["type"].get<std::string>();
    std::cout << '\n';
  }
  const auto& cost = r["cost"];
  std::cout << fmt::format("cost ({}): {:.4f} ms\n", cost["model"].get<std::string>(),
                           cost["total_ms"].get<double>());
  if (cost["fused_operators"].get<std::size_t>() > 0 || cost["copies_ms"].get<double>() > 0)
    std::cout << fmt::format("  of which {:.4f} ms copies the runtime adds; {} operators it fuses "
                             "cost nothing\n",
                             cost["copies_ms"].get<double>(),
                             cost["fused_operators"].get<std::size_t>());
  if (!cost["costliest"].empty()) std::cout << "costliest operators:\n";
  const double total = cost["total_ms"].get<double>();
  for (const auto& entry : cost["costliest"]) {
    const double ms = entry["ms"].get<double>();
    std::cout << fmt::format("  {:<24} {:<10} {:9.4f} ms {:5.1f}%\n",
                             entry["node"].get<std::string>(), entry["op"].get<std::string>(), ms,
                             total > 0 ? 100 * ms / total : 0.0);
  }
}

}  // namespace

void add_show_command(CLI::App& app) {
  auto options = std::make_shared<ShowOptions>();
  CLI::App* command = app.add_subcommand("show", "Summarize a model and its estimated cost");
  command->add_option("model", options->model, "Zoo model name or model file")->required();
  options->cost.add_to(*command);
  options->model_options.add_to(*command);
  command->add_option("--top", options->top, "How many of the costliest operators to list")
      ->capture_default_str();
  command->add_flag("--json", options->json, "Print JSON");
  command->add_option("--dot", options->dot, "Also draw the graph into this Graphviz DOT file");
  command->add_option("--svg", options->svg, "Also draw the graph into this SVG file (Graphviz)");
  command->callback([options] {
    const tensor::Graph graph = options->model_options.load(options->model);
    const std::string title = std::filesystem::path(options->model).stem().string();
    if (!options->dot.empty())
      write_file_atomically(options->dot, frontend::graph_to_dot(graph, title));
    if (!options->svg.empty())
      write_file_atomically(options->svg, frontend::graph_to_svg(graph, title));
    const nlohmann::json report = build_report(*options, graph);
    if (options->json) {
      std::cout << report.dump(2) << '\n';
    } else {
      print_show_report(report);
      for (const std::string* file : {&options->dot, &options->svg})
        if (!file->empty()) std::cout << "wrote " << *file << '\n';
    }
  });
}

}  // namespace mctsat::cli
