// The results of a study on disk: one JSON object per line ("JSON lines"), one line per finished
// run, appended as each run ends so that an interrupted study loses nothing. A study directory
// holds runs.jsonl (or runs.shard-I-of-N.jsonl per shard) and config.json, the config it ran.
// Reading collects every runs*.jsonl of a directory; when a run appears more than once (a retried
// failure, overlapping merges), a successful record wins over a failed one, else the later one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mctsat::study {

inline constexpr const char* kConfigCopyName = "config.json";

// "runs.jsonl" for an unsharded study, "runs.shard-I-of-N.jsonl" for shard I of N.
std::string results_file_name(std::size_t shard_index, std::size_t shard_count);

// Appends one record as one line (O_APPEND), then flushes it to disk. A failed write (a full
// disk) is cut back off, so the file never ends in a torn line, and the error names the reason.
void append_record(const std::string& path, const nlohmann::json& record);

// When the file at `path` ends in a partial line (a process killed mid-write before this
// version, or a copy cut short), cuts it back to its last complete line and returns a message
// saying so; otherwise (also for a missing file) returns an empty string.
std::string cut_torn_tail(const std::string& path);

// An exclusive lock on a study directory (flock on DIR/.lock) for one bench process: a second
// process on the same --out fails at once instead of appending duplicate records.
class StudyDirectoryLock {
 public:
  explicit StudyDirectoryLock(const std::string& dir);  // throws Error when another holds it
  ~StudyDirectoryLock();
  StudyDirectoryLock(const StudyDirectoryLock&) = delete;
  StudyDirectoryLock& operator=(const StudyDirectoryLock&) = delete;

 private:
  int fd_;
};

// Whether a record is of a run that the harness's interrupt stopped (status "interrupted"): such
// a run counts as not recorded, so `bench --resume` and a Slurm resubmission run it again.
bool is_interrupted(const nlohmann::json& record);

// Every record of a runs*.jsonl file or of all such files in a directory, deduplicated by "id"
// and sorted by "index". A malformed line (a run cut off mid-write) is skipped with a warning;
// a missing directory or file is an error naming it.
std::vector<nlohmann::json> read_records(const std::string& dir_or_file,
                                         std::vector<std::string>* warnings = nullptr);

// Keeps one record per id (ok beats failed, otherwise the later one wins), sorted by index.
std::vector<nlohmann::json> deduplicate_records(const std::vector<nlohmann::json>& records);

// Joins the records of several study directories (or runs*.jsonl files) of the same study into
// out_dir/runs.jsonl (written atomically) and copies the first config.json found. Records of
// different studies are an error. Holds out_dir's StudyDirectoryLock while it reads and writes
// (an error naming it while a bench process writes there). Returns the number of records written.
std::size_t merge_results(const std::vector<std::string>& inputs, const std::string& out_dir,
                          std::vector<std::string>* warnings = nullptr);

}  // namespace mctsat::study
