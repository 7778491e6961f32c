// Submitting a study to Slurm: the plan (run ids per array task), the batch script, sbatch, and
// the record of each submission (see slurm.hpp).
#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "study/machine_info.hpp"
#include "study/run_records.hpp"
#include "study/slurm_layout.hpp"
#include "study/slurm.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/subprocess.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// One array task per run, up to Slurm's default MaxArraySize (1001 tasks, indices 0-1000).
constexpr std::size_t kMaxDefaultTasks = 1000;

// Paths in #SBATCH lines are not read by a shell: refuse what sbatch would misread.
void require_plain_path(const std::string& path, const std::string& what) {
  if (path.find_first_of(" \t\n\"'%\\") != std::string::npos)
    throw Error(
        fmt::format("{} '{}' cannot be named in a Slurm batch script (it holds a space, "
                    "quote, backslash or %): choose another",
                    what, path));
}

std::vector<std::vector<std::string>> plan_tasks(const Study& study, std::size_t count) {
  std::vector<std::vector<std::string>> tasks(count);
  for (std::size_t i = 0; i < count; ++i)
    for (const RunSpec& run : shard_runs(study.runs, i, count)) tasks[i].push_back(run.id);
  return tasks;
}

// Reads DIR/slurm/plan.json when it exists and checks that it plans this study's grid; else
// writes a new plan. Returns the run ids of each task.
std::vector<std::vector<std::string>> load_or_write_plan(const Study& study,
                                                         const std::string& config_path,
                                                         const SlurmLayout& layout,
                                                         std::size_t requested_tasks) {
  const std::size_t grid = study.runs.size();
  if (!fs::exists(layout.plan())) {
    if (fs::exists(fs::path(layout.dir) / results_file_name(0, 1)))
      throw Error(
          "the directory holds the results of a study not run on Slurm: choose another "
          "--out",
          SourceLocation::at(layout.dir));
    const std::size_t count =
        std::min(grid, requested_tasks == 0 ? kMaxDefaultTasks : requested_tasks);
    auto tasks = plan_tasks(study, count);
    const json plan{{"study", study.name}, {"config", config_path}, {"tasks", tasks}};
    write_file_atomically(layout.plan(), plan.dump(1) + "\n");
    return tasks;
  }
  const SlurmPlan plan = read_slurm_plan(layout);
  if (plan.study != study.name)
    throw Error(fmt::format("the directory holds study '{}', not '{}': choose another --out",
                            plan.study, study.name),
                SourceLocation::at(layout.dir));
  if (requested_tasks != 0 && requested_tasks != plan.tasks.size())
    throw Error(fmt::format("the study was planned with {} tasks; submit it again without "
                            "--tasks (or with --tasks {})",
                            plan.tasks.size(), plan.tasks.size()),
                SourceLocation::at(layout.dir));
  if (plan_tasks(study, plan.tasks.size()) != plan.tasks)
    throw Error(fmt::format("the grid of '{}' changed since it was first submitted to this "
                            "directory: choose another --out",
                            config_path),
                SourceLocation::at(layout.dir));
  return plan.tasks;
}

