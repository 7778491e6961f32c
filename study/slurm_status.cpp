// The state of a Slurm study's tasks (from the part files and the scheduler) and collecting its
// parts into one result (see slurm.hpp).
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "study/run_records.hpp"
#include "study/slurm.hpp"
#include "study/slurm_layout.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/subprocess.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;

// (job id, task) -> Slurm state.
using SchedulerStates = std::map<std::pair<std::string, std::size_t>, std::string>;

// Array task indices of a Slurm job-id suffix: "3" or "[0-2,5%2]".
std::vector<std::size_t> task_indices(std::string text) {
  std::vector<std::size_t> out;
  if (!text.empty() && text.front() == '[') text = text.substr(1, text.find(']') - 1);
  text = text.substr(0, text.find('%'));
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto dash = item.find('-');
    try {
      const std::size_t first = std::stoul(item.substr(0, dash));
      const std::size_t last =
          dash == std::string::npos ? first : std::stoul(item.substr(dash + 1));
      for (std::size_t i = first; i <= last && i - first < 100000; ++i) out.push_back(i);
    } catch (const std::exception&) {
      // Not an array task (the job's own line): nothing to read.
    }
  }
  return out;
}

// "12_3|COMPLETED" lines (sacct -P) or "12|3|RUNNING" lines (squeue): the first word of the state.
void read_state_lines(const std::string& text, bool squeue_format, SchedulerStates& states) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::string job, tasks, state;
    std::istringstream fields(line);
    if (squeue_format) {
      std::getline(fields, job, '|');
      std::getline(fields, tasks, '|');
    } else {
      std::string id;
      std::getline(fields, id, '|');
      const auto underscore = id.find('_');
      if (underscore == std::string::npos) continue;
      job = id.substr(0, underscore);
      tasks = id.substr(underscore + 1);
    }
    std::getline(fields, state, '|');
    state = state.substr(0, state.find(' '));  // "CANCELLED by 0"
    for (std::size_t task : task_indices(tasks)) states[{job, task}] = state;
  }
}

std::string join_ids(const std::set<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ",") + id;
  return out;
}

// What the scheduler knows: sacct when accounting is on, else squeue for queued and running tasks.
SchedulerStates query_scheduler(const std::set<std::string>& jobs, std::string& source) {
  SchedulerStates states;
  source = "task logs";
  if (jobs.empty()) return states;
  const auto sacct =
      run_program({"sacct", "-n", "-P", "-X", "-j", join_ids(jobs), "-o", "JobID,State"});
  if (sacct && sacct->exit_code == 0) {
    source = "sacct";
    read_state_lines(sacct->out, false, states);
    return states;
  }
  const auto squeue = run_program({"squeue", "-h", "-r", "-o", "%F|%K|%T"});
  if (squeue && squeue->exit_code == 0) {
    source = "squeue and task logs";
    SchedulerStates all;
    read_state_lines(squeue->out, true, all);
    for (auto& [key, state] : all)
      if (jobs.count(key.first) != 0) states[key] = state;
  }
  return states;
}

// How a task ended, from its log: the batch script's exit line, or slurmstepd's cancellation.
std::string state_from_log(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return "";
  const std::string text = read_text_file(path);
  if (text.find("DUE TO TIME LIMIT") != std::string::npos) return "TIMEOUT";
  if (text.find("CANCELLED AT") != std::string::npos) return "CANCELLED";
  const auto marker = text.rfind(kTaskExitMarker);
  if (marker == std::string::npos) return "";
  const std::string status = text.substr(marker + std::string(kTaskExitMarker).size());
  return status.find_first_not_of(" ") != std::string::npos &&
                 status[status.find_first_not_of(" ")] == '0'
             ? "COMPLETED"
             : "FAILED";
}

std::string task_state(const TaskStatus& task) {
  const std::string& s = task.scheduler;
  if (s == "PENDING" || s == "REQUEUED" || s == "CONFIGURING") return "pending";
  if (s == "RUNNING" || s == "COMPLETING" || s == "SUSPENDED") return "running";
  if (task.missing == 0) return task.failed + task.timed_out == 0 ? "done" : "failed runs";
  if (task.job_id.empty()) return "not submitted";
  if (s == "TIMEOUT") return "timed out";
  if (s == "CANCELLED") return "cancelled";
  return "incomplete";
}

}  // namespace

StudyStatus slurm_status(const std::string& dir) {
  const SlurmLayout layout(dir);
  const SlurmPlan plan = read_slurm_plan(layout);
  StudyStatus status;
  status.study = plan.study;

  std::vector<std::string> last_job(plan.tasks.size());
  std::set<std::string> jobs;
  for (const SlurmJob& job : read_submissions(layout)) {
    jobs.insert(job.id);
    for (std::size_t task : job.tasks)
      if (task < last_job.size()) last_job[task] = job.id;
  }
  const SchedulerStates scheduler = query_scheduler(jobs, status.scheduler_source);

  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    TaskStatus task;
    task.task = i;
    task.runs = plan.tasks[i].size();
    task.job_id = last_job[i];
    std::map<std::string, std::string> recorded;  // id -> status
    if (fs::is_directory(layout.part(i)))
      for (const auto& record : read_records(layout.part(i), &status.warnings))
        if (!is_interrupted(record))  // an interrupted run is run again: not recorded
          recorded[record["id"].get<std::string>()] = record.value("status", "");
    for (const std::string& id : plan.tasks[i]) {
      const auto it = recorded.find(id);
      if (it == recorded.end())
        ++task.missing;
      else if (it->second == "ok")
        ++task.ok;
      else if (it->second == "timeout")
        ++task.timed_out;
      else
        ++task.failed;
    }
    if (!task.job_id.empty()) {
      const auto it = scheduler.find({task.job_id, i});
      task.scheduler =
          it != scheduler.end() ? it->second : state_from_log(layout.log(i, task.job_id));
    }
    task.state = task_state(task);
    status.runs += task.runs;
    status.ok += task.ok;
    status.failed += task.failed;
    status.timed_out += task.timed_out;
    status.missing += task.missing;
    status.tasks.push_back(std::move(task));
  }
  return status;
}

std::size_t collect_slurm_parts(const std::string& dir, std::vector<std::string>* warnings) {
  const SlurmLayout layout(dir);
  const SlurmPlan plan = read_slurm_plan(layout);
  std::vector<std::string> parts;
  std::size_t interrupted = 0;  // records of runs to run again (each task has its own runs)
  for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
    if (!fs::is_directory(layout.part(i))) continue;
    const auto records = read_records(layout.part(i));
    if (records.empty()) continue;
    parts.push_back(layout.part(i));
    for (const auto& record : records) interrupted += is_interrupted(record) ? 1 : 0;
  }
  if (parts.empty())
    throw Error("no task has recorded a run yet (see `mctsat bench status`)",
                SourceLocation::at(dir));
  const std::size_t records = merge_results(parts, dir, warnings);
  std::size_t planned = 0;
  for (const auto& task : plan.tasks) planned += task.size();
  if (warnings != nullptr && records - interrupted < planned)
    warnings->push_back(fmt::format(
        "{} of the study's {} runs are not recorded yet: `mctsat bench status {}` says which; "
        "submitting the study again runs them",
        planned - (records - interrupted), planned, dir));
  return records;
}

}  // namespace mctsat::study
