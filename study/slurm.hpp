// A study run on a Slurm cluster as one job array: each array task runs one shard of the grid
// (`mctsat bench CONFIG --shard I/N --retry-failed`) into its own study directory
// DIR/parts/task-I, so no two tasks ever write the same file. DIR/slurm/ keeps the plan (which
// run ids each task owns), the batch scripts, one line per submission (job id, tasks) and the
// tasks' logs. A later submission of the same config to the same DIR submits only the tasks that
// still have missing or failed runs and are not queued or running; `status` reads the part files
// and, where available, the scheduler (sacct, else squeue, else the task logs); `collect` merges
// the parts into DIR/runs.jsonl, which `bench report` reads.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "study/config.hpp"

namespace mctsat::study {

struct SlurmOptions {
  std::string partition, time, mem;  // sbatch's --partition, --time, --mem ("" : cluster default)
  std::size_t cpus_per_task = 0;     // sbatch's --cpus-per-task (0: cluster default)
  std::size_t max_parallel = 0;      // at most this many tasks at once (0: no cap)
  std::size_t tasks = 0;             // array tasks, one shard each (0: one per run, up to 1000)
  std::size_t jobs = 1;              // runs at a time inside a task (bench --jobs)
  bool dry_run = false;              // write the batch script, do not submit it
  std::string onnxruntime_dir;       // bench --onnxruntime, passed on to the tasks ("" : none)
};

struct SlurmSubmission {
  std::string script;              // the batch script written
  std::string job_id;              // the array job's id ("" for a dry run or nothing to submit)
  std::size_t task_count = 0;      // N: the grid's shards
  std::vector<std::size_t> tasks;  // the array indices submitted (those with work to do)
  std::vector<std::size_t> busy;   // tasks left alone because they are queued or running
  std::vector<std::string> warnings;
};

// Plans (first time) or re-plans the study in out_dir, writes a batch script for the tasks with
// work left and submits it with sbatch unless options.dry_run. `mctsat` is the executable the
// tasks run. Throws mctsat::Error when out_dir holds another study or a different grid, when a
// path cannot be used in a batch script, or when sbatch is missing or refuses the job (its
// message included).
SlurmSubmission submit_to_slurm(const Study& study, const std::string& config_path,
                                const std::string& out_dir, const SlurmOptions& options,
                                const std::string& mctsat);

// One array task's state.
struct TaskStatus {
  std::size_t task = 0;
  std::size_t runs = 0, ok = 0, failed = 0, timed_out = 0, missing = 0;  // its runs
  std::string job_id;     // the last submission that included it ("" : never submitted)
  std::string scheduler;  // what Slurm says: PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT,
                          // CANCELLED, ... ("" : unknown)
  std::string state;      // done | failed runs | pending | running | timed out | cancelled |
                          // incomplete | not submitted
};

struct StudyStatus {
  std::string study;
  std::string scheduler_source;  // "sacct", "squeue and task logs", or "task logs"
  std::vector<TaskStatus> tasks;
  std::size_t runs = 0, ok = 0, failed = 0, timed_out = 0, missing = 0;
  std::vector<std::string> warnings;
};

// Throws mctsat::Error when dir holds no Slurm plan.
StudyStatus slurm_status(const std::string& dir);

// Merges DIR/parts/* into DIR/runs.jsonl (and config.json) with merge_results; returns the
// number of records. Throws mctsat::Error when dir holds no Slurm plan or no part has records.
std::size_t collect_slurm_parts(const std::string& dir, std::vector<std::string>* warnings);

// Parses a Slurm time limit ("M", "M:S", "H:M:S", "D-H", "D-H:M", "D-H:M:S") into seconds;
// throws mctsat::Error for anything else.
double parse_slurm_time(const std::string& text);

}  // namespace mctsat::study
