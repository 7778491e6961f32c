// Running the pending runs of a study shard and recording each.
#include "study/runner.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "frontend/model_io.hpp"
#include "runtime/measured_speedup.hpp"
#include "search/optimize_report.hpp"
#include "study/cost_model_factory.hpp"
#include "study/isolated_runs.hpp"
#include "study/machine_info.hpp"
#include "study/onnxruntime_measurement.hpp"
#include "study/optimize_session.hpp"
#include "study/run_records.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/interrupt.hpp"
#include "support/isolated_call.hpp"
#include "verify/verifier.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string duration_text(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

// completed/total, failures, elapsed and estimated time left.
class Progress {
 public:
  Progress(std::ostream& out, std::size_t total, bool interactive)
      : out_(out), total_(total), interactive_(interactive), start_(Clock::now()) {}

  void finished(const std::string& line, bool failed) {
    ++done_;
    if (failed) ++failed_;
    if (interactive_) {
      if (failed) out_ << "\r\033[K" << line << '\n';
      redraw();
    } else {
      out_ << fmt::format("[{}] {}", status(), line) << '\n';
    }
    out_.flush();
  }
  void redraw() {
    if (!interactive_) return;
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = total_ == 0 ? kWidth : kWidth * done_ / total_;
    out_ << "\r\033[K[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] "
         << status();
    out_.flush();
  }
  void close() {
    if (interactive_) out_ << '\n';
    out_.flush();
  }
  std::string status() const {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    std::string eta = "?";
    if (done_ > 0)
      eta =
          duration_text(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
    return fmt::format("{}/{} done, {} failed, {} elapsed, ETA {}", done_, total_, failed_,
                       duration_text(elapsed), eta);
  }

 private:
  std::ostream& out_;
  std::size_t total_, done_ = 0, failed_ = 0;
  bool interactive_;
  Clock::time_point start_;
};

json cost_json(const CostSpec& cost) {
  json out = study::cost_model_spec_json(cost.spec);
  out["name"] = cost.name;
  return out;
}

json rules_json(const RulesSpec& rules, std::size_t count) {
  std::vector<std::string> paths;
  for (const std::string& path : rules.paths) paths.push_back(path_for_record(path));
  return {{"name", rules.name},
          {"paths", paths},
          {"rulesets", rules.selection.rulesets},
          {"tags", rules.selection.tags},
          {"exclude_tags", rules.selection.exclude_tags},
          {"names", rules.selection.names},
          {"count", count}};
}

}  // namespace

void parse_shard(const std::string& text, std::size_t& index, std::size_t& count) {
  const auto slash = text.find('/');
  try {
    std::size_t used_i = 0, used_n = 0;
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    const std::string i = text.substr(0, slash), n = text.substr(slash + 1);
    index = std::stoul(i, &used_i);
    count = std::stoul(n, &used_n);
    if (used_i != i.size() || used_n != n.size() || i.front() == '-' || n.front() == '-')
      throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    throw Error(fmt::format("--shard '{}': expected I/N, e.g. 0/4", text));
  }
  if (count == 0 || index >= count)
    throw Error(fmt::format("--shard '{}': expected 0 <= I < N", text));
}

