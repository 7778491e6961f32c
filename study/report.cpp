// Aggregating run records and rendering them as Markdown and CSV.
#include "study/report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "study/run_records.hpp"
#include "study/plots.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/json_text.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

template <typename T>
std::size_t index_of(std::vector<T>& list, const T& value) {
  const auto it = std::find(list.begin(), list.end(), value);
  if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
  list.push_back(value);
  return list.size() - 1;
}

void add_distinct(std::vector<std::string>& list, const std::string& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

std::string rules_name(const json& record) {
  const json& rules = record.value("rules", json::object());
  return rules.is_object() ? rules.value("name", "") : "";
}
std::string cost_name(const json& record) {
  const json& cost = record.value("cost_model", json::object());
  return cost.is_object() ? cost.value("name", "") : "";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(double v, int digits = 4) {
  return std::isfinite(v) ? fmt::format("{:.{}f}", v, digits) : "";
}

std::string markdown_escape(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string failures_text(const Cell& cell) {
  std::string out;
  for (const auto& [status, count] : cell.failures)
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", count, status);
  return out;
}

// "+33.10 ± 2.10" (n >= 2), "+33.10" (n = 1), "failed (2 timeout)".
std::string speedup_cell(const Cell* cell) {
  if (cell == nullptr) return "";
  if (cell->ok == 0) return fmt::format("failed ({})", failures_text(*cell));
  std::string out = fmt::format("{:+.2f}", cell->speedup.mean);
  if (cell->speedup.n >= 2) out += fmt::format(" ± {:.2f}", cell->speedup.std);
  if (cell->failed > 0) out += fmt::format(" ({} failed)", cell->failed);
  return out;
}

// "+33.10 / -0.40" (estimated / measured, means over the runs), "+33.10 / " without measurements.
std::string estimated_measured_cell(const Cell* cell) {
  if (cell == nullptr || cell->ok == 0) return "";
  std::string out = fmt::format("{:+.2f} / ", cell->speedup.mean);
  if (cell->measured_speedup.n > 0) out += fmt::format("{:+.2f}", cell->measured_speedup.mean);
  if (cell->measured_speedup.n >= 2) out += fmt::format(" ± {:.2f}", cell->measured_speedup.std);
  return out;
}

// "+33.10 / -0.40 / +1.20" (estimated / oneDNN / ONNX Runtime, means over the runs; a part is
// empty without its measurement), "(outputs differ in K)" when ONNX Runtime saw other outputs.
std::string estimated_dnnl_ort_cell(const Cell* cell) {
  if (cell == nullptr || cell->ok == 0) return "";
  std::string out = estimated_measured_cell(cell) + " / ";
  const Stats& ort = cell->onnxruntime_speedup;
  if (ort.n > 0) out += fmt::format("{:+.2f}", ort.mean);
  if (ort.n >= 2) out += fmt::format(" ± {:.2f}", ort.std);
  if (cell->onnxruntime_outputs_differ > 0)
    out += fmt::format(" (outputs differ in {})", cell->onnxruntime_outputs_differ);
  return out;
}

std::string time_cell(const Cell* cell) {
  if (cell == nullptr || cell->ok == 0) return "";
  std::string out = fmt::format("{:.3g}", cell->wall_s.mean);
  if (cell->wall_s.n >= 2) out += fmt::format(" ± {:.2g}", cell->wall_s.std);
  return out;
}

// "98.70" (one run), "98.70 (min 97.00)" (several), "" when no improvement is known.
std::string share_cell(const Cell* cell) {
  if (cell == nullptr || cell->best_known_share.n == 0) return "";
  std::string out = fmt::format("{:.2f}", cell->best_known_share.mean);
  if (cell->best_known_share.n >= 2)
    out += fmt::format(" (min {:.2f})", cell->best_known_share.min);
  return out;
}

std::pair<std::string, std::string> best_known_key(const json& record) {
  return {record.value("model", std::string("?")), cost_name(record)};
}

// The best cost of every model (under each cost model) of `records`, over the successful runs of
// `records` and `references`.
void find_best_known(const std::vector<json>& records, const std::vector<json>& references,
                     Summary& summary) {
  std::set<std::pair<std::string, std::string>> models;
  for (const json& record : records) models.insert(best_known_key(record));
  std::set<std::string> studies;
  auto consider = [&](const json& record, bool reference) {
    const json& result = record.value("result", json());
    if (record.value("status", "") != "ok" || !result.is_object()) return;
    const auto key = best_known_key(record);
    if (!models.contains(key)) return;
    const double original = result.value("original_cost_ms", 0.0);
    const double found = result.value("optimized_cost_ms", original);
    std::string by = record.value("configuration", std::string("?"));
    if (reference) {
      const std::string study = record.value("study", std::string("?"));
      by = study + "/" + by;
      if (studies.insert(study).second) summary.reference_studies.push_back(study);
    }
    const auto [it, inserted] = summary.best_known.try_emplace(key, BestKnown{original, found, by});
    if (!inserted && found < it->second.best_ms * (1 - 1e-12)) {
      it->second.best_ms = found;
      it->second.found_by = by;
    }
  };
  for (const json& record : records) consider(record, false);
  for (const json& record : references) consider(record, true);
}

// A successful run's percent of its model's best-known improvement; none when nothing better than
// the original is known.
std::optional<double> best_known_share(const Summary& summary, const json& record) {
  const auto it = summary.best_known.find(best_known_key(record));
  if (it == summary.best_known.end()) return std::nullopt;
  const BestKnown& best = it->second;
  if (!(best.best_ms < best.original_ms * (1 - 1e-9))) return std::nullopt;
  const json& result = record["result"];
  const double original = result.value("original_cost_ms", 0.0);
  const double found = result.value("optimized_cost_ms", original);
  return 100.0 * (original - found) / (original - best.best_ms);
}

}  // namespace

Stats Stats::of(const std::vector<double>& values) {
  Stats s;
  s.n = values.size();
  if (values.empty()) return s;
  double sum = 0;
  s.min = s.max = values.front();
  for (double v : values) {
    sum += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean = sum / static_cast<double>(s.n);
  if (s.n >= 2) {
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(squares / static_cast<double>(s.n - 1));
  }
  return s;
}

Summary summarize(const std::vector<json>& records, const std::vector<json>& references) {
  Summary summary;
  std::set<std::string> rule_sets, costs;
  for (const json& record : records) {
    rule_sets.insert(rules_name(record));
    costs.insert(cost_name(record));
  }
  find_best_known(records, references, summary);
  struct Values {
    std::vector<double> speedup, original, optimized, exploration, extraction, wall, nodes, rss;
    std::vector<double> measured, onnxruntime, share;
    std::size_t onnxruntime_outputs_differ = 0;
    std::map<std::string, double> rules;
    std::set<std::uint64_t> seeds;
  };
  std::map<std::pair<std::size_t, std::size_t>, Values> values;
  std::vector<std::string> variant_labels;
  for (const json& record : records) {
    ++summary.runs;
    if (summary.study.empty()) summary.study = record.value("study", "");
    const std::size_t model = index_of(summary.models, record.value("model", std::string("?")));
    std::string label = record.value("configuration", std::string("?"));
    if (rule_sets.size() > 1) label += fmt::format(" [{}]", rules_name(record));
    if (costs.size() > 1) label += fmt::format(" @{}", cost_name(record));
    const std::size_t variant = index_of(variant_labels, label);
    if (variant == summary.variants.size())
      summary.variants.push_back(
          {label, record.value("base_configuration", label), record.value("sweep", json::object()),
           record.contains("parameters")
               ? find_name(search::kStrategyNames, record["parameters"].value("strategy", ""))
               : std::nullopt});
    Cell& cell = summary.cells[{model, variant}];
    Values& v = values[{model, variant}];
    if (record.contains("machine") && record["machine"].is_object())
      add_distinct(summary.machines,
                   fmt::format("{} ({} cores)", record["machine"].value("cpu", "?"),
                               record["machine"].value("cores", 0)));
    add_distinct(summary.commits, record.value("git_commit", "unknown"));
    const json& result = record.value("result", json());
    if (result.is_object() && result.contains("cost_model"))
      add_distinct(summary.cost_models, result["cost_model"].get<std::string>());
    const std::string finished = record.value("finished_at", "");
    if (!finished.empty()) {
      if (summary.first_finished.empty() || finished < summary.first_finished)
        summary.first_finished = finished;
      summary.last_finished = std::max(summary.last_finished, finished);
    }
    const std::string status = record.value("status", "?");
    if (status != "ok" || !result.is_object()) {
      ++cell.failed;
      ++cell.failures[status];
      ++summary.failed;
      summary.failures.push_back(record);
      continue;
    }
    ++cell.ok;
    ++summary.ok;
    v.seeds.insert(record.value("seed", std::uint64_t{0}));
    v.speedup.push_back(result.value("speedup_percent", 0.0));
    v.original.push_back(result.value("original_cost_ms", 0.0));
    v.optimized.push_back(result.value("optimized_cost_ms", 0.0));
    v.exploration.push_back(result.value("exploration_seconds", 0.0));
    v.extraction.push_back(result.value("extraction_seconds", 0.0));
    v.wall.push_back(result.value("exploration_seconds", 0.0) +
                     result.value("extraction_seconds", 0.0));
    v.nodes.push_back(result.contains("egraph") ? result["egraph"].value("nodes", 0.0) : 0.0);
    v.rss.push_back(record.value("peak_rss_mb", 0.0));
    if (const auto m = result.find("measured"); m != result.end() && m->is_object() &&
                                                m->contains("speedup_percent") &&
                                                (*m)["speedup_percent"].is_number())
      v.measured.push_back((*m)["speedup_percent"].get<double>());
    if (const auto o = result.find("onnxruntime"); o != result.end() && o->is_object() &&
                                                   o->contains("speedup_percent") &&
                                                   (*o)["speedup_percent"].is_number()) {
      v.onnxruntime.push_back((*o)["speedup_percent"].get<double>());
      if (!o->value("outputs_agree", false)) ++v.onnxruntime_outputs_differ;
    }
    if (const auto share = best_known_share(summary, record); share) v.share.push_back(*share);
    if (result.contains("rules_used"))
      for (const json& used : result["rules_used"]) {
        v.rules[used.value("rule", "?")] += used.value("count", 0.0);
        if (used.contains("sketch") && used["sketch"].is_string())
          summary.rule_sketches.emplace(used.value("rule", "?"), used["sketch"].get<std::string>());
      }
  }
  for (auto& [key, v] : values) {
    Cell& cell = summary.cells[key];
    cell.speedup = Stats::of(v.speedup);
    cell.original_ms = Stats::of(v.original);
    cell.optimized_ms = Stats::of(v.optimized);
    cell.exploration_s = Stats::of(v.exploration);
    cell.extraction_s = Stats::of(v.extraction);
    cell.wall_s = Stats::of(v.wall);
    cell.nodes = Stats::of(v.nodes);
    cell.rss_mb = Stats::of(v.rss);
    cell.measured_speedup = Stats::of(v.measured);
    cell.best_known_share = Stats::of(v.share);
    summary.measured = summary.measured || !v.measured.empty();
    cell.onnxruntime_speedup = Stats::of(v.onnxruntime);
    cell.onnxruntime_outputs_differ = v.onnxruntime_outputs_differ;
    summary.onnxruntime = summary.onnxruntime || !v.onnxruntime.empty();
    for (const auto& [rule, count] : v.rules)
      cell.rules[rule] = count / static_cast<double>(std::max<std::size_t>(cell.ok, 1));
    summary.max_seeds = std::max(summary.max_seeds, v.seeds.size());
  }
  return summary;
}

std::string markdown_report(const Summary& s) {
  std::string out = fmt::format("# Study `{}`\n\n", s.study);
  out += fmt::format("{} runs: {} ok, {} failed. ", s.runs, s.ok, s.failed);
  if (!s.machines.empty()) out += fmt::format("Machine: {}. ", fmt::join(s.machines, "; "));
  if (!s.cost_models.empty())
    out += fmt::format("Cost model: {}. ", fmt::join(s.cost_models, "; "));
  if (!s.commits.empty()) out += fmt::format("Commit: {}. ", fmt::join(s.commits, ", "));
  if (!s.first_finished.empty())
    out += fmt::format("Runs finished {} to {}.", s.first_finished, s.last_finished);
  out += "\n\n";

  auto table = [&](const std::string& title, auto&& cell_text) {
    out += fmt::format("## {}\n\n| model |", title);
    for (const Variant& v : s.variants) out += fmt::format(" {} |", markdown_escape(v.label));
    out += "\n|---|";
    for (std::size_t i = 0; i < s.variants.size(); ++i) out += "---:|";
    out += '\n';
    for (std::size_t m = 0; m < s.models.size(); ++m) {
      out += fmt::format("| {} |", markdown_escape(s.models[m]));
      for (std::size_t v = 0; v < s.variants.size(); ++v) {
        const auto it = s.cells.find({m, v});
        out += fmt::format(" {} |", cell_text(it == s.cells.end() ? nullptr : &it->second));
      }
      out += '\n';
    }
    out += '\n';
  };
  table(fmt::format("Speedup (%), mean ± std over seeds (up to {} per cell)", s.max_seeds),
        speedup_cell);
  if (s.onnxruntime)
    table(
        "Estimated / oneDNN / ONNX Runtime speedup (%): the cost model's estimate, the median of "
        "interleaved oneDNN runs and of interleaved ONNX Runtime runs of the exported models "
        "(one thread) on this CPU, means over seeds",
        estimated_dnnl_ort_cell);
  else if (s.measured)
    table(
        "Estimated / measured speedup (%): the cost model's estimate and the median of interleaved "
        "oneDNN runs on this CPU, means over seeds",
        estimated_measured_cell);
  if (!s.best_known.empty()) {
    out += "## Best known\n\nThe cheapest graph any run found";
    if (!s.reference_studies.empty())
      out += fmt::format(" (also counting the runs of {})", fmt::join(s.reference_studies, ", "));
    out +=
        ".\n\n| model | cost model | original (ms) | best known (ms) | cost reduction (%) | found "
        "by "
        "|\n|---|---|---:|---:|---:|---|\n";
    for (const auto& [key, best] : s.best_known)
      out += fmt::format("| {} | {} | {:.6g} | {:.6g} | {:.2f} | {} |\n",
                         markdown_escape(key.first), markdown_escape(key.second), best.original_ms,
                         best.best_ms, best.improvement_percent(), markdown_escape(best.found_by));
    out += '\n';
    table(
        "Share of the best-known improvement (%): (original - found) / (original - best known), "
        "mean over seeds (min)",
        share_cell);
  }
  table("Optimization time (s: exploration + extraction), mean ± std", time_cell);
  table("E-graph nodes at the end of the search, mean", [](const Cell* c) {
    return c == nullptr || c->ok == 0 ? std::string() : fmt::format("{:.0f}", c->nodes.mean);
  });
  table("Peak memory of a run (MB), max", [](const Cell* c) {
    return c == nullptr || c->ok == 0 ? std::string() : fmt::format("{:.0f}", c->rss_mb.max);
  });
  if (!s.failures.empty()) {
    out +=
        "## Failures\n\n| model | configuration | seed | status | message "
        "|\n|---|---|---:|---|---|\n";
    for (const json& f : s.failures) {
      std::string message = f.value("message", "");
      if (message.size() > 160) message = message.substr(0, 157) + "...";
      out += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_escape(f.value("model", "")),
                         markdown_escape(f.value("configuration", "")), f.value("seed", 0),
                         f.value("status", ""), markdown_escape(message));
    }
    out += '\n';
  }
  return out;
}

std::string summary_csv(const Summary& s) {
  std::string out =
      "model,variant,configuration,ok,failed,speedup_mean,speedup_std,speedup_min,speedup_max,"
      "original_ms,optimized_ms_mean,exploration_s_mean,extraction_s_mean,time_s_mean,time_s_std,"
      "nodes_mean,peak_rss_mb_max,measured_speedup_mean,measured_speedup_std,best_known_share_mean,"
      "best_known_share_min,onnxruntime_speedup_mean,onnxruntime_speedup_std,"
      "onnxruntime_outputs_differ\n";
  for (const auto& [key, c] : s.cells) {
    const Variant& v = s.variants[key.second];
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_field(s.models[key.first]), csv_field(v.label), csv_field(v.base_configuration), c.ok,
        c.failed, number(c.speedup.mean), number(c.speedup.std), number(c.speedup.min),
        number(c.speedup.max), number(c.original_ms.mean), number(c.optimized_ms.mean),
        number(c.exploration_s.mean), number(c.extraction_s.mean), number(c.wall_s.mean),
        number(c.wall_s.std), number(c.nodes.mean, 1), number(c.rss_mb.max, 1),
        c.measured_speedup.n > 0 ? number(c.measured_speedup.mean) : "",
        c.measured_speedup.n > 0 ? number(c.measured_speedup.std) : "",
        c.best_known_share.n > 0 ? number(c.best_known_share.mean) : "",
        c.best_known_share.n > 0 ? number(c.best_known_share.min) : "",
        c.onnxruntime_speedup.n > 0 ? number(c.onnxruntime_speedup.mean) : "",
        c.onnxruntime_speedup.n > 0 ? number(c.onnxruntime_speedup.std) : "",
        c.onnxruntime_speedup.n > 0 ? std::to_string(c.onnxruntime_outputs_differ) : "");
  }
  return out;
}

std::string runs_csv(const std::vector<json>& records) {
  std::string out =
      "index,id,model,configuration,rules,cost_model,seed,status,original_ms,optimized_ms,"
      "speedup_percent,exploration_s,extraction_s,wall_s,nodes,classes,iterations,stop_reason,"
      "peak_rss_mb,message,measured_original_ms,measured_optimized_ms,measured_speedup_percent,"
      "max_relative_difference,onnxruntime_original_ms,onnxruntime_optimized_ms,"
      "onnxruntime_speedup_percent,onnxruntime_outputs_agree\n";
  for (const json& r : records) {
    const json& result = r.value("result", json());
    const bool ok = r.value("status", "") == "ok" && result.is_object();
    auto field = [&](const char* key) { return ok ? number(result.value(key, 0.0)) : ""; };
    const json measured = ok ? result.value("measured", json()) : json();
    auto measured_field = [&](const json::json_pointer& pointer) {
      return measured.is_object() && measured.contains(pointer) && measured[pointer].is_number()
                 ? fmt::format("{:.6g}", measured[pointer].get<double>())
                 : "";
    };
    const json ort = ok ? result.value("onnxruntime", json()) : json();
    auto ort_field = [&](const json::json_pointer& pointer) {
      return ort.is_object() && ort.contains(pointer) && ort[pointer].is_number()
                 ? fmt::format("{:.6g}", ort[pointer].get<double>())
                 : "";
    };
    out += fmt::format(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        r.value("index", 0), r.value("id", ""), csv_field(r.value("model", "")),
        csv_field(r.value("configuration", "")), csv_field(rules_name(r)), csv_field(cost_name(r)),
        r.value("seed", 0), r.value("status", ""), field("original_cost_ms"),
        field("optimized_cost_ms"), field("speedup_percent"), field("exploration_seconds"),
        field("extraction_seconds"), number(r.value("wall_seconds", 0.0)),
        ok ? std::to_string(result["egraph"].value("nodes", 0)) : "",
        ok ? std::to_string(result["egraph"].value("classes", 0)) : "",
        ok ? std::to_string(result.value("iterations", 0)) : "",
        ok ? csv_field(result.value("stop_reason", "")) : "",
        number(r.value("peak_rss_mb", 0.0), 1), csv_field(r.value("message", "")),
        measured_field(json::json_pointer("/original/median_ms")),
        measured_field(json::json_pointer("/optimized/median_ms")),
        measured_field(json::json_pointer("/speedup_percent")),
        measured_field(json::json_pointer("/max_relative_difference")),
        ort_field(json::json_pointer("/original_ms/median")),
        ort_field(json::json_pointer("/optimized_ms/median")),
        ort_field(json::json_pointer("/speedup_percent")),
        ort.is_object() ? (ort.value("outputs_agree", false) ? "true" : "false") : "");
  }
  return out;
}

// The records the report can read: one with a field of a type it does not expect (a number for
// "model") is skipped with a warning naming it, as read_records skips lines that are not records,
// instead of failing the whole report with nlohmann's message.
std::vector<json> well_typed(std::vector<json> records, const std::string& dir,
                             std::vector<std::string>* warnings) {
  std::vector<json> kept;
  for (json& record : records) {
    try {
      const Summary alone = summarize({record}, {});
      (void)markdown_report(alone);
      (void)summary_csv(alone);
      (void)runs_csv({record});
      kept.push_back(std::move(record));
    } catch (const json::exception& e) {
      if (warnings != nullptr)
        warnings->push_back(fmt::format("{}: skipped the record of run '{}': {}", dir,
                                        record.value("id", ""), json_error(e, dir).message()));
    }
  }
  return kept;
}

ReportOutput write_report(const std::string& dir, const ReportOptions& options,
                          std::vector<std::string>* warnings) {
  const std::vector<json> records = well_typed(read_records(dir, warnings), dir, warnings);
  if (records.empty()) throw Error("no run records to report on", SourceLocation::at(dir));
  std::vector<json> references;
  for (const std::string& other : options.best_known_from) {
    std::vector<json> more = well_typed(read_records(other, warnings), other, warnings);
    if (more.empty())
      throw Error("no run records to take best-known costs from", SourceLocation::at(other));
    references.insert(references.end(), std::make_move_iterator(more.begin()),
                      std::make_move_iterator(more.end()));
  }
  const Summary summary = summarize(records, references);
  ReportOutput output;
  const fs::path base(dir);
  std::vector<std::string> plots;
  if (options.plots) plots = draw_plots(summary, (base / "plots").string(), options.gnuplot);
  output.markdown = markdown_report(summary);
  if (!plots.empty()) {
    output.markdown += "## Plots\n\n";
    for (const std::string& plot : plots)
      if (plot.ends_with(".png"))
        output.markdown += fmt::format("![{}](plots/{})\n\n", fs::path(plot).stem().string(),
                                       fs::path(plot).filename().string());
  }
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = (base / name).string();
    write_file_atomically(path, text);
    output.files.push_back(path);
  };
  write("report.md", output.markdown);
  write("summary.csv", summary_csv(summary));
  write("runs.csv", runs_csv(records));
  output.files.insert(output.files.end(), plots.begin(), plots.end());
  return output;
}

}  // namespace mctsat::study
