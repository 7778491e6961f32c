// `mctsat profile MODEL`: times every operator of a model with oneDNN (the measured cost model),
// filling the per-machine cache, and prints the slowest operators next to the roofline estimate
// of a device profile, with the rank correlation between the two. `--calibrate OUT.json` fits
// the roofline profile's numbers to the timings (runtime/profile_calibration.hpp), writes the
// profile and compares how well it and the starting profile predict them.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <numeric>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "frontend/model_io.hpp"
#include "runtime/dnnl_executor.hpp"
#include "runtime/measured_cost_model.hpp"
#include "runtime/profile_calibration.hpp"
#include "runtime/timed_execution.hpp"
#include "support/files.hpp"
#include "support/statistics.hpp"
#include "tensor/cost_model.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/roofline_cost_model.hpp"

namespace mctsat::cli {
namespace {

struct ProfileOptions {
  std::string model;
  std::string cache;
  std::string device = "cpu-2core";
  std::string calibrate;  // where to write the calibrated profile ("": no calibration)
  std::size_t top = 10;
  int threads = 0;
  bool json = false;
};

// Spearman's rank correlation, 0 where it is undefined (as the report has always printed it).
double rank_correlation_or_zero(const std::vector<double>& x, const std::vector<double>& y) {
  const double rho = rank_correlation(x, y);
  return std::isnan(rho) ? 0.0 : rho;
}

// How well per-node predictions match per-node measurements, over the nodes with a measured time.
nlohmann::json prediction_quality(const std::string& profile,
                                  const std::vector<tensor::NodeCost>& measured,
                                  const std::vector<tensor::NodeCost>& predicted) {
  std::vector<double> xs, ys, errors;
  double measured_total = 0, predicted_total = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    if (!(measured[i].cost_ms > 0)) continue;
    xs.push_back(measured[i].cost_ms);
    ys.push_back(predicted[i].cost_ms);
    errors.push_back(100 * std::abs(predicted[i].cost_ms / measured[i].cost_ms - 1));
    measured_total += measured[i].cost_ms;
    predicted_total += predicted[i].cost_ms;
  }
  return {{"profile", profile},
          {"predicted_ms", predicted_total},
          {"rank_correlation", rank_correlation_or_zero(xs, ys)},
          {"total_error_percent",
           measured_total > 0 ? 100 * (predicted_total / measured_total - 1) : 0.0},
          {"median_operator_error_percent", quantile(errors, 0.5)}};
}

// Fits a profile to the measurements, writes it to options.calibrate, reads it back and compares
// its predictions with those of the starting profile.
nlohmann::json calibrate(const ProfileOptions& options, const tensor::Graph& graph,
                         const runtime::MeasuredCostModel& measured,
                         const tensor::RooflineCostModel& start,
                         const std::vector<tensor::NodeCost>& measured_costs) {
  std::vector<runtime::CalibrationSample> samples;
  tensor::for_each_priced_instance(graph, [&](tensor::NodeId, const tensor::OpInstance& op) {
    const double ms = measured.cost(op);
    if (ms > 0) samples.push_back(runtime::calibration_sample(start.estimate(op), ms));
  });
  const runtime::Calibration calibration = runtime::calibrate_profile(samples, start.profile());
  tensor::DeviceProfile profile = calibration.profile;
  const std::string machine = measured.table().machine();
  profile.name = std::filesystem::path(options.calibrate).stem().string();
  if (profile.name.empty()) profile.name = "calibrated";
  profile.description = fmt::format(
      "This machine ({}) as the roofline model sees it: fitted by `mctsat profile {} --calibrate` "
      "to oneDNN timings of {} operators, starting from '{}'.",
      machine, options.model, samples.size(), start.profile().name);
  profile.sources = {
      fmt::format("{} per-operator oneDNN timings of model {} (measured-cost cache {})",
                  samples.size(), options.model, measured.cache_path())};
  write_file_atomically(options.calibrate, tensor::format_profile(profile));
  // What the cost options will load: the file as written.
  const tensor::RooflineCostModel calibrated(tensor::load_profile_file(options.calibrate));

  return {{"file", options.calibrate},
          {"profile",
           {{"name", profile.name},
            {"peak_flops", profile.peak_flops},
            {"memory_bandwidth", profile.memory_bandwidth},
            {"launch_overhead_s", profile.launch_overhead_s},
            {"saturation_elements", profile.saturation_elements}}},
          {"operators", samples.size()},
          {"compute_bound", calibration.compute_bound},
          {"memory_bound", calibration.memory_bound},
          {"error_factor", std::exp(calibration.log_rms)},
          {"before", prediction_quality(start.profile().name, measured_costs,
                                        tensor::node_costs(graph, start))},
          {"after", prediction_quality(profile.name, measured_costs,
                                       tensor::node_costs(graph, calibrated))}};
}

nlohmann::json build_report(const ProfileOptions& options, const tensor::Graph& graph) {
  if (options.threads > 0) runtime::set_executor_threads(options.threads);
  runtime::MeasuredCostModel measured(options.cache.empty() ? runtime::default_measured_cache_path()
                                                            : options.cache);
  const tensor::RooflineCostModel roofline(tensor::resolve_profile(options.device));
  const std::vector<tensor::NodeCost> measured_costs = tensor::node_costs(graph, measured);
  const std::vector<tensor::NodeCost> roofline_costs = tensor::node_costs(graph, roofline);
  measured.save();
  nlohmann::json calibration;
  if (!options.calibrate.empty())
    calibration = calibrate(options, graph, measured, roofline, measured_costs);

  struct Row {
    tensor::NodeId node;
    double measured_ms, roofline_ms;
  };
  std::vector<Row> rows;
  for (std::size_t i = 0; i < measured_costs.size(); ++i) {
    if (measured_costs[i].cost_ms > 0 || roofline_costs[i].cost_ms > 0)
      rows.push_back(
          {measured_costs[i].node, measured_costs[i].cost_ms, roofline_costs[i].cost_ms});
  }
  double measured_total = 0, roofline_total = 0;
  std::vector<double> xs, ys;
  for (const Row& row : rows) {
    measured_total += row.measured_ms;
    roofline_total += row.roofline_ms;
    xs.push_back(row.measured_ms);
    ys.push_back(row.roofline_ms);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.measured_ms > b.measured_ms; });
  nlohmann::json slowest = nlohmann::json::array();
  for (std::size_t i = 0; i < std::min(options.top, rows.size()); ++i) {
    const tensor::Node& node = graph.node(rows[i].node);
    slowest.push_back({{"node", node.name},
                       {"op", tensor::op_name(node.op)},
                       {"measured_ms", rows[i].measured_ms},
                       {"roofline_ms", rows[i].roofline_ms}});
  }
  nlohmann::json report = {{"model", options.model},
                           {"machine", measured.table().machine()},
                           {"cache", measured.cache_path()},
                           {"timed_operators", rows.size()},
                           {"newly_measured", measured.measured_count()},
                           {"measured_ms", measured_total},
                           {"roofline", roofline.name()},
                           {"roofline_ms", roofline_total},
                           {"rank_correlation", rank_correlation_or_zero(xs, ys)},
                           {"slowest", slowest}};
  if (!calibration.is_null()) report["calibration"] = std::move(calibration);
  return report;
}

