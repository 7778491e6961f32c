// Slurm studies without a cluster: Slurm time limits, the plan and batch script of a dry run,
// refusals (another study, another grid, unusable paths), status from part files, collect.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "study/run_records.hpp"
#include "study/slurm.hpp"
#include "support/error.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using namespace mctsat::study;

namespace slurm_test {

const std::vector<std::string> kRules{MCTSAT_SOURCE_DIR "/rules/taso"};

Study study_named(const std::string& name, const std::string& seeds = "[1, 2, 3]") {
  return parse_study(R"({"name": ")" + name + R"(", "models": ["demo", "bert"], "seeds": )" +
                         seeds + R"(, "configurations": [{"name": "m", "strategy": "mcts"}]})",
                     "/tmp/study.json", kRules);
}

struct ScratchDir {
  fs::path dir = fs::temp_directory_path() / ("slurm-study-test-" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(dir); }
  ~ScratchDir() { fs::remove_all(dir); }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mctsat::Error& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("Slurm time limits in every format sbatch takes") {
  CHECK(parse_slurm_time("30") == 1800);
  CHECK(parse_slurm_time("2:30") == 150);
  CHECK(parse_slurm_time("1:00:00") == 3600);
  CHECK(parse_slurm_time("1-0") == 86400);
  CHECK(parse_slurm_time("1-2:03") == 86400 + 7200 + 180);
  CHECK(parse_slurm_time("0-0:0:5") == 5);
  for (const char* bad : {"", "1h", "1:2:3:4", "-5", "1-", "99999999999"})
    CHECK_MESSAGE(
        error_of([&] { parse_slurm_time(bad); }).find("Slurm time limit") != std::string::npos,
        bad);
}

TEST_CASE("a dry run plans the tasks and writes a batch script, submitting nothing") {
  ScratchDir scratch;
  const std::string out = (scratch.dir / "study").string();
  const Study study = study_named("s");  // 2 models x 1 configuration x 3 seeds: 6 runs
  SlurmOptions options;
  options.dry_run = true;
  options.tasks = 4;
  options.max_parallel = 2;
  options.partition = "short";
  options.time = "10";
  options.cpus_per_task = 2;
  options.jobs = 2;
  options.onnxruntime_dir = "/opt/ort";  // bench --onnxruntime, passed on to every task
  const SlurmSubmission s = submit_to_slurm(study, "/tmp/study.json", out, options, "/opt/mctsat");
  CHECK(s.task_count == 4);
  CHECK(s.tasks == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(s.job_id.empty());
  const std::string script = mctsat::read_text_file(s.script);
  CHECK(script.find("#SBATCH --array=0-3%2\n") != std::string::npos);
  CHECK(script.find("#SBATCH --partition=short\n") != std::string::npos);
  CHECK(script.find("#SBATCH --time=10\n") != std::string::npos);
  CHECK(script.find("#SBATCH --cpus-per-task=2\n") != std::string::npos);
  CHECK(script.find("'/opt/mctsat' bench '/tmp/study.json'") != std::string::npos);
  CHECK(
      script.find("--shard \"$task/4\" --retry-failed --jobs 2 --onnxruntime '/opt/ort' --quiet") !=
      std::string::npos);
  CHECK_FALSE(fs::exists(fs::path(out) / "slurm" / "submissions.jsonl"));

  // Nothing ran: every run of every task is missing, no task was submitted.
  const StudyStatus status = slurm_status(out);
  CHECK(status.study == "s");
  CHECK(status.runs == 6);
  CHECK(status.missing == 6);
  REQUIRE(status.tasks.size() == 4);
  CHECK(status.tasks[0].runs == 2);  // round robin: runs 0 and 4
  CHECK(status.tasks[3].runs == 1);
  for (const TaskStatus& task : status.tasks) CHECK(task.state == "not submitted");

  // The plan is kept: another task count, another study or another grid is refused.
  options.tasks = 3;
  CHECK(error_of([&] {
          submit_to_slurm(study, "/tmp/study.json", out, options, "/opt/mctsat");
        }).find("planned with 4 tasks") != std::string::npos);
  options.tasks = 0;
  CHECK(error_of([&] {
          submit_to_slurm(study_named("t"), "/tmp/study.json", out, options, "/opt/mctsat");
        }).find("holds study 's'") != std::string::npos);
  CHECK(error_of([&] {
          submit_to_slurm(study_named("s", "[1, 2]"), "/tmp/study.json", out, options,
                          "/opt/mctsat");
        }).find("grid of '/tmp/study.json' changed") != std::string::npos);
  // The same study again (no --tasks) plans nothing new.
  CHECK(submit_to_slurm(study, "/tmp/study.json", out, options, "/opt/mctsat").task_count == 4);
}

TEST_CASE("paths a batch script cannot name are refused before anything is written") {
  ScratchDir scratch;
  SlurmOptions options;
  options.dry_run = true;
  const std::string spaced = (scratch.dir / "my study").string();
  CHECK(error_of([&] {
          submit_to_slurm(study_named("s"), "/tmp/study.json", spaced, options, "/opt/mctsat");
        }).find("cannot be named in a Slurm batch script") != std::string::npos);
  CHECK_FALSE(fs::exists(spaced));
  options.time = "soon";
  CHECK(error_of([&] {
          submit_to_slurm(study_named("s"), "/tmp/study.json", (scratch.dir / "x").string(),
                          options, "/opt/mctsat");
        }).find("--time 'soon'") != std::string::npos);
}

TEST_CASE("status counts each task's recorded runs; collect merges the parts") {
  ScratchDir scratch;
  const std::string out = (scratch.dir / "study").string();
  const Study study = study_named("s");
  SlurmOptions options;
  options.dry_run = true;
  options.tasks = 2;
  submit_to_slurm(study, "/tmp/study.json", out, options, "/opt/mctsat");
  CHECK(error_of([&] { collect_slurm_parts(out, nullptr); }).find("no task has recorded") !=
        std::string::npos);

  // Task 1 owns runs 1, 3 and 5: one ok, one timed out, one missing.
  const std::string part = out + "/parts/task-1";
  fs::create_directories(part);
  const std::string file = part + "/" + results_file_name(1, 2);
  append_record(file, {{"id", study.runs[1].id}, {"index", 1}, {"study", "s"}, {"status", "ok"}});
  append_record(file,
                {{"id", study.runs[3].id}, {"index", 3}, {"study", "s"}, {"status", "timeout"}});
  const StudyStatus status = slurm_status(out);
  REQUIRE(status.tasks.size() == 2);
  const TaskStatus& task = status.tasks[1];
  CHECK(task.ok == 1);
  CHECK(task.timed_out == 1);
  CHECK(task.missing == 1);
  CHECK(task.state == "not submitted");
  CHECK(status.ok == 1);
  CHECK(status.missing == 4);

  std::vector<std::string> warnings;
  CHECK(collect_slurm_parts(out, &warnings) == 2);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("4 of the study's 6 runs are not recorded yet") != std::string::npos);
  CHECK(read_records(out).size() == 2);
  // Only tasks with work left are planned for the next submission: both here.
  CHECK(submit_to_slurm(study, "/tmp/study.json", out, options, "/opt/mctsat").tasks ==
        std::vector<std::size_t>{0, 1});
}

TEST_CASE("a directory without a plan is not a Slurm study") {
  ScratchDir scratch;
  CHECK(error_of([&] { slurm_status(scratch.dir.string()); }).find("no Slurm study here") !=
        std::string::npos);
}

}  // namespace slurm_test
