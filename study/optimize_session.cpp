// One optimization from the prepared inputs to the written files.
#include "study/optimize_session.hpp"

#include <map>
#include <utility>

#include <fmt/format.h>

#include "dsl/rule_sketch.hpp"
#include "extract/tensor_export.hpp"
#include "frontend/equivalence_check.hpp"
#include "frontend/model_io.hpp"
#include "frontend/onnx_opaque_evaluator.hpp"
#include "frontend/onnxruntime_lowering.hpp"
#include "frontend/weight_folding.hpp"
#include "search/optimizer.hpp"
#include "search/strategies.hpp"
#include "study/never_slower_guard.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/scratch_directory.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/runtime_fusions.hpp"
#include "verify/verifier.hpp"

namespace mctsat::study {

dsl::RuleSet selected_rules(const std::vector<std::string>& paths,
                            const dsl::RuleSelection& selection, bool verify,
                            const std::string& shipped_dir, std::string* unverified) {
  const dsl::RuleLibrary library = dsl::load_rules_or_throw(paths);
  dsl::RuleSet rules(dsl::select_rules(library, selection));
  if (rules.size() == 0) throw Error("no rules selected");
  if (verify)
    verify::require_sound(library, rules);
  else if (unverified)
    *unverified =
        verify::unverified_rules_warning(library, rules, shipped_dir, verify::default_cache_dir())
            .value_or("");
  return rules;
}

bool SessionResult::check_failed() const {
  return report.check && !(*report.check)["passed"].get<bool>();
}

void check_session_options(const SessionOptions& options) {
  const search::StrategyTraits& strategy = search::strategy_traits(options.search.strategy);
  if ((options.export_egraph || !options.egraph_path.empty()) && !strategy.builds_egraph)
    throw Error(fmt::format(
        "{}: strategy {} searches concrete graphs and builds no e-graph to export (use {})",
        options.egraph_flag, strategy.name,
        search::strategy_names_where(&search::StrategyTraits::builds_egraph)));
  // Every output is checked before the search and written, as a set, only after every check.
  std::vector<std::pair<std::string, std::string>> output_paths;
  if (!options.graph_path.empty())
    output_paths.emplace_back(options.graph_flag, options.graph_path);
  if (!options.report_path.empty())
    output_paths.emplace_back(options.report_flag, options.report_path);
  if (!options.egraph_path.empty())
    output_paths.emplace_back(options.egraph_flag, options.egraph_path);
  check_output_paths(output_paths, options.input_paths);
}

namespace {

// A model without its weights (they are graph inputs) cannot have the kernels rewrites merge from
// them folded into initializers: ONNX Runtime would rebuild them at every inference. Empty when
// the optimized graph computes no more such operators than the input did.
std::string rebuilt_kernels_warning(const tensor::Graph& input, const tensor::Graph& optimized) {
  const std::size_t before = frontend::operators_over_unvalued_weights(input).size();
  const std::vector<std::string> after = frontend::operators_over_unvalued_weights(optimized);
  if (after.size() <= before) return {};
  std::map<std::string, std::size_t> count;
  for (const std::string& op : after) ++count[op];
  std::string ops;
  for (const auto& [op, n] : count) ops += fmt::format("{}{} x{}", ops.empty() ? "" : ", ", op, n);
  return fmt::format(
      "the output computes {} operators ({}) from weights without values at every inference (the "
      "input: {}): the model came without its weights, which are graph inputs, so the kernels the "
      "rewrites merged cannot be precomputed; optimize the model with its weights as initializers",
      after.size(), ops, before);
}

}  // namespace

SessionResult run_optimize_session(const tensor::Graph& graph, const std::string& model_name,
                                   const dsl::RuleSet& rules, const tensor::CostModel& cost,
                                   const SessionOptions& options) {
  check_session_options(options);
  // Prepared before the search, so that a graph oneDNN cannot run fails at once. Opaque operators
  // (ONNX models) run on the host; the report counts them.
  std::optional<runtime::SpeedupMeasurement> measurement;
  if (options.measure) {
    runtime::SpeedupMeasureOptions measure = *options.measure;
    measure.opaque_evaluator = frontend::onnx_opaque_evaluator();
    measurement.emplace(graph, std::move(measure));
  }

  SessionResult session;
  search::OptimizeReport& report = session.report;
  search::OptimizeOptions search = options.search;
  if (options.export_egraph || !options.egraph_path.empty())
    search.final_egraph = [&, caller =
                                  options.search.final_egraph](const tensor::TensorEGraph& state) {
      if (caller) caller(state);  // e.g. the CLI's progress line naming the extraction
      session.egraph = extract::export_tensor_egraph(state, cost);
    };
  report.result = search::optimize(graph, rules, cost, search);
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const dsl::CheckedRule& rule = rules.rule(i);
    for (const auto& [name, count] : report.result.rules_used)
      if (name == rule.name) report.rule_sketches.emplace(name, dsl::rule_sketch(rule));
  }
  report.model = model_name;
  report.operators = tensor::graph_stats(graph).operators;
  report.cost_model = cost.name();
  report.options = options.search;
  report.warnings = options.warnings;
  const auto stage = [&options](const std::string& name) {
    if (options.on_stage) options.on_stage(name);
  };
  if (options.check) stage("numeric check (--check)");
  if (options.check)
    report.check = frontend::check_equivalence(graph, report.result.graph, options.check->tolerance,
                                               options.check->seed);
  if (measurement) {
    stage(fmt::format("measuring in oneDNN ({} rounds)", options.measure->runs));
    report.measured = measurement->measure(report.result.graph);
  }