void print_profile_report(const nlohmann::json& r) {
  std::cout << fmt::format("model {}: {} timed operators on {}\n", r["model"].get<std::string>(),
                           r["timed_operators"].get<std::size_t>(),
                           r["machine"].get<std::string>());
  std::cout << fmt::format("  cache            {} ({} newly measured)\n",
                           r["cache"].get<std::string>(), r["newly_measured"].get<std::size_t>());
  std::cout << fmt::format("  measured total   {:.4f} ms (sum of per-operator costs)\n",
                           r["measured_ms"].get<double>());
  std::cout << fmt::format("  {:<16} {:.4f} ms, per-operator rank correlation {:.3f}\n",
                           r["roofline"].get<std::string>(), r["roofline_ms"].get<double>(),
                           r["rank_correlation"].get<double>());
  if (!r["slowest"].empty()) std::cout << "slowest operators:            measured    roofline\n";
  for (const auto& row : r["slowest"])
    std::cout << fmt::format("  {:<20} {:<10} {:9.4f} ms {:9.4f} ms\n",
                             row["node"].get<std::string>(), row["op"].get<std::string>(),
                             row["measured_ms"].get<double>(), row["roofline_ms"].get<double>());
  if (!r.contains("calibration")) return;
  const auto& c = r["calibration"];
  const auto& p = c["profile"];
  std::cout << fmt::format(
      "calibrated profile '{}' written to {}: fitted to {} operators ({} compute bound, {} memory "
      "bound), predicting them within a factor of {:.2f} (geometric root mean square)\n",
      p["name"].get<std::string>(), c["file"].get<std::string>(), c["operators"].get<std::size_t>(),
      c["compute_bound"].get<std::size_t>(), c["memory_bound"].get<std::size_t>(),
      c["error_factor"].get<double>());
  std::cout << fmt::format(
      "  peak {:.1f} GFLOP/s, bandwidth {:.1f} GB/s, launch overhead {:.3g} us, saturation {:.0f} "
      "elements\n",
      p["peak_flops"].get<double>() / 1e9, p["memory_bandwidth"].get<double>() / 1e9,
      p["launch_overhead_s"].get<double>() * 1e6, p["saturation_elements"].get<double>());
  std::cout << "  profile                predicted   rank correlation   total error   median "
               "operator error\n";
  for (const char* which : {"before", "after"}) {
    const auto& q = c[which];
    std::cout << fmt::format(
        "  {:<20} {:9.4f} ms {:18.3f} {:+12.1f}% {:22.1f}%\n", q["profile"].get<std::string>(),
        q["predicted_ms"].get<double>(), q["rank_correlation"].get<double>(),
        q["total_error_percent"].get<double>(), q["median_operator_error_percent"].get<double>());
  }
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile", "Time every operator of a model with oneDNN, filling the measured-cost cache");
  command->add_option("model", options->model, "Zoo model name or model file")->required();
  command->add_option("--cost-table", options->cache,
                      "The measurement cache (default: one per machine under ~/.cache/mctsat)");
  command
      ->add_option("--device", options->device,
                   "Device profile whose roofline estimate is compared: a builtin name or a .json")
      ->capture_default_str();
  command->add_option("--top", options->top, "How many of the slowest operators to list")
      ->capture_default_str();
  command->add_option("--calibrate", options->calibrate,
                      "Fit the roofline profile (starting from --device) to the timings and write "
                      "it to this .json file, which --device FILE.json loads");
  command->add_option("--threads", options->threads, "oneDNN threads (default: OpenMP's)")
      ->check(thread_count());
  command->add_flag("--json", options->json, "Print JSON");
  command->callback([options] {
    const tensor::Graph graph = frontend::load_model(options->model);
    const nlohmann::json report = build_report(*options, graph);
    if (options->json)
      std::cout << report.dump(2) << '\n';
    else
      print_profile_report(report);
  });
}

}  // namespace mctsat::cli
