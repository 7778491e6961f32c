// `mctsat bench CONFIG`: runs a study (a grid of optimizations declared in a JSON config) with
// isolated, resumable, shardable runs; `mctsat bench merge` joins the results of shards;
// `mctsat bench report DIR` writes a Markdown table, CSV files and gnuplot plots. With --slurm
// the study runs as a Slurm job array; `bench status` and `bench collect` follow it.
#include <unistd.h>

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "cli/rule_library_location.hpp"
#include "study/config.hpp"
#include "study/machine_info.hpp"
#include "study/report.hpp"
#include "study/run_records.hpp"
#include "study/runner.hpp"
#include "study/slurm.hpp"
#include "support/installed_data.hpp"
#include "support/json_text.hpp"

namespace mctsat::cli {
namespace {

struct BenchCliOptions {
  std::string config, out, shard = "0/1";
  std::size_t jobs = 1;
  std::vector<std::uint64_t> seeds;
  bool resume = false, retry_failed = false, list = false, json = false, quiet = false,
       verify_rules = false;
  std::string onnxruntime_dir;  // studies with "measure_onnxruntime" (else MCTSAT_ONNXRUNTIME)
  // Slurm
  bool slurm = false;
  study::SlurmOptions slurm_options;
  std::string status_dir;
  // merge
  std::string merge_out;
  std::vector<std::string> merge_inputs;
  // report
  std::string report_dir;
  bool no_plots = false;
  std::vector<std::string> best_known_from;
};

void print_warnings(const std::vector<std::string>& warnings) {
  for (const auto& warning : warnings) std::cerr << "warning: " << warning << '\n';
}

void list_runs(const study::Study& study, std::size_t index, std::size_t count, bool json) {
  const auto runs = study::shard_runs(study.runs, index, count);
  nlohmann::json out = nlohmann::json::array();
  for (const study::RunSpec& run : runs) {
    if (json) {
      out.push_back(
          {{"index", run.index},
           {"id", run.id},
           {"model", study.models[run.model].name},
           {"rules", study.rules[run.rules].name},
           {"configuration", run.configuration},
           {"cost_model", study.costs[run.cost].name},
           {"seed", run.seed},
           {"parameters", study::parameters_json(run.options)},
           {"limits", {{"seconds", run.limits.seconds}, {"memory_mb", run.limits.memory_mb}}}});
    } else {
      std::cout << fmt::format("{:4} {} {} / {} / {} / {} / seed {}\n", run.index, run.id,
                               study.models[run.model].name, study.rules[run.rules].name,
                               run.configuration, study.costs[run.cost].name, run.seed);
    }
  }
  if (json) std::cout << out.dump(2) << '\n';
}

void submit_to_slurm(const study::Study& study, const BenchCliOptions& o) {
  if (o.out.empty()) throw Error("bench --slurm: --out DIR is required (the study's directory)");
  if (o.shard != "0/1" || !o.seeds.empty() || o.list || o.resume || o.retry_failed)
    throw Error(
        "bench --slurm: --shard, --seeds, --list, --resume and --retry-failed do not "
        "apply (each task runs its shard and resumes by itself)");
  study::SlurmOptions options = o.slurm_options;
  options.jobs = o.jobs;
  options.onnxruntime_dir = o.onnxruntime_dir;
  const study::SlurmSubmission s =
      study::submit_to_slurm(study, o.config, o.out, options, executable_path().string());
  print_warnings(s.warnings);
  if (o.json) {
    std::cout << nlohmann::json{{"study", study.name},  {"tasks", s.task_count},
                                {"submitted", s.tasks}, {"busy", s.busy},
                                {"job", s.job_id},      {"script", s.script}}
                     .dump(2)
              << '\n';
    return;
  }
  if (s.tasks.empty()) {
    std::cout << (s.busy.empty()
                      ? fmt::format("nothing to submit: every run is recorded; `mctsat bench "
                                    "collect {}` merges them\n",
                                    o.out)
                      : fmt::format("nothing to submit: {} tasks are still queued or running\n",
                                    s.busy.size()));
    return;
  }
  if (o.slurm_options.dry_run) {
    std::cout << fmt::format("wrote {} ({} of {} tasks); submit it with: sbatch {}\n", s.script,
                             s.tasks.size(), s.task_count, s.script);
    return;
  }
  std::cout << fmt::format(
      "submitted job {}: {} of {} tasks{}; follow it with `mctsat bench status {}`\n", s.job_id,
      s.tasks.size(), s.task_count,
      s.busy.empty() ? "" : fmt::format(" ({} still queued or running)", s.busy.size()), o.out);
}

void print_status(const study::StudyStatus& status, bool json) {
  if (json) {
    nlohmann::json tasks = nlohmann::json::array();
    for (const study::TaskStatus& t : status.tasks)
      tasks.push_back({{"task", t.task},
                       {"runs", t.runs},
                       {"ok", t.ok},
                       {"failed", t.failed},
                       {"timed_out", t.timed_out},
                       {"missing", t.missing},
                       {"job", t.job_id},
                       {"scheduler", t.scheduler},
                       {"state", t.state}});
    std::cout << nlohmann::json{{"study", status.study},
                                {"scheduler_source", status.scheduler_source},
                                {"runs", status.runs},
                                {"ok", status.ok},
                                {"failed", status.failed},
                                {"timed_out", status.timed_out},
                                {"missing", status.missing},
                                {"tasks", tasks}}
                     .dump(2)
              << '\n';
    return;
  }
  std::cout << fmt::format(
      "study {}: {} runs: {} ok, {} failed, {} timed out, {} missing "
      "(scheduler: {})\n",
      status.study, status.runs, status.ok, status.failed, status.timed_out, status.missing,
      status.scheduler_source);
  std::cout << fmt::format("{:>5} {:>5} {:>5} {:>7} {:>9} {:>8}  {:<10} {}\n", "task", "runs", "ok",
                           "failed", "timed out", "missing", "job", "state");
  for (const study::TaskStatus& t : status.tasks)
    std::cout << fmt::format("{:>5} {:>5} {:>5} {:>7} {:>9} {:>8}  {:<10} {}{}\n", t.task, t.runs,
                             t.ok, t.failed, t.timed_out, t.missing,
                             t.job_id.empty() ? "-" : t.job_id, t.state,
                             t.scheduler.empty() ? "" : " (" + t.scheduler + ")");
}

void run(const BenchCliOptions& o) {
  if (o.config.empty())
    throw CLI::RequiredError(
        "bench: expected a config file, or `merge`, `report`, `status` or `collect`",
        static_cast<int>(CLI::ExitCodes::RequiredError));
  study::Study study = study::load_study(o.config, {default_rule_path()});
  if (o.slurm) return submit_to_slurm(study, o);
  if (!o.seeds.empty()) study::restrict_seeds(study, o.seeds);
  study::StudyRunOptions options;
  study::parse_shard(o.shard, options.shard_index, options.shard_count);
  if (o.list) return list_runs(study, options.shard_index, options.shard_count, o.json);
  options.out_dir = o.out.empty() ? "bench-out/" + study.name : o.out;
  options.jobs = o.jobs;
  options.resume = o.resume || o.retry_failed;
  options.retry_failed = o.retry_failed;
  options.verify_rules = o.verify_rules;
  options.onnxruntime_dir = o.onnxruntime_dir;
  options.source_dir = study::build_source_dir();
  options.interactive = !o.quiet && isatty(STDERR_FILENO) != 0;
  std::ostream null_stream(nullptr);
  const study::StudyRunSummary s =
      study::run_study(study, options, o.quiet ? null_stream : std::cerr);
  if (o.json) {
    std::cout << nlohmann::json{{"study", study.name},      {"grid", s.grid}, {"shard", s.shard},
                                {"skipped", s.skipped},     {"ran", s.ran},   {"failed", s.failed},
                                {"results", s.results_file}}
                     .dump(2)
              << '\n';
  } else if (!o.quiet) {
    std::cout << fmt::format("{} runs: {} ran ({} failed), {} already recorded; results in {}\n",
                             s.shard, s.ran, s.failed, s.skipped, s.results_file);
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchCliOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Run a study (a grid of optimizations from a JSON config), merge, report");
  command->add_option("config", options->config,
                      "Study config (.json), e.g. bench/configs/smoke.json");
  command->add_option("--out", options->out, "Output directory (default bench-out/NAME)");
  command->add_option("-j,--jobs", options->jobs, "Runs at a time")
      ->check(thread_count())
      ->capture_default_str();
  command->add_option("--shard", options->shard, "Run shard I of N (0 <= I < N) of the grid")
      ->capture_default_str();
  command
      ->add_option("--seeds", options->seeds,
                   "Run only these of the config's seeds (resume later for the rest)")
      ->delimiter(',');
  command->add_flag("--resume", options->resume, "Skip the runs already recorded in --out");
  command->add_flag("--verify-rules", options->verify_rules,
                    "Verify the rule sets first (cached); refuse to run with a rule that fails");
  command->add_flag("--retry-failed", options->retry_failed,
                    "Resume, and run recorded failures (timeouts, errors) again");
  command->add_option("--onnxruntime", options->onnxruntime_dir,
                      "Studies with \"measure_onnxruntime\": the folder holding "
                      "node_modules/onnxruntime-node (default: $MCTSAT_ONNXRUNTIME)");
  command->add_flag("--list", options->list, "Print the runs of the grid (or shard) and stop");
  command->add_flag("--json", options->json, "Print the summary (or --list) as JSON");
  command->add_flag("--quiet", options->quiet, "No progress output");
  command->add_flag("--slurm", options->slurm,
                    "Run the study as a Slurm job array (one shard per task) into --out; "
                    "submitting again runs only what is missing or failed");
  command->add_option("--partition", options->slurm_options.partition, "--slurm: sbatch partition");
  command->add_option("--time", options->slurm_options.time,
                      "--slurm: time limit of each task (Slurm format, e.g. 30 or 1:00:00)");
  command->add_option("--mem", options->slurm_options.mem,
                      "--slurm: memory of each task (e.g. 8G)");
  command->add_option("--cpus-per-task", options->slurm_options.cpus_per_task,
                      "--slurm: cores of each task (pair with --jobs)");
  command
      ->add_option("--max-parallel", options->slurm_options.max_parallel,
                   "--slurm: at most this many tasks at once (0: no cap)")
      ->capture_default_str();
  command
      ->add_option("--tasks", options->slurm_options.tasks,
                   "--slurm: array tasks, one shard each (0: one per run, up to 1000)")
      ->capture_default_str();
  command->add_flag("--dry-run", options->slurm_options.dry_run,
                    "--slurm: write the batch script, do not submit it");

  CLI::App* status = command->add_subcommand(
      "status", "Runs done, failed, timed out and missing per task of a Slurm study");
  status->add_option("dir", options->status_dir, "Study directory (bench --slurm --out)")
      ->required();
  status->add_flag("--json", options->json, "Print the status as JSON");
  status->callback([options] {
    const study::StudyStatus s = study::slurm_status(options->status_dir);
    print_warnings(s.warnings);
    print_status(s, options->json);
  });

  CLI::App* collect = command->add_subcommand(
      "collect", "Merge a Slurm study's task results into DIR/runs.jsonl (for bench report)");
  collect->add_option("dir", options->status_dir, "Study directory (bench --slurm --out)")
      ->required();
  collect->add_flag("--json", options->json, "Print the summary as JSON");
  collect->callback([options] {
    std::vector<std::string> warnings;
    const std::size_t n = study::collect_slurm_parts(options->status_dir, &warnings);
    print_warnings(warnings);
    if (options->json)
      std::cout << nlohmann::json{{"records", n}, {"out", options->status_dir}}.dump(2) << '\n';
    else
      std::cout << fmt::format("{} runs collected into {}/{}\n", n, options->status_dir,
                               study::results_file_name(0, 1));
  });

  CLI::App* merge = command->add_subcommand("merge", "Join the results of shards of one study");
  merge->add_option("out", options->merge_out, "Output directory")->required();
  merge->add_option("inputs", options->merge_inputs, "Study directories or runs*.jsonl files")
      ->required();
  merge->add_flag("--json", options->json, "Print the summary as JSON");
  merge->callback([options] {
    std::vector<std::string> warnings;
    const std::size_t n = read_json_fields(options->merge_out, [&] {
      return study::merge_results(options->merge_inputs, options->merge_out, &warnings);
    });
    print_warnings(warnings);
    if (options->json)
      std::cout << nlohmann::json{{"records", n}, {"out", options->merge_out}}.dump(2) << '\n';
    else
      std::cout << fmt::format("{} runs merged into {}/{}\n", n, options->merge_out,
                               study::results_file_name(0, 1));
  });

  CLI::App* report = command->add_subcommand(
      "report", "Write report.md, summary.csv, runs.csv and plots (PNG, SVG) for a study");
  report->add_option("dir", options->report_dir, "Study directory")->required();
  report->add_flag("--no-plots", options->no_plots, "Skip the gnuplot plots");
  report->add_option(
      "--best-known-from", options->best_known_from,
      "Other study directories whose runs also count towards each model's best-known "
      "cost (repeatable)");
  report->add_flag("--json", options->json, "Print the files written as JSON");
  report->add_flag("--quiet", options->quiet, "Print nothing but errors");
  report->callback([options] {
    study::ReportOptions report_options;
    report_options.plots = !options->no_plots;
    report_options.best_known_from = options->best_known_from;
    std::vector<std::string> warnings;
    study::ReportOutput out;
    try {
      out = read_json_fields(options->report_dir, [&] {
        return study::write_report(options->report_dir, report_options, &warnings);
      });
    } catch (const Error&) {
      print_warnings(warnings);  // the records skipped may be why there is nothing to report
      throw;
    }
    print_warnings(warnings);
    if (options->json)
      std::cout << nlohmann::json{{"files", out.files}}.dump(2) << '\n';
    else if (!options->quiet)
      std::cout << out.markdown;
  });

  command->callback([options, command] {
    if (!command->get_subcommands().empty()) return;
    run(*options);
  });
}

}  // namespace mctsat::cli
