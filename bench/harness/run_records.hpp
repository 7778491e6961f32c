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

namespace mctsat::bench {

inline constexpr const char* kConfigCopyName = "config.json";

// "runs.jsonl" for an unsharded study, "runs.shard-I-of-N.jsonl" for shard I of N.
std::string results_file_name(std::size_t shard_index, std::size_t shard_count);

// Appends one record as one line with a single write (O_APPEND), then flushes it to disk.
void append_record(const std::string& path, const nlohmann::json& record);

// Every record of a runs*.jsonl file or of all such files in a directory, deduplicated by "id"
// and sorted by "index". A malformed line (a run cut off mid-write) is skipped with a warning;
// a missing directory or file is an error naming it.
std::vector<nlohmann::json> read_records(const std::string& dir_or_file,
                                         std::vector<std::string>* warnings = nullptr);

// Keeps one record per id (ok beats failed, otherwise the later one wins), sorted by index.
std::vector<nlohmann::json> deduplicate_records(const std::vector<nlohmann::json>& records);

// Joins the records of several study directories (or runs*.jsonl files) of the same study into
// out_dir/runs.jsonl (written atomically) and copies the first config.json found. Records of
// different studies are an error. Returns the number of records written.
std::size_t merge_results(const std::vector<std::string>& inputs, const std::string& out_dir,
                          std::vector<std::string>* warnings = nullptr);

}  // namespace mctsat::bench
