// `mctsat extract EGRAPH.json`: extracts from an e-graph in the egraph-serialize format (the
// extraction-gym suite's, or one mctsat exported) with one or more extractors, and reports each
// one's exact DAG cost and time (and, for ilp and beam, the lower bound and the gap).
#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/search_flags.hpp"
#include "extract/extractor.hpp"
#include "extract/serialized_problem.hpp"
#include "support/error.hpp"

namespace mctsat::cli {

void add_extract_command(CLI::App& app) {
  struct Options {
    std::string path;
    std::vector<std::string> extractors{"greedy", "paper", "dag", "ilp"};
    search::OptimizeOptions registered;  // only its extractor's registered options
    extract::ExtractorOptions beam;      // only its beam_* fields
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("extract", "Extract from an egraph-serialize JSON e-graph");
  command->add_option("egraph", options->path, "E-graph file (egraph-serialize JSON)")->required();
  command->add_option("--extractor", options->extractors, "Extractors to run")
      ->check(CLI::IsMember(extract::extractor_names()))
      ->capture_default_str();
  // --ilp-seconds, --dag-restarts, --dag-chains: the option registry's flags and checks.
  add_search_flags(*command, options->registered, {"ilp_seconds", "dag_restarts", "dag_chains"});
  command
      ->add_option("--beam-width", options->beam.beam_width,
                   "Frontiers the beam extractor's search keeps")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}))
      ->capture_default_str();
  command
      ->add_option("--beam-class-width", options->beam.beam_class_width,
                   "Frontiers each of the beam extractor's class-bounding searches keeps")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100'000'000}))
      ->capture_default_str();
  command
      ->add_option("--beam-horizon", options->beam.beam_horizon,
                   "Positions a class-bounding search of the beam extractor covers")
      ->check(CLI::Range(2, 4096))
      ->capture_default_str();
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([options] {
    const extract::Problem problem = extract::load_problem(options->path);
    extract::ExtractorOptions extractor_options = options->beam;
    const extract::ExtractorOptions& registered = options->registered.extractor;
    extractor_options.time_limit_seconds = registered.time_limit_seconds;
    extractor_options.dag_restarts = registered.dag_restarts;
    extractor_options.dag_chains = registered.dag_chains;
    nlohmann::json results = nlohmann::json::array();
    for (const std::string& name : options->extractors) {
      const extract::Result r = extract::make_extractor(name, extractor_options)->extract(problem);
      nlohmann::json result = {{"extractor", name}};
      result.update(extract::result_json(r));
      results.push_back(std::move(result));
    }
    // No extraction is a failure of the command, after the results are printed.
    std::string infeasible;
    for (const auto& r : results)
      if (r["status"] == extract::status_name(extract::Status::kInfeasible))
        infeasible += (infeasible.empty() ? "" : ", ") + r["extractor"].get<std::string>();
    const auto fail_if_infeasible = [&] {
      if (!infeasible.empty())
        throw Error(fmt::format("no acyclic extraction of every root (infeasible): {}", infeasible),
                    SourceLocation::at(options->path));
    };
    if (options->json) {
      std::cout << nlohmann::json{{"egraph", options->path},
                                  {"classes", problem.num_classes()},
                                  {"nodes", problem.num_nodes()},
                                  {"results", results}}
                       .dump(2)
                << '\n';
      std::cout.flush();
      fail_if_infeasible();
      return;
    }
    std::cout << fmt::format("{}: {} classes, {} nodes\n", options->path, problem.num_classes(),
                             problem.num_nodes());
    for (const auto& r : results)
      std::cout << fmt::format(
          "  {:<8} cost {:>14}  {:>10.4f} s  {}{}\n", r["extractor"].get<std::string>(),
          r["dag_cost"].is_null() ? "none" : fmt::format("{:.6g}", r["dag_cost"].get<double>()),
          r["seconds"].get<double>(), r["status"].get<std::string>(),
          r["lower_bound"].is_null()
              ? ""
              : fmt::format("  (bound {:.6g}, gap {:.2f}%)", r["lower_bound"].get<double>(),
                            100 * r["gap"].get<double>()));
    std::cout.flush();
    fail_if_infeasible();
  });
}

}  // namespace mctsat::cli
