// One optimization as every front end runs it -- `mctsat optimize`, Python's optimize() and each
// run of a study -- so that they decide the same way which graph is the result:
//
//   1. the output paths are checked (writable, distinct) and the measurement is prepared, before
//      the search, so that a graph oneDNN cannot run or an unwritable path fails at once;
//   2. the search and the final extraction (search::optimize), the report's header;
//   3. the numeric check of the optimized graph against the input (`check`), its measured speedup
//      (`measure`);
//   4. the output graph: the optimized one (for ONNX Runtime with onnxruntime_ops: lowered to its
//      fused contrib operators), or the input when it did not measure faster (never
//      slower by surprise; the report's written_graph says which when a graph file is written),
//      and, with `guard`, only when ONNX Runtime runs it faster beyond the noise
//      (never_slower_guard.hpp; the report's guard holds both figures and the decision);
//   5. the files, as a set (write_files_atomically), unless the check failed.
//
// A post-optimization step (a guard that measures and keeps the faster graph, an export) belongs
// here, once, not in the front ends.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "egraph/serialize.hpp"
#include "runtime/measured_speedup.hpp"
#include "search/optimize_options.hpp"
#include "search/optimize_report.hpp"
#include "study/onnxruntime_measurement.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/graph.hpp"

namespace mctsat::study {

// The rules a session runs: `paths` loaded, `selection` applied; with `verify`, every selected
// rule must verify (verify::require_sound). Without it, when `unverified` is given, it receives
// verify::unverified_rules_warning's text for rules from files outside `shipped_dir` (the
// installed rule library) with no passing verification in the cache, or stays empty. Throws
// mctsat::Error for no rules selected.
dsl::RuleSet selected_rules(const std::vector<std::string>& paths,
                            const dsl::RuleSelection& selection, bool verify,
                            const std::string& shipped_dir = {}, std::string* unverified = nullptr);

struct SessionCheck {
  double tolerance = 1e-6;  // largest relative output difference allowed
  std::uint64_t seed = 1;   // the random inputs'
};

// The never-slower guard: ONNX Runtime's folder (the script is written to a scratch directory),
// its rounds and seed.
struct SessionGuard {
  std::string onnxruntime_dir;
  OnnxRuntimeMeasureOptions measure;
};

struct SessionOptions {
  search::OptimizeOptions search;
  std::optional<SessionCheck> check;                      // compare outputs numerically
  std::optional<runtime::SpeedupMeasureOptions> measure;  // opaque operators run on the host
  std::optional<SessionGuard> guard;                      // applies when graph_path is an ONNX file
  // An ONNX output (graph_path .onnx) lowered to the operators ONNX Runtime runs fused
  // (frontend/onnxruntime_lowering.hpp): for ONNX Runtime only.
  bool onnxruntime_ops = false;
  bool export_egraph = false;  // keep the e-graph the final extractor sees (egraph_path implies it)
  // Files written, as a set, after every check passed; empty: not written. The flag names are
  // used in messages about them ("-o").
  std::string graph_path, report_path, egraph_path;
  std::string graph_flag = "-o", report_flag = "--report", egraph_flag = "--export-egraph";
  std::vector<std::string> input_paths;  // files the session reads: no output may name one
  // The ONNX file the input was loaded from unchanged (its graph inputs the input's): the guard's
  // baseline, and an ONNX output byte for byte when the original is written (empty: mctsat's
  // export of the input).
  std::string original_file;
  std::vector<std::string> warnings;  // found before the session (unverified rules): the report's
                                      // first warnings
  // Called as each stage after the search starts, with its name ("numeric check", "ONNX Runtime
  // guard (20 rounds)", ...), e.g. for a progress line; may be empty.
  std::function<void(const std::string&)> on_stage;
};

struct SessionResult {
  search::OptimizeReport report;    // with check, measured and written_graph when they apply
  bool output_is_original = false;  // the search found nothing cheaper, the optimized graph did
                                    // not measure faster, or the guard kept the input
  std::optional<egraph::SerializedEGraph> egraph;
  std::vector<std::string> written;  // the files written, in the order above

  bool check_failed() const;
  // The result graph: the optimized one, or the input (`input`, the session's) when it did not
  // measure faster.
  const tensor::Graph& output(const tensor::Graph& input) const {
    return output_is_original ? input : report.result.graph;
  }
};

// What a session can refuse before any input is loaded: an e-graph export from a strategy that
// builds none, output paths that cannot be written or name one file twice. Throws mctsat::Error
// naming the flag. run_optimize_session checks it again.
void check_session_options(const SessionOptions& options);

// Runs the session on `graph` (the model as the user named it: `model_name`) with `rules` and
// `cost`. Throws mctsat::Error for bad paths (before the search), for what the executor cannot run
// (with `measure`), and what search::optimize throws; a failed check does not throw (the result
// says so, and nothing is written).
SessionResult run_optimize_session(const tensor::Graph& graph, const std::string& model_name,
                                   const dsl::RuleSet& rules, const tensor::CostModel& cost,
                                   const SessionOptions& options);

}  // namespace mctsat::study
