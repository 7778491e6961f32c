// Where a Slurm study keeps its files (see slurm.hpp), and reading them back:
//   DIR/slurm/plan.json         the study's name, its config and the run ids of each array task
//   DIR/slurm/submissions.jsonl one line per sbatch: job id, tasks, script
//   DIR/slurm/job-K.sbatch      the batch script of submission K
//   DIR/slurm/logs/             each task's output, task-I.job-J.out
//   DIR/parts/task-I/           task I's study directory (runs.shard-I-of-N.jsonl)
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mctsat::study {

// The line a batch script prints when its `mctsat bench` ends, followed by its exit status.
inline constexpr const char* kTaskExitMarker = "mctsat bench exited with status";

struct SlurmLayout {
  std::string dir;
  explicit SlurmLayout(std::string study_dir) : dir(std::move(study_dir)) {}
  std::string slurm() const { return dir + "/slurm"; }
  std::string plan() const { return slurm() + "/plan.json"; }
  std::string submissions() const { return slurm() + "/submissions.jsonl"; }
  std::string logs() const { return slurm() + "/logs"; }
  std::string parts() const { return dir + "/parts"; }
  std::string part(std::size_t task) const { return parts() + "/task-" + std::to_string(task); }
  std::string script(std::size_t submission) const {
    return slurm() + "/job-" + std::to_string(submission) + ".sbatch";
  }
  std::string log(std::size_t task, const std::string& job) const {
    return logs() + "/task-" + std::to_string(task) + ".job-" + job + ".out";
  }
};

struct SlurmPlan {
  std::string study, config;
  std::vector<std::vector<std::string>> tasks;  // run ids of each task
};

struct SlurmJob {
  std::string id;
  std::vector<std::size_t> tasks;
};

// Throws mctsat::Error naming the file when the plan is missing or malformed.
SlurmPlan read_slurm_plan(const SlurmLayout& layout);
// The submissions in order (none when the file does not exist); malformed lines are errors.
std::vector<SlurmJob> read_submissions(const SlurmLayout& layout);

}  // namespace mctsat::study