  // Never slower by surprise: the output is the input when the search found nothing cheaper or,
  // with a measurement, when the optimized graph did not measure faster; the report says so when a
  // graph is written.
  const bool measured_slower = report.measured && !(*report.measured)["faster"].get<bool>();
  session.output_is_original = report.result.kept_original || measured_slower;
  const bool onnx_output = options.graph_path.ends_with(".onnx");
  // With onnxruntime_ops, an ONNX output is the result lowered to ONNX Runtime's fused operators.
  std::optional<tensor::Graph> lowered;
  if (onnx_output && options.onnxruntime_ops && !session.check_failed() && !measured_slower) {
    frontend::OnnxRuntimeLowering lowering = frontend::lower_for_onnxruntime(report.result.graph);
    report.lowering = nlohmann::json{{"attention", lowering.attention},
                                     {"flat_sums", lowering.flat_sums}};
    if (lowering.attention + lowering.flat_sums > 0) {
      lowered = std::move(lowering.graph);
      session.output_is_original = false;
    }
    // Priced as ONNX Runtime runs it, the lowered output has an estimate of its own.
    if (lowered && cost.runtime_fusions() == tensor::RuntimeFusions::kOnnxRuntime)
      (*report.lowering)["estimated_speedup_percent"] =
          100.0 * (report.result.original_cost / tensor::as_run_cost(*lowered, cost) - 1.0);
  }
  const tensor::Graph& candidate = lowered ? *lowered : report.result.graph;
  // The guard, for an ONNX output that differs from the input.
  const bool guarded =
      options.guard && onnx_output && !session.check_failed() && !session.output_is_original;
  if (guarded) {
    stage(fmt::format("ONNX Runtime guard ({} rounds)", options.guard->measure.rounds));
    const ScratchDirectory scratch("mctsat-guard");
    OnnxRuntimeSetup setup{options.guard->onnxruntime_dir, scratch.file("ort-compare.cjs")};
    write_compare_script(setup.script);
    const GuardVerdict verdict = guard_never_slower(graph, candidate, options.original_file, setup,
                                                    options.guard->measure, scratch.file("guard"));
    report.guard = verdict.report;
    session.output_is_original = !verdict.keep_optimized;
  }
  if (!options.graph_path.empty())
    report.written_graph = session.output_is_original ? "original" : "optimized";
  if (onnx_output && !session.output_is_original)
    if (std::string warning = rebuilt_kernels_warning(graph, report.result.graph); !warning.empty())
      report.warnings.push_back(std::move(warning));
  if (session.check_failed()) return session;
  std::vector<OutputFile> outputs;
  // A kept original that came from an ONNX file is that file, byte for byte.
  const bool original_bytes =
      session.output_is_original && !options.original_file.empty() && onnx_output;
  if (!options.graph_path.empty())
    outputs.push_back({options.graph_path,
                       original_bytes
                           ? read_text_file(options.original_file)
                           : frontend::model_text(session.output_is_original ? graph : candidate,
                                                  options.graph_path)});
  if (!options.report_path.empty())
    outputs.push_back({options.report_path, report.to_json().dump(2) + "\n"});
  if (session.egraph && !options.egraph_path.empty())
    outputs.push_back({options.egraph_path, egraph::to_json(*session.egraph)});
  if (!outputs.empty()) stage("writing");
  write_files_atomically(outputs);
  for (const OutputFile& file : outputs) session.written.push_back(file.path);
  return session;
}

}  // namespace mctsat::study
