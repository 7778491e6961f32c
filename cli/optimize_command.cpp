// `mctsat optimize MODEL`: loads a model and rule files, runs a search strategy, extracts the
// cheapest graph and reports original and optimized cost, speedup, time split, e-graph size,
// stop reason and the rules used; optionally writes the optimized graph and a JSON report, and
// checks numerically that the optimized graph computes the same outputs, and measures the real
// speedup on this CPU with oneDNN (--measure). The optimization itself is the session every front
// end runs (study/optimize_session.hpp); this file parses its flags and prints its report. An ONNX
// output passes the never-slower guard when ONNX Runtime is configured (--guard, --onnxruntime).
#include <chrono>
#include <cmath>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/cost_options.hpp"
#include "cli/model_options.hpp"
#include "cli/number_checks.hpp"
#include "cli/progress_line.hpp"
#include "cli/rule_library_location.hpp"
#include "cli/search_flags.hpp"
#include "frontend/equivalence_check.hpp"
#include "runtime/measured_speedup.hpp"
#include "search/optimize_report.hpp"
#include "search/strategies.hpp"
#include "study/optimize_session.hpp"
#include "support/enum_names.hpp"

namespace mctsat::cli {
namespace {

// When the never-slower guard runs: auto, for an ONNX output (-o .onnx) when ONNX Runtime is
// configured (--onnxruntime or MCTSAT_ONNXRUNTIME); onnxruntime, for an ONNX output, and ONNX
// Runtime must be configured; off, never.
enum class GuardMode { kAuto, kOnnxRuntime, kOff };
constexpr EnumNames<GuardMode, 3> kGuardModeNames{{
    {GuardMode::kAuto, "auto"},
    {GuardMode::kOnnxRuntime, "onnxruntime"},
    {GuardMode::kOff, "off"},
}};

struct OptimizeCliOptions {
  std::string model;
  std::vector<std::string> rule_sources{"taso"};  // --rules: library names or paths
  dsl::RuleSelection selection;
  search::OptimizeOptions search;
  CostOptions cost;
  ModelOptions model_options;
  std::string output, report_path;
  std::string export_egraph;  // --export-egraph: the final e-graph, egraph-serialize JSON
  bool json = false, quiet = false, check = false, verify_rules = false;
  bool measure = false;
  runtime::SpeedupMeasureOptions measure_options;
  double tolerance = 1e-6;
  std::uint64_t check_seed = 1;
  double progress_interval = 10;  // seconds between progress lines off a terminal
  GuardMode guard = GuardMode::kAuto;
  unsigned guard_rounds = study::OnnxRuntimeMeasureOptions{}.rounds;
  double guard_round_ms = study::OnnxRuntimeMeasureOptions{}.round_ms;
  bool onnxruntime_ops = false;  // --onnx-ops onnxruntime
};

void print_optimize_report(const search::OptimizeReport& report) {
  const search::OptimizeResult& r = report.result;
  const search::OptimizeOptions& o = report.options;
  const search::StrategyTraits& strategy = r.strategy;
  const std::string extractors =
      strategy.uses_reward
          ? fmt::format("reward extract {}, final {}", name_of(extract::kExtractorNames, o.extract),
                        name_of(extract::kExtractorNames, o.final_extract))
          : fmt::format("final extract {}", name_of(extract::kExtractorNames, o.final_extract));
  std::cout << fmt::format("model {} ({} operators), strategy {} ({}), {}\n", report.model,
                           report.operators, strategy.name, extractors, report.cost_model);
  std::cout << fmt::format("  original cost   {:10.4f} ms\n", r.original_cost);
  std::cout << fmt::format("  optimized cost  {:10.4f} ms   speedup {:+.2f}%{}\n", r.optimized_cost,
                           r.speedup_percent(),
                           r.kept_original ? " (nothing cheaper found: input kept)" : "");
  std::cout << fmt::format("  time            exploration {:.3f} s, extraction {:.3f} s\n",
                           r.exploration_seconds, r.extraction_seconds);
  if (!strategy.builds_egraph)
    std::cout << fmt::format("  search          {} {}s explored, stop: {}; best graph {} nodes\n",
                             r.iterations, strategy.iteration,
                             name_of(search::kStopReasonNames, r.stop), r.nodes);
  else
    std::cout << fmt::format("  e-graph         {} nodes, {} classes, {} {}s, stop: {}\n", r.nodes,
                             r.classes, r.iterations, strategy.iteration,
                             name_of(search::kStopReasonNames, r.stop));
  std::string rules;
  for (const auto& [name, count] : r.rules_used)
    rules += fmt::format("{}{} x{}", rules.empty() ? "" : ", ", name, count);
  std::cout << "  rules used      " << (rules.empty() ? "none" : rules) << '\n';
  const extract::Result& e = r.extraction;
  std::cout << fmt::format(
      "  extraction      {} ({:.3f} s){}\n", extract::status_name(e.status), e.seconds,
      std::isnan(e.gap)
          ? ""
          : fmt::format(", gap {:.2f}% to a lower bound on the optimum", 100 * e.gap));
  if (report.check) {
    const auto& c = *report.check;
    std::cout << fmt::format(
        "  check           {}\n",
        c["passed"].get<bool>()
            ? fmt::format("passed (max relative difference {:.3g}, tolerance {:.3g})",
                          c["max_relative_difference"].get<double>(), c["tolerance"].get<double>())
            : fmt::format("FAILED ({})", frontend::check_failure(c)));
  }
  if (report.measured) {
    const auto& m = *report.measured;
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
        m["speedup_percent"].get<double>(), r.speedup_percent(),
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

}  // namespace

void add_optimize_command(CLI::App& app) {
  auto options = std::make_shared<OptimizeCliOptions>();
  CLI::App* command = app.add_subcommand("optimize", "Optimize a model with rewrite rules");
  command->add_option("model", options->model, "Zoo model name or model file")->required();
  command
      ->add_option("--rules", options->rule_sources,
                   "Rule libraries by name (taso, extended, exporters; combine them: "
                   "taso,extended), rule files or directories")
      ->delimiter(',')
      ->capture_default_str();
  command->add_option("--ruleset", options->selection.rulesets, "Use only rules of these rulesets");
  command->add_option("--tags", options->selection.tags, "Use only rules with one of these tags");
  command->add_option("--exclude-tags", options->selection.exclude_tags,
                      "Leave out rules with these tags");
  command->add_option("--rule", options->selection.names, "Use only these rules (by name)");
  add_search_flags(*command, options->search);
  options->cost.add_to(*command);
  options->model_options.add_to(*command);
  command->add_option("-o,--output", options->output,
                      "Write the optimized graph (.json, .onnx, .dot, .svg)");
  command->add_option("--report", options->report_path, "Write the report as JSON to this file");
  command->add_option("--export-egraph", options->export_egraph,
                      "Write the e-graph the final extractor sees as egraph-serialize JSON, each "
                      "e-node priced by the cost model (" +
                          search::strategy_names_where(&search::StrategyTraits::builds_egraph) +
                          ")");
  command->add_flag("--check", options->check,
                    "Check numerically that the optimized graph computes the same outputs");
  command
      ->add_option("--tolerance", options->tolerance,
                   "--check: largest relative difference allowed")
      ->check(non_negative_number)
      ->capture_default_str();
  CLI::Option* measure = command->add_flag(
      "--measure", options->measure,
      "Run the original and the optimized graph with oneDNN on this CPU, interleaved, and report "
      "the real speedup next to the estimate (with the largest output difference); -o then gets "
      "the optimized graph only when it measured faster, else the original");
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
      ->check(thread_count())
      ->needs(measure);
  command
      ->add_option_function<std::string>(
          "--guard",
          [options](const std::string& name) {
            options->guard = parse_name(kGuardModeNames, name, "--guard mode");
          },
          "The never-slower guard for an ONNX output (-o .onnx): ONNX Runtime runs the original "
          "and the optimized model, interleaved, and the optimized one is written only when its "
          "outputs agree and it is faster beyond the noise, else the original. auto: when ONNX "
          "Runtime is configured; onnxruntime: required; off: never")
      ->check(CLI::IsMember(names_of(kGuardModeNames)))
      ->default_str("auto");
  command
      ->add_option("--guard-rounds", options->guard_rounds,
                   "The guard: timed rounds")
      ->check(CLI::Range(1u, 100000u))
      ->capture_default_str();
  command
      ->add_option("--guard-round-ms", options->guard_round_ms,
                   "The guard: a round runs each model for at least this many milliseconds, "
                   "alternating them run by run (0: one run each)")
      ->check(CLI::Range(0.0, 10000.0))
      ->capture_default_str();
  command
      ->add_option_function<std::string>(
          "--onnx-ops",
          [options](const std::string& ops) { options->onnxruntime_ops = ops == "onnxruntime"; },
          "An ONNX output's operators: standard (any runtime), or onnxruntime: blocks ONNX "
          "Runtime does not fuse by itself (self-attention, a residual sum with its layer norm) "
          "written as its contrib operators (com.microsoft), for ONNX Runtime only")
      ->check(CLI::IsMember({"standard", "onnxruntime"}))
      ->default_str("standard");
  command->add_flag("--verify-rules", options->verify_rules,
                    "Verify the rules first (cached); refuse to run with one that fails");
  command->add_flag("--json", options->json, "Print the report as JSON");
  command->add_flag("--quiet", options->quiet, "Print nothing but errors");
  command
      ->add_option("--progress-interval", options->progress_interval,
                   "Seconds between progress lines on stderr when it is not a terminal (a log)")
      ->check(CLI::Range(0.01, 1e6))
      ->capture_default_str();
  command->callback([options] {
    OptimizeCliOptions& o = *options;
    study::SessionOptions session_options;
    session_options.search = o.search;
    if (o.check) session_options.check = study::SessionCheck{o.tolerance, o.check_seed};
    if (o.measure) session_options.measure = o.measure_options;
    session_options.graph_path = o.output;
    session_options.report_path = o.report_path;
    session_options.egraph_path = o.export_egraph;
    session_options.input_paths = {o.model};
    // The model file itself is the original, unless inputs were made constants.
    if (o.model.ends_with(".onnx") && o.model_options.input_values.empty())
      session_options.original_file = o.model;
    // The guard, set up before the search so that a missing ONNX Runtime fails at once.
    const bool onnx_output = o.output.ends_with(".onnx");
    if (o.guard == GuardMode::kOnnxRuntime && !onnx_output)
      throw Error("--guard onnxruntime: the guard checks an ONNX output: give -o FILE.onnx");
    if (onnx_output && o.guard != GuardMode::kOff) {
      const std::string dir = study::onnxruntime_dir(o.cost.spec.onnxruntime_dir);
      if (!dir.empty() || o.guard == GuardMode::kOnnxRuntime) {
        study::require_onnxruntime(dir, SourceLocation{},
                                   "the never-slower guard (--guard) runs ONNX Runtime");
        study::SessionGuard guard{dir, {}};
        guard.measure.rounds = o.guard_rounds;
        guard.measure.round_ms = o.guard_round_ms;
        guard.measure.seed = o.check_seed;
        session_options.guard = guard;
      }
    }
    if (o.onnxruntime_ops && !o.output.ends_with(".onnx"))
      throw Error("--onnx-ops onnxruntime: give an ONNX output, -o FILE.onnx");
    session_options.onnxruntime_ops = o.onnxruntime_ops;
    study::check_session_options(session_options);
    const tensor::Graph graph = o.model_options.load(o.model);
    std::string unverified;  // a warning about user rules without a passing verification
    const dsl::RuleSet rules =
        study::selected_rules(rule_source_paths(o.rule_sources), o.selection, o.verify_rules,
                              rule_library_dir(), &unverified);
    if (!unverified.empty()) {
      if (!o.json) fmt::print(stderr, "warning: {}\n", unverified);  // before the search
      session_options.warnings.push_back(unverified);
    }
    const auto model = o.cost.make();
    const search::StrategyTraits& strategy = search::strategy_traits(o.search.strategy);
    const study::SessionResult session = [&] {
      // The line is erased when the session ends, before the report is printed.
      ProgressLine progress(!o.quiet && !o.json, std::string(strategy.name),
                            std::string(strategy.iteration),
                            std::chrono::milliseconds(std::llround(o.progress_interval * 1000)),
                            fmt::format("limit {:g} s", o.search.limits.seconds));
      session_options.search.progress = progress.callback();
      // The final extraction reports nothing while it runs: the line names it.
      const bool ilp = o.search.final_extract == extract::ExtractorKind::kIlp;
      const std::string extraction = fmt::format(
          "extraction ({}{})", name_of(extract::kExtractorNames, o.search.final_extract),
          ilp ? fmt::format(", at most {:g} s", o.search.extractor.time_limit_seconds) : "");
      session_options.search.final_egraph = [&](const tensor::TensorEGraph&) {
        progress.set_phase(extraction);
      };
      session_options.on_stage = [&](const std::string& stage) { progress.set_phase(stage); };
      return study::run_optimize_session(graph, o.model, rules, *model, session_options);
    }();
    const search::OptimizeReport& report = session.report;
    if (!o.json)  // the JSON report holds them; the session's own follow the ones printed above
      for (std::size_t i = session_options.warnings.size(); i < report.warnings.size(); ++i)
        fmt::print(stderr, "warning: {}\n", report.warnings[i]);
    if (o.json) {
      std::cout << report.to_json().dump(2) << '\n';
    } else if (!o.quiet) {
      print_optimize_report(report);
      if (report.lowering) {
        std::cout << fmt::format(
            "  onnx ops        for ONNX Runtime: {} self-attention blocks as Attention "
            "(com.microsoft), {} residual sums before a layer norm written flat\n",
            (*report.lowering)["attention"].get<std::size_t>(),
            (*report.lowering)["flat_sums"].get<std::size_t>());
        if (report.lowering->contains("estimated_speedup_percent"))
          std::cout << fmt::format(
              "                  estimated {:+.2f}% with them, as ONNX Runtime runs it\n",
              (*report.lowering)["estimated_speedup_percent"].get<double>());
      }
      if (report.guard)
        std::cout << fmt::format("  guard           ONNX Runtime ({}): keeps the {} graph: {}\n",
                                 (*report.guard)["baseline"].get<std::string>(),
                                 (*report.guard)["decision"].get<std::string>(),
                                 (*report.guard)["reason"].get<std::string>());
      else if (onnx_output && !session_options.guard)
        std::cout << "  guard           off: ONNX Runtime is not configured (--onnxruntime DIR or "
                     "MCTSAT_ONNXRUNTIME); the optimized graph is written unmeasured\n";
      if (report.written_graph == "original")
        std::cout << "  kept original   the optimized graph did not measure faster: " << o.output
                  << " gets the original graph\n";
      for (const auto& file : session.written) std::cout << "  wrote           " << file << '\n';
    }
    if (session.check_failed())
      throw Error(fmt::format("the optimized graph's outputs differ from the original's ({}){}",
                              frontend::check_failure(*report.check),
                              o.output.empty() && o.report_path.empty() && o.export_egraph.empty()
                                  ? ""
                                  : "; nothing written"));
  });
}

}  // namespace mctsat::cli
