// `mctsat optimize MODEL`: loads a model and rule files, runs a search strategy, extracts the
// cheapest graph and reports original and optimized cost, speedup, time split, e-graph size,
// stop reason and the rules used; optionally writes the optimized graph and a JSON report, and
// checks numerically that the optimized graph computes the same outputs, and measures the real
// speedup on this CPU with oneDNN (--measure).
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/cost_options.hpp"
#include "cli/equivalence_check.hpp"
#include "cli/model_options.hpp"
#include "cli/number_checks.hpp"
#include "cli/progress_line.hpp"
#include "dsl/rule_library.hpp"
#include "egraph/serialize.hpp"
#include "extract/tensor_export.hpp"
#include "frontend/model_io.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "search/measured_speedup.hpp"
#include "search/optimize_report.hpp"
#include "search/optimizer.hpp"
#include "support/files.hpp"
#include "tensor/graph_stats.hpp"
#include "verify/verifier.hpp"

namespace mctsat::cli {
namespace {

struct OptimizeCliOptions {
  std::string model;
  std::vector<std::string> rule_paths{MCTSAT_DEFAULT_RULES};
  dsl::RuleSelection selection;
  search::OptimizeOptions search;
  CostOptions cost;
  ModelOptions model_options;
  std::string output, report_path;
  std::string export_egraph;  // --export-egraph: the final e-graph, egraph-serialize JSON
  bool json = false, quiet = false, check = false, no_cycle_filter = false, verify_rules = false;
  bool measure = false;
  search::SpeedupMeasureOptions measure_options;
  std::size_t threads = 1;
  double memory_limit_mb = 0;  // 0: none
  double tolerance = 1e-6;
  std::uint64_t check_seed = 1;
};

nlohmann::json build_report(const OptimizeCliOptions& options, const search::OptimizeResult& r,
                            const tensor::Graph& input, const std::string& cost_model) {
  nlohmann::json report = search::optimize_report(r, options.search);
  report["model"] = options.model;
  report["operators"] = tensor::graph_stats(input).operators;
  report["cost_model"] = cost_model;
  return report;
}

void print_report(const nlohmann::json& r) {
  std::cout << fmt::format("model {} ({} operators), strategy {} (extract {}, final {}), {}\n",
                           r["model"].get<std::string>(), r["operators"].get<std::size_t>(),
                           r["strategy"].get<std::string>(), r["extract"].get<std::string>(),
                           r["final_extract"].get<std::string>(),
                           r["cost_model"].get<std::string>());
  std::cout << fmt::format("  original cost   {:10.4f} ms\n", r["original_cost_ms"].get<double>());
  std::cout << fmt::format(
      "  optimized cost  {:10.4f} ms   speedup {:+.2f}%{}\n", r["optimized_cost_ms"].get<double>(),
      r["speedup_percent"].get<double>(),
      r["kept_original"].get<bool>() ? " (nothing cheaper found: input kept)" : "");
  std::cout << fmt::format("  time            exploration {:.3f} s, extraction {:.3f} s\n",
                           r["exploration_seconds"].get<double>(),
                           r["extraction_seconds"].get<double>());
  std::cout << fmt::format("  e-graph         {} nodes, {} classes, {} {}, stop: {}\n",
                           r["egraph"]["nodes"].get<std::size_t>(),
                           r["egraph"]["classes"].get<std::size_t>(),
                           r["iterations"].get<std::size_t>(),
                           r["strategy"] == "taso" ? "graphs explored"
                           : r["strategy"] == "mcts" || r["strategy"] == "greedy" ? "steps"
                                                                                  : "iterations",
                           r["stop_reason"].get<std::string>());
  std::string rules;
  for (const auto& used : r["rules_used"])
    rules += fmt::format("{}{} x{}", rules.empty() ? "" : ", ", used["rule"].get<std::string>(),
                         used["count"].get<std::size_t>());
  std::cout << "  rules used      " << (rules.empty() ? "none" : rules) << '\n';
  const auto& e = r["extraction"];
  std::cout << fmt::format(
      "  extraction      {} ({:.3f} s){}\n", e["status"].get<std::string>(),
      e["seconds"].get<double>(),
      e["gap"].is_null() ? "" : fmt::format(", gap {:.2f}%", 100 * e["gap"].get<double>()));
  if (r.contains("check")) {
    const auto& c = r["check"];
    std::cout << fmt::format(
        "  check           {} (max relative difference {:.3g}, tolerance {:.3g})\n",
        c["passed"].get<bool>() ? "passed" : "FAILED", c["max_relative_difference"].get<double>(),
        c["tolerance"].get<double>());
  }
  if (r.contains("measured")) {
    const auto& m = r["measured"];
    std::cout << fmt::format(
        "  measured        original {:.3f} ms, optimized {:.3f} ms (medians of {} interleaved "
        "oneDNN runs x {} instance{} each, {} thread{}, {})\n",
        m["original"]["median_ms"].get<double>(), m["optimized"]["median_ms"].get<double>(),
        m["runs"].get<int>(), m["instances"].get<int>(), m["instances"] == 1 ? "" : "s",
        m["threads"].get<int>(), m["threads"] == 1 ? "" : "s", m["clock"].get<std::string>());
    std::cout << fmt::format(
        "                  speedup {:+.2f}% (estimated {:+.2f}%), paired runs' interquartile "
        "range {:+.2f}% to {:+.2f}%; noise floor {:.2f}% (the original's instances differ by "
        "that much)\n",
        m["speedup_percent"].get<double>(), r["speedup_percent"].get<double>(),
        m["speedup_percent_q1"].get<double>(), m["speedup_percent_q3"].get<double>(),
        m["noise_floor_percent"].get<double>());
    std::cout << fmt::format(
        "                  original {:.3f}-{:.3f} ms, optimized {:.3f}-{:.3f} ms (min-max); {}\n",
        m["original"]["min_ms"].get<double>(), m["original"]["max_ms"].get<double>(),
        m["optimized"]["min_ms"].get<double>(), m["optimized"]["max_ms"].get<double>(),
        m["outputs_finite"].get<bool>()
            ? fmt::format("max relative output difference {:.3g}",
                          m["max_relative_difference"].get<double>())
            : std::string("outputs overflow (NaN or infinity): not compared"));
    if (const auto host = m["original"]["host_fallback_operators"].get<std::size_t>(); host > 0)
      std::cout << fmt::format(
          "                  {} opaque operators ran on the host with the ONNX reference "
          "operators (slow; included in both times)\n",
          host);
  }
}

void add_search_options(CLI::App& command, OptimizeCliOptions& o) {
  search::OptimizeOptions& s = o.search;
  command.add_option("--strategy", s.strategy, "Search strategy")
      ->check(CLI::IsMember(search::strategy_names()))
      ->capture_default_str();
  command.add_option("--extract", s.extract, "Reward extractor of mcts")
      ->check(CLI::IsMember(extract::extractor_names()))
      ->capture_default_str();
  command.add_option("--final-extract", s.final_extract, "Final extractor")
      ->check(CLI::IsMember(extract::extractor_names()))
      ->capture_default_str();
  command
      .add_option("--ilp-seconds", s.extractor.time_limit_seconds,
                  "Time limit of the ILP extractor")
      ->check(positive_number)
      ->capture_default_str();
  command
      .add_option("--dag-restarts", s.extractor.dag_restarts,
                  "Seeded restarts of the dag extractor (reward and final; 0: none)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  command
      .add_flag("--dag-chains,!--no-dag-chains", s.extractor.dag_chains,
                "Run (default) or not the dag extractor's chain moves (reward and final) also "
                "without restarts")
      ->capture_default_str();
  command
      .add_option("--threads", o.threads,
                  "Search threads (eqsat: rule matching; mcts: simulations; taso: candidates)")
      ->check(positive_number)
      ->capture_default_str();
  command
      .add_option("--node-limit", s.mcts.node_limit,
                  "E-node limit (mcts; eqsat uses --eqsat-node-limit)")
      ->check(positive_number)
      ->capture_default_str();
  command.add_option("--eqsat-node-limit", s.eqsat.node_limit, "E-node limit of eqsat")
      ->check(positive_number)
      ->capture_default_str();
  command.add_option("--iterations", s.eqsat.iterations, "Iteration limit of eqsat")
      ->capture_default_str();
  command
      .add_option("--k-multi", s.eqsat.multi_iterations,
                  "eqsat: multi-pattern rules in the first k iterations")
      ->capture_default_str();
  command.add_option("--seconds", s.mcts.seconds, "Time limit of the search")
      ->check(positive_number)
      ->capture_default_str();
  command
      .add_option("--memory-limit", o.memory_limit_mb,
                  "Memory limit in MB (eqsat: the e-graph; mcts: the tree's e-graph snapshots)")
      ->check(positive_number);
  command.add_flag("--no-cycle-filter", o.no_cycle_filter, "Turn TENSAT's cycle filtering off");
  command.add_option("--simulations", s.mcts.simulations, "mcts: simulations per planning step")
      ->check(positive_number)
      ->capture_default_str();
  command.add_option("--rollout-depth", s.mcts.rollout_depth, "mcts: rollout steps")
      ->capture_default_str();
  command.add_option("--gamma", s.mcts.gamma, "mcts: discount")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  command.add_option("--exploration", s.mcts.exploration, "mcts: UCT exploration constant")
      ->check(non_negative_number)
      ->capture_default_str();
  command
      .add_option("--expand-probability", s.mcts.expand_probability,
                  "mcts: expansion probability below the root")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  command.add_flag("!--continue-without-gain", s.mcts.stop_without_gain,
                   "mcts: keep committing actions when none improves the reward (until the node "
                   "limit, saturation or --max-steps), as the paper's planning loop does");
  command
      .add_option("--tie-break", s.mcts.tie_break,
                  "mcts: which of the root actions with the best mean value a step commits "
                  "(visits: most visited; random: seeded; fair: least committed, then fewest "
                  "e-nodes)")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, search::TieBreak>{{"visits", search::TieBreak::kVisits},
                                                  {"random", search::TieBreak::kRandom},
                                                  {"fair", search::TieBreak::kFair}}));
  command.add_option("--max-steps", s.mcts.max_steps, "mcts: planning steps")
      ->check(positive_number)
      ->capture_default_str();
  command
      .add_option("--policy", o.search.mcts.policy,
                  "mcts: rollout policy (random, heavy, lookahead)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, search::RolloutPolicy>{
          {"random", search::RolloutPolicy::kRandom},
          {"heavy", search::RolloutPolicy::kHeavy},
          {"lookahead", search::RolloutPolicy::kLookahead}}));
  command.add_option("--seed", s.mcts.seed, "mcts: random seed")->capture_default_str();
  command
      .add_option("--batch", s.mcts.batch,
                  "mcts: simulations per parallel wave (0: --threads; results depend on the batch, "
                  "not on the thread count)")
      ->capture_default_str();
  command
      .add_option("--taso-graph", s.taso_graph,
                  "mcts: also run taso first (--budget, --alpha) and add its best graph to the "
                  "initial e-graph (seed) or to the final one (final); the result is then never "
                  "worse than taso's (none: do not run it)")
      ->check(CLI::IsMember(search::taso_graph_modes()))
      ->capture_default_str();
  command.add_option("--alpha", s.taso.alpha, "taso: accept candidates below alpha x best cost")
      ->check(CLI::Range(1.0, 10.0))
      ->capture_default_str();
  command.add_option("--budget", s.taso.budget, "taso: graphs to explore")
      ->check(positive_number)
      ->capture_default_str();
}

}  // namespace

