// Summaries of a study's run records: per model x configuration (rule set and cost model
// included when a study varies them), the mean and standard deviation over seeds of the speedup,
// times, e-graph size and peak memory, with failures counted; the speedups measured with oneDNN
// and in ONNX Runtime next to the estimate when the runs recorded them; per model the best cost
// any run found (of this study and of reference studies) and per cell each run's share of that
// best-known improvement, (original - found) / (original - best known). Rendered as a Markdown
// report and CSV files; plots are drawn by study_plots.hpp from the same summary.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/strategy.hpp"

namespace mctsat::study {

// Mean, sample standard deviation (0 for one value), minimum and maximum of some values.
struct Stats {
  std::size_t n = 0;
  double mean = 0, std = 0, min = 0, max = 0;
  static Stats of(const std::vector<double>& values);
};

// All runs of one model under one variant (configuration [+ rule set] [+ cost model]).
struct Cell {
  std::size_t ok = 0, failed = 0;
  std::map<std::string, std::size_t> failures;  // status -> count
  Stats speedup, original_ms, optimized_ms, exploration_s, extraction_s, wall_s, nodes, rss_mb;
  Stats measured_speedup;  // result.measured.speedup_percent of the runs that have one
  // result.onnxruntime.speedup_percent of the runs that have one; how many of them computed other
  // outputs than the original (beyond the tolerance)
  Stats onnxruntime_speedup;
  std::size_t onnxruntime_outputs_differ = 0;
  // Percent of the best-known improvement of the model, per run (no values when no run of the
  // model under this cost model improved on the original).
  Stats best_known_share;
  std::map<std::string, double> rules;  // rule -> mean times committed per successful run
};

struct Variant {
  std::string label;               // column name
  std::string base_configuration;  // the configuration's name (without swept values)
  nlohmann::json sweep;            // swept parameter -> value
  // The strategy of its runs (from the records; none when they do not say). Saturation applies
  // rules where the others commit them.
  std::optional<search::StrategyKind> strategy;
};

// The cheapest graph found for a model under a cost model, by any run of the study or of the
// reference studies.
struct BestKnown {
  double original_ms = 0, best_ms = 0;
  std::string found_by;  // the configuration of the first run that found it ("study/configuration"
                         // for a reference study's run)
  double improvement_percent() const {
    return original_ms > 0 ? 100.0 * (original_ms - best_ms) / original_ms : 0.0;
  }
};

struct Summary {
  std::string study, description;
  std::vector<std::string> models;                            // in grid order
  std::vector<Variant> variants;                              // in grid order
  std::map<std::pair<std::size_t, std::size_t>, Cell> cells;  // (model, variant) -> cell
  std::size_t runs = 0, ok = 0, failed = 0;
  std::vector<nlohmann::json> failures;                     // the failed records
  std::vector<std::string> machines, commits, cost_models;  // distinct values seen
  std::size_t max_seeds = 0;
  bool measured = false;     // some run recorded a measured speedup
  bool onnxruntime = false;  // some run recorded a speedup in ONNX Runtime
  std::string first_finished, last_finished;
  // (model, cost model name) -> the best known; a reference study's models absent from this one
  // are left out.
  std::map<std::pair<std::string, std::string>, BestKnown> best_known;
  std::vector<std::string> reference_studies;  // the studies of the reference records
  // Rule -> its operators at a glance, from the records' rules_used (dsl/rule_sketch.hpp).
  std::map<std::string, std::string> rule_sketches;
};

// `references`: run records of other studies whose costs count towards the best known only.
Summary summarize(const std::vector<nlohmann::json>& records,
                  const std::vector<nlohmann::json>& references = {});

std::string markdown_report(const Summary& summary);
std::string summary_csv(const Summary& summary);                   // one row per model x variant
std::string runs_csv(const std::vector<nlohmann::json>& records);  // one row per run

struct ReportOptions {
  bool plots = true;
  std::vector<std::string> best_known_from;  // reference study directories (or records files)
  std::string gnuplot = "gnuplot";           // the gnuplot executable
};

struct ReportOutput {
  std::string markdown;
  std::vector<std::string> files;  // every file written
};

// Reads the records of a study directory and writes report.md, summary.csv, runs.csv and (with
// plots) plots/*.png, *.svg, *.gp, *.dat into it. Throws mctsat::Error for a directory without
// records and when gnuplot fails.
ReportOutput write_report(const std::string& dir, const ReportOptions& options,
                          std::vector<std::string>* warnings = nullptr);

}  // namespace mctsat::study