// "0-3,5,7-8" for the sorted indices.
std::string array_ranges(const std::vector<std::size_t>& tasks) {
  std::string out;
  for (std::size_t i = 0; i < tasks.size();) {
    std::size_t j = i;
    while (j + 1 < tasks.size() && tasks[j + 1] == tasks[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? std::to_string(tasks[i]) : fmt::format("{}-{}", tasks[i], tasks[j]);
    i = j + 1;
  }
  return out;
}

std::string batch_script(const Study& study, const std::string& config_path,
                         const SlurmLayout& layout, const SlurmOptions& options,
                         const std::string& mctsat, std::size_t task_count,
                         const std::vector<std::size_t>& tasks, std::size_t submission) {
  std::string array = array_ranges(tasks);
  if (options.max_parallel != 0) array += fmt::format("%{}", options.max_parallel);
  std::string s = "#!/bin/bash\n";
  s += fmt::format(
      "# Study '{}' on Slurm, submission {}: tasks {} of {} (written by `mctsat bench --slurm`).\n"
      "# Task I runs shard I/{} of the grid into {}/task-I; `mctsat bench status` and\n"
      "# `mctsat bench collect` read the results.\n",
      study.name, submission, array_ranges(tasks), task_count, task_count, layout.parts());
  s += fmt::format("#SBATCH --job-name=mctsat-{}\n", study.name);
  s += fmt::format("#SBATCH --array={}\n", array);
  s += fmt::format("#SBATCH --output={}/task-%a.job-%A.out\n", layout.logs());
  if (!options.partition.empty()) s += fmt::format("#SBATCH --partition={}\n", options.partition);
  if (!options.time.empty()) s += fmt::format("#SBATCH --time={}\n", options.time);
  if (!options.mem.empty()) s += fmt::format("#SBATCH --mem={}\n", options.mem);
  if (options.cpus_per_task != 0)
    s += fmt::format("#SBATCH --cpus-per-task={}\n", options.cpus_per_task);
  s += "task=$SLURM_ARRAY_TASK_ID\n";
  s += fmt::format(
      "{} bench {} --out {}/task-\"$task\" --shard \"$task/{}\" --retry-failed --jobs {}{} "
      "--quiet\n",
      shell_quote(mctsat), shell_quote(config_path), shell_quote(layout.parts()), task_count,
      options.jobs,
      options.onnxruntime_dir.empty()
          ? ""
          : " --onnxruntime " +
                shell_quote(std::filesystem::absolute(options.onnxruntime_dir).string()));
  s += "status=$?\n";
  s += fmt::format("echo \"{} $status\"\n", kTaskExitMarker);
  s += "exit $status\n";
  return s;
}

// Warns about tasks whose runs' time limits add up to more than --time.
void check_task_times(const Study& study, const std::vector<std::vector<std::string>>& plan,
                      const std::vector<std::size_t>& tasks, const SlurmOptions& options,
                      std::vector<std::string>& warnings) {
  if (options.time.empty()) return;
  const double allowed = parse_slurm_time(options.time);
  std::map<std::string, double> limit_of;
  for (const RunSpec& run : study.runs) limit_of[run.id] = run.limits.seconds;
  for (std::size_t task : tasks) {
    double total = 0;
    for (const std::string& id : plan[task]) total += limit_of[id];
    const double worst = total / static_cast<double>(std::max<std::size_t>(1, options.jobs));
    if (worst > allowed)
      warnings.push_back(fmt::format(
          "task {}: its {} runs may take up to {:.0f} s (their time limits, {} at a time), more "
          "than --time {} ({:.0f} s); runs cut off show as missing in `bench status` and run "
          "again at the next submission",
          task, plan[task].size(), worst, options.jobs, options.time, allowed));
  }
}

}  // namespace

double parse_slurm_time(const std::string& text) {
  const auto fail = [&] {
    return Error(
        fmt::format("--time '{}': expected a Slurm time limit: minutes, M:S, H:M:S, "
                    "D-H, D-H:M or D-H:M:S",
                    text));
  };
  std::vector<long> fields;
  long days = 0;
  std::string rest = text;
  const auto dash = text.find('-');
  const auto read_number = [&](const std::string& part) {
    if (part.empty() || part.size() > 9 ||
        part.find_first_not_of("0123456789") != std::string::npos)
      throw fail();
    return std::stol(part);
  };
  if (dash != std::string::npos) {
    days = read_number(text.substr(0, dash));
    rest = text.substr(dash + 1);
  }
  for (std::size_t start = 0;;) {
    const auto colon = rest.find(':', start);
    fields.push_back(read_number(rest.substr(start, colon - start)));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (fields.size() > 3) throw fail();
  const double day = 86400;
  if (dash != std::string::npos) {  // D-H, D-H:M, D-H:M:S
    const double h = static_cast<double>(fields[0]);
    const double m = fields.size() > 1 ? static_cast<double>(fields[1]) : 0;
    const double s = fields.size() > 2 ? static_cast<double>(fields[2]) : 0;
    return static_cast<double>(days) * day + h * 3600 + m * 60 + s;
  }
  if (fields.size() == 1) return static_cast<double>(fields[0]) * 60;              // M
  if (fields.size() == 2) return static_cast<double>(fields[0] * 60 + fields[1]);  // M:S
  return static_cast<double>(fields[0] * 3600 + fields[1] * 60 + fields[2]);       // H:M:S
}

SlurmSubmission submit_to_slurm(const Study& study, const std::string& config_path,
                                const std::string& out_dir, const SlurmOptions& options,
                                const std::string& mctsat) {
  if (study.runs.empty()) throw Error("the study has no runs", SourceLocation::at(config_path));
  if (!options.time.empty()) parse_slurm_time(options.time);
  const SlurmLayout layout(fs::absolute(out_dir).lexically_normal().string());
  const std::string config = fs::absolute(config_path).lexically_normal().string();
  require_plain_path(layout.dir, "the output directory");
  require_plain_path(mctsat, "the mctsat executable");
  std::error_code ec;
  for (const std::string& dir : {layout.logs(), layout.parts()}) {
    fs::create_directories(dir, ec);
    if (ec)
      throw Error(fmt::format("cannot create the directory: {}", ec.message()),
                  SourceLocation::at(dir));
  }

  SlurmSubmission result;
  const auto plan = load_or_write_plan(study, config, layout, options.tasks);
  result.task_count = plan.size();
  const StudyStatus status = slurm_status(layout.dir);
  for (const TaskStatus& task : status.tasks) {
    if (task.state == "pending" || task.state == "running")
      result.busy.push_back(task.task);
    else if (task.state != "done")
      result.tasks.push_back(task.task);
  }
  result.warnings = status.warnings;
  if (result.tasks.empty()) return result;
  check_task_times(study, plan, result.tasks, options, result.warnings);

  const std::size_t submission = read_submissions(layout).size() + 1;
  result.script = layout.script(submission);
  write_file_atomically(result.script, batch_script(study, config, layout, options, mctsat,
                                                    plan.size(), result.tasks, submission));
  if (options.dry_run) return result;

  const auto sbatch = run_program({"sbatch", "--parsable", result.script});
  if (!sbatch)
    throw Error(
        "sbatch not found: install Slurm's client (Debian: slurm-client), or use "
        "--dry-run and submit the script yourself");
  if (sbatch->exit_code != 0)
    throw Error(fmt::format("sbatch refused the job (exit {}): {}", sbatch->exit_code,
                            sbatch->err.empty() ? sbatch->out : sbatch->err),
                SourceLocation::at(result.script));
  result.job_id = sbatch->out.substr(0, sbatch->out.find_first_of(";\r\n"));
  append_record(layout.submissions(), json{{"job", result.job_id},
                                           {"tasks", result.tasks},
                                           {"script", result.script},
                                           {"submitted", utc_timestamp()}});
  return result;
}

}  // namespace mctsat::study
