// Running a study: the runs of one shard of the grid that are not recorded yet, each in an
// isolated child process (isolated_runs.hpp), several at a time; one JSON line per finished run
// (run_records.hpp) with every parameter, the optimization report (and the speedup measured with
// oneDNN when the study sets "measure", in ONNX Runtime when it sets "measure_onnxruntime"), wall
// time, peak memory, the machine and the git commit; a progress line with completed/total, failures
// and ETA.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "study/config.hpp"

namespace mctsat::study {

struct StudyRunOptions {
  std::string out_dir;  // where runs*.jsonl and config.json go (created)
  std::size_t jobs = 1;
  std::size_t shard_index = 0, shard_count = 1;
  bool resume = false;        // skip runs already recorded in out_dir (else refuse to overwrite)
  bool retry_failed = false;  // with resume: run recorded failures again
  std::string source_dir;     // where to read the git commit ("" : "unknown")
  bool interactive = false;   // redraw one progress line (a terminal) instead of a line per run
  bool verify_rules = false;  // verify every rule set first (cached); refuse one that fails
  // Studies with "measure_onnxruntime": the folder holding node_modules/onnxruntime-node (empty:
  // the environment variable MCTSAT_ONNXRUNTIME); runs write their ONNX files under
  // out_dir/onnxruntime and remove them.
  std::string onnxruntime_dir;
};

struct StudyRunSummary {
  std::size_t grid = 0;     // runs in the whole grid
  std::size_t shard = 0;    // runs in this shard
  std::size_t skipped = 0;  // already recorded
  std::size_t ran = 0, failed = 0;
  std::string results_file;
};

// Throws mctsat::Error for inputs that fail to load (models, rules) or ONNX Runtime missing for a
// study that measures in it, before any run starts, and when out_dir already holds results and
// resume is off.
StudyRunSummary run_study(const Study& study, const StudyRunOptions& options,
                          std::ostream& progress);

// Parses "I/N" (0 <= I < N); throws mctsat::Error otherwise.
void parse_shard(const std::string& text, std::size_t& index, std::size_t& count);

}  // namespace mctsat::study