void add_optimize_command(CLI::App& app) {
  auto options = std::make_shared<OptimizeCliOptions>();
  CLI::App* command = app.add_subcommand("optimize", "Optimize a model with rewrite rules");
  command->add_option("model", options->model, "Zoo model name or model file")->required();
  command->add_option("--rules", options->rule_paths, "Rule files or directories")
      ->capture_default_str();
  command->add_option("--ruleset", options->selection.rulesets, "Use only rules of these rulesets");
  command->add_option("--tags", options->selection.tags, "Use only rules with one of these tags");
  command->add_option("--exclude-tags", options->selection.exclude_tags,
                      "Leave out rules with these tags");
  command->add_option("--rule", options->selection.names, "Use only these rules (by name)");
  add_search_options(*command, *options);
  options->cost.add_to(*command);
  options->model_options.add_to(*command);
  command->add_option("-o,--output", options->output,
                      "Write the optimized graph (.json, .onnx, .dot, .svg)");
  command->add_option("--report", options->report_path, "Write the report as JSON to this file");
  command->add_option("--export-egraph", options->export_egraph,
                      "Write the e-graph the final extractor sees as egraph-serialize JSON, each "
                      "e-node priced by the cost model (eqsat, mcts, greedy)");
  command->add_flag("--check", options->check,
                    "Check numerically that the optimized graph computes the same outputs");
  command
      ->add_option("--tolerance", options->tolerance,
                   "--check: largest relative difference allowed")
      ->capture_default_str();
  CLI::Option* measure = command->add_flag(
      "--measure", options->measure,
      "Run the original and the optimized graph with oneDNN on this CPU, interleaved, and report "
      "the real speedup next to the estimate (with the largest output difference)");
  command
      ->add_option("--measure-runs", options->measure_options.runs,
                   "--measure: timed runs of each graph (after 3 warm-up runs)")
      ->check(positive_number)
      ->needs(measure)
      ->capture_default_str();
  command
      ->add_option("--measure-instances", options->measure_options.instances,
                   "--measure: separately prepared executors of each graph, timed in the same "
                   "rounds (their memory placement differs; the original's spread is reported "
                   "as the noise floor)")
      ->check(positive_number)
      ->needs(measure)
      ->capture_default_str();
  command
      ->add_option("--measure-threads", options->measure_options.threads,
                   "--measure: oneDNN threads (default: OpenMP's, i.e. OMP_NUM_THREADS or all "
                   "cores)")
      ->check(positive_number)
      ->needs(measure);
  command->add_flag("--verify-rules", options->verify_rules,
                    "Verify the rules first (cached); refuse to run with one that fails");
  command->add_flag("--json", options->json, "Print the report as JSON");
  command->add_flag("--quiet", options->quiet, "Print nothing but errors");
  command->callback([options] {
    OptimizeCliOptions& o = *options;
    if (!o.export_egraph.empty() && o.search.strategy == "taso")
      throw Error(
          "--export-egraph: strategy taso searches concrete graphs and builds no e-graph to "
          "export (use eqsat, mcts or greedy)");
    o.search.eqsat.cycle_filter = o.search.mcts.cycle_filter = !o.no_cycle_filter;
    o.search.eqsat.seconds = o.search.taso.seconds = o.search.mcts.seconds;
    o.search.eqsat.threads = o.search.mcts.threads = o.search.taso.threads = o.threads;
    if (o.memory_limit_mb > 0)
      o.search.eqsat.memory_limit = o.search.mcts.memory_limit =
          static_cast<std::size_t>(o.memory_limit_mb * 1024 * 1024);
    const tensor::Graph graph = o.model_options.load(o.model);
    const dsl::RuleLibrary library = dsl::load_rules_or_throw(o.rule_paths);
    const dsl::RuleSet rules(dsl::select_rules(library, o.selection));
    if (rules.size() == 0) throw Error("no rules selected");
    if (o.verify_rules) {
      std::vector<dsl::CheckedRule> selected;
      for (std::size_t i = 0; i < rules.size(); ++i) selected.push_back(rules.rule(i));
      verify::require_sound(library, selected);
    }
    const auto model = o.cost.make();
    // Prepared before the search, so that a graph oneDNN cannot run fails at once.
    std::optional<search::SpeedupMeasurement> measurement;
    if (o.measure) {
      // Opaque operators (ONNX models) run on the host; the report counts them.
      search::SpeedupMeasureOptions measure_options = o.measure_options;
      measure_options.opaque_evaluator = frontend::onnx_opaque_evaluator();
      measurement.emplace(graph, std::move(measure_options));
    }
    search::OptimizeResult result;
    std::optional<egraph::SerializedEGraph> exported;  // --export-egraph, written after success
    {
      const std::string& strategy = o.search.strategy;
      ProgressLine progress(!o.quiet && !o.json, strategy,
                            strategy == "eqsat"  ? "iteration"
                            : strategy == "taso" ? "graph"
                                                 : "step");
      o.search.progress = progress.callback();
      if (!o.export_egraph.empty())
        o.search.final_egraph = [&](const tensor::TensorEGraph& state) {
          exported = extract::export_tensor_egraph(state, *model);
        };
      result = search::optimize(graph, rules, *model, o.search);
    }
    nlohmann::json report = build_report(o, result, graph, model->name());
    if (o.check)
      report["check"] = check_equivalence(graph, result.graph, o.tolerance, o.check_seed);
    if (measurement) report["measured"] = measurement->measure(result.graph);
    if (!o.output.empty()) frontend::save_model(result.graph, o.output);
    if (exported) egraph::save_serialized(o.export_egraph, *exported);
    if (!o.report_path.empty()) write_file_atomically(o.report_path, report.dump(2) + "\n");
    if (o.json) {
      std::cout << report.dump(2) << '\n';
    } else if (!o.quiet) {
      print_report(report);
    }
    if (o.check && !report["check"]["passed"].get<bool>())
      throw Error(
          fmt::format("the optimized graph's outputs differ from the original's (max relative "
                      "difference {:.3g})",
                      report["check"]["max_relative_difference"].get<double>()));
  });
}

}  // namespace mctsat::cli