StudyRunSummary run_study(const Study& study, const StudyRunOptions& options,
                          std::ostream& progress_out) {
  StudyRunSummary summary;
  summary.grid = study.runs.size();
  const std::vector<RunSpec> runs =
      shard_runs(study.runs, options.shard_index, options.shard_count);
  summary.shard = runs.size();

  // ONNX Runtime, when the study measures in it: found and loadable before anything is written.
  OnnxRuntimeSetup onnxruntime;
  if (study.measure_onnxruntime) {
    onnxruntime.dir = onnxruntime_dir(options.onnxruntime_dir);
    require_onnxruntime(onnxruntime.dir, SourceLocation::at(study.file));
  }

  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec)
    throw Error(fmt::format("cannot create the output directory: {}", ec.message()),
                SourceLocation::at(options.out_dir));
  const fs::path out(options.out_dir);
  summary.results_file =
      (out / results_file_name(options.shard_index, options.shard_count)).string();

  // One bench process per output directory: a second one would run and record the same runs.
  const StudyDirectoryLock lock(options.out_dir);

  // What is recorded already.
  std::vector<std::string> warnings;
  if (options.resume) {
    if (std::string torn = cut_torn_tail(summary.results_file); !torn.empty())
      warnings.push_back(std::move(torn));
  }
  const std::vector<json> existing = read_records(options.out_dir, &warnings);
  std::set<std::string> recorded;
  for (const json& record : existing) {
    const json& name = record.contains("study") ? record["study"] : json();
    if (!name.is_string() || name.get<std::string>() != study.name)
      throw Error(fmt::format("the output directory holds records of study {}, not of '{}': "
                              "choose another --out",
                              name.is_string() ? "'" + name.get<std::string>() + "'"
                                               : std::string("without a name"),
                              study.name),
                  SourceLocation::at(options.out_dir));
    if (record.value("status", "") == "ok" || (!options.retry_failed && !is_interrupted(record)))
      recorded.insert(record["id"].get<std::string>());
  }
  for (const auto& warning : warnings) progress_out << "warning: " << warning << '\n';
  if (!options.resume && !existing.empty())
    throw Error(
        "the output directory already holds results: pass --resume to continue the study "
        "or choose another --out",
        SourceLocation::at(options.out_dir));
  write_file_atomically((out / kConfigCopyName).string(), study.text);

  std::vector<RunSpec> pending;
  for (const RunSpec& run : runs)
    if (recorded.count(run.id) == 0) pending.push_back(run);
  summary.skipped = runs.size() - pending.size();

  // Inputs are loaded once, before forking: every child inherits them, and a bad model or rule
  // file stops the study before anything runs.
  std::vector<std::unique_ptr<tensor::Graph>> graphs(study.models.size());
  std::vector<std::unique_ptr<dsl::RuleSet>> rule_sets(study.rules.size());
  std::vector<std::size_t> rule_counts(study.rules.size(), 0);
  for (const RunSpec& run : pending) {
    if (!graphs[run.model]) {
      const ModelSpec& model = study.models[run.model];
      try {
        graphs[run.model] =
            std::make_unique<tensor::Graph>(frontend::load_model(model.source, model.load));
      } catch (const Error& e) {
        throw Error(fmt::format("model '{}': {}", model.name, e.what()),
                    SourceLocation::at(study.file));
      }
    }
    if (!rule_sets[run.rules]) {
      const RulesSpec& spec = study.rules[run.rules];
      const dsl::RuleLibrary library = dsl::load_rules_or_throw(spec.paths);
      auto selected = dsl::select_rules(library, spec.selection);
      if (selected.empty())
        throw Error(fmt::format("rule set '{}' selects no rules", spec.name),
                    SourceLocation::at(study.file));
      if (options.verify_rules) {
        try {
          verify::require_sound(library, selected);
        } catch (const Error& e) {
          throw Error(fmt::format("rule set '{}': {}", spec.name, e.message()),
                      SourceLocation::at(study.file));
        }
      }
      rule_counts[run.rules] = selected.size();
      rule_sets[run.rules] = std::make_unique<dsl::RuleSet>(std::move(selected));
    }
  }

  // ONNX Runtime's script, when the study measures in it (checked above).
  if (study.measure_onnxruntime && !pending.empty()) {
    fs::create_directories(out / "onnxruntime", ec);
    onnxruntime.script = (out / "onnxruntime" / "ort-compare.cjs").string();
    write_compare_script(onnxruntime.script);
  }

  const json machine = machine_info();
  const std::string commit =
      options.source_dir.empty() ? "unknown" : git_commit(options.source_dir);
  const double harness_rss = current_rss_mb();
  const fs::path logs = out / "logs";
  fs::create_directories(logs, ec);
  const std::string shard = fmt::format("{}/{}", options.shard_index, options.shard_count);

  progress_out << fmt::format(
      "study {}: {} runs in the grid, {} in shard {}, {} already recorded, {} to run ({} at a "
      "time)\n",
      study.name, summary.grid, summary.shard, shard, summary.skipped, pending.size(),
      options.jobs);
  Progress progress(progress_out, pending.size(), options.interactive);
  progress.redraw();

  // SIGINT or SIGTERM: the running runs are recorded as interrupted before the process exits
  // (with 128 + the signal, when this guard ends).
  const DeferInterrupts record_before_exit;
  std::size_t interrupted = 0;
  run_isolated(
      pending.size(), options.jobs,
      [&](std::size_t i) {
        const RunSpec& run = pending[i];
        IsolatedJob job;
        job.seconds = run.limits.seconds;
        job.memory_mb = run.limits.memory_mb;
        job.log_path = (logs / (run.id + ".log")).string();
        job.work = [&study, &graphs, &rule_sets, &run, &onnxruntime, &options, &out]() {
          CostModelSpec cost_spec = study.costs[run.cost].spec;
          cost_spec.onnxruntime_dir = options.onnxruntime_dir;
          const auto model = study::make_cost_model(cost_spec);
          const tensor::Graph& graph = *graphs[run.model];
          SessionOptions session_options;
          session_options.search = run.options;
          session_options.measure = study.measure;
          const SessionResult session = run_optimize_session(
              graph, study.models[run.model].name, *rule_sets[run.rules], *model, session_options);
          json result = session.report.to_json();
          if (study.measure_onnxruntime)
            result["onnxruntime"] = measure_in_onnxruntime(graph, session.report.result.graph,
                                                           onnxruntime, *study.measure_onnxruntime,
                                                           (out / "onnxruntime" / run.id).string());
          return result;
        };
        return job;
      },
      [&](std::size_t i, const IsolatedOutcome& outcome) {
        const RunSpec& run = pending[i];
        json record = {
            {"study", study.name},
            {"id", run.id},
            {"index", run.index},
            {"status", outcome.status},
            {"model", study.models[run.model].name},
            {"model_source", path_for_record(study.models[run.model].source)},
            {"rules", rules_json(study.rules[run.rules], rule_counts[run.rules])},
            {"configuration", run.configuration},
            {"base_configuration", run.base_configuration},
            {"sweep", run.sweep},
            {"cost_model", cost_json(study.costs[run.cost])},
            {"seed", run.seed},
            {"parameters", parameters_json(run.options)},
            {"limits",
             {{"seconds", run.limits.seconds},
              {"memory_mb", run.limits.memory_mb},
              {"memory_enforced", memory_limits_enforced()}}},
            {"result", outcome.result},
            {"wall_seconds", outcome.wall_seconds},
            {"peak_rss_mb", outcome.peak_rss_mb},
            {"cpu_seconds", outcome.cpu_seconds},
            {"harness_rss_mb", harness_rss},
            {"machine", machine},
            {"git_commit", commit},
            {"finished_at", utc_timestamp()},
            {"shard", shard},
        };
        if (!outcome.message.empty()) record["message"] = outcome.message;
        append_record(summary.results_file, record);
        // The log of a successful run is kept only when it says something.
        const fs::path log = logs / (run.id + ".log");
        std::error_code ignored;
        if (outcome.status == "ok" && fs::exists(log, ignored) && fs::file_size(log, ignored) == 0)
          fs::remove(log, ignored);
        ++summary.ran;
        if (outcome.status == "interrupted") ++interrupted;
        const bool failed = outcome.status != "ok";
        if (failed) ++summary.failed;
        // As `mctsat bench --list` names a run: model / rules / configuration / cost / seed.
        std::string line = fmt::format(
            "{} / {} / {} / {} / seed {}: ", study.models[run.model].name,
            study.rules[run.rules].name, run.configuration, study.costs[run.cost].name, run.seed);
        if (failed)
          line += fmt::format("{} ({})", outcome.status, outcome.message);
        else {
          line += fmt::format("{:+.2f}%", outcome.result["speedup_percent"].get<double>());
          if (outcome.result.contains("measured"))
            line += fmt::format(" (measured {:+.2f}%)",
                                outcome.result["measured"]["speedup_percent"].get<double>());
          if (const json& ort = outcome.result.value("onnxruntime", json()); ort.is_object())
            line += fmt::format(" (ONNX Runtime {:+.2f}%{})", ort.value("speedup_percent", 0.0),
                                ort.value("outputs_agree", false) ? "" : ", outputs differ");
          line += fmt::format(" in {:.1f} s", outcome.wall_seconds);
        }
        progress.finished(line, failed);
      },
      [&] { progress.redraw(); });
  progress.close();
  std::error_code ignored;
  if (fs::is_empty(logs, ignored)) fs::remove(logs, ignored);
  if (!onnxruntime.script.empty()) {
    fs::remove(onnxruntime.script, ignored);
    if (fs::is_empty(out / "onnxruntime", ignored)) fs::remove(out / "onnxruntime", ignored);
  }
  if (deferred_interrupt() != 0)
    progress_out << fmt::format(
        "stopped: {} running run{} recorded as interrupted in {} (--resume runs them again)\n",
        interrupted, interrupted == 1 ? "" : "s", summary.results_file);
  return summary;
}

}  // namespace mctsat::study
