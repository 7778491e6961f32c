// Study reports from synthetic records: statistics over seeds, failures, the Markdown table, the
// CSV files, and the plots (including a sweep plot and the rule heat map).
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "study/report.hpp"
#include "study/run_records.hpp"
#include "support/error.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace mctsat::study;

namespace {

json ok_record(std::size_t index, const std::string& model, std::size_t node_limit,
               std::uint64_t seed, double speedup, double seconds) {
  return {{"study", "sweep"},
          {"id", "id" + std::to_string(index)},
          {"index", index},
          {"status", "ok"},
          {"model", model},
          {"configuration", "mcts node_limit=" + std::to_string(node_limit)},
          {"base_configuration", "mcts"},
          {"sweep", {{"mcts.node_limit", node_limit}}},
          {"seed", seed},
          {"parameters", {{"strategy", "mcts"}}},
          {"peak_rss_mb", 50.0},
          {"machine", {{"cpu", "Test CPU"}, {"cores", 2}}},
          {"git_commit", "abc"},
          {"result",
           {{"speedup_percent", speedup},
            {"original_cost_ms", 2.0},
            {"optimized_cost_ms", 2.0 / (1 + speedup / 100)},
            {"exploration_seconds", seconds},
            {"extraction_seconds", 0.5},
            {"egraph", {{"nodes", node_limit}, {"classes", node_limit / 2}}},
            {"iterations", 2},
            {"stop_reason", "node limit"},
            {"cost_model", "roofline(v100)"},
            {"rules_used",
             {{{"rule", "multi-05"},
               {"count", 2},
               {"sketch", "matmul, matmul -> split(matmul(concat))"}}}}}}};
}

}  // namespace

TEST_CASE("summaries give mean and sample deviation over seeds, and count failures") {
  std::vector<json> records = {ok_record(0, "bert", 500, 1, 10, 1),
                               ok_record(1, "bert", 500, 2, 20, 3),
                               ok_record(2, "bert", 1000, 1, 30, 2)};
  json failed = ok_record(3, "bert", 1000, 2, 0, 0);
  failed["status"] = "timeout";
  failed["result"] = nullptr;
  failed["message"] = "killed at the time limit of 1 s";
  records.push_back(failed);
  const Summary s = summarize(records);
  CHECK(s.runs == 4);
  CHECK(s.ok == 3);
  CHECK(s.failed == 1);
  REQUIRE(s.models.size() == 1);
  REQUIRE(s.variants.size() == 2);
  const Cell& first = s.cells.at({0, 0});
  CHECK(first.speedup.n == 2);
  CHECK(first.speedup.mean == doctest::Approx(15));
  CHECK(first.speedup.std == doctest::Approx(7.0710678));  // sample deviation (n - 1)
  CHECK(first.wall_s.mean == doctest::Approx(2.5));        // exploration + extraction
  CHECK(first.rules.at("multi-05") == doctest::Approx(2));
  CHECK(s.rule_sketches.at("multi-05") == "matmul, matmul -> split(matmul(concat))");
  const Cell& second = s.cells.at({0, 1});
  CHECK(second.ok == 1);
  CHECK(second.failed == 1);
  CHECK(second.failures.at("timeout") == 1);

  const std::string md = markdown_report(s);
  CHECK(md.find("| model | mcts node_limit=500 | mcts node_limit=1000 |") != std::string::npos);
  CHECK(md.find("| bert | +15.00 ± 7.07 | +30.00 (1 failed) |") != std::string::npos);
  CHECK(md.find("## Failures") != std::string::npos);
  CHECK(md.find("killed at the time limit of 1 s") != std::string::npos);
  CHECK(md.find("Test CPU (2 cores)") != std::string::npos);

  const std::string csv = summary_csv(s);
  CHECK(csv.find("bert,mcts node_limit=500,mcts,2,0,15.0000,7.0711") != std::string::npos);
  const std::string runs = runs_csv(records);
  CHECK(std::count(runs.begin(), runs.end(), '\n') == 5);
  CHECK(runs.find(",timeout,") != std::string::npos);
}

TEST_CASE("measured speedups appear next to the estimates only when recorded") {
  std::vector<json> records = {ok_record(0, "bert", 500, 1, 10, 1),
                               ok_record(1, "bert", 500, 2, 20, 1)};
  const Summary without = summarize(records);
  CHECK_FALSE(without.measured);
  CHECK(markdown_report(without).find("measured") == std::string::npos);
  records[0]["result"]["measured"] = {{"speedup_percent", -1.0},
                                      {"original", {{"median_ms", 2.0}}},
                                      {"optimized", {{"median_ms", 2.02}}},
                                      {"max_relative_difference", 1e-7}};
  records[1]["result"]["measured"] = {{"speedup_percent", 3.0}};
  const Summary with = summarize(records);
  CHECK(with.measured);
  CHECK(with.cells.at({0, 0}).measured_speedup.mean == doctest::Approx(1));
  const std::string md = markdown_report(with);
  CHECK(md.find("Estimated / measured speedup") != std::string::npos);
  CHECK(md.find("| bert | +15.00 / +1.00 ± 2.83 |") != std::string::npos);
  CHECK(summary_csv(with).find(",1.0000,2.8284,") != std::string::npos);
  const std::string runs = runs_csv(records);
  CHECK(runs.find(",measured_speedup_percent,") != std::string::npos);
  CHECK(runs.find(",2,2.02,-1,1e-07,,,,\n") != std::string::npos);
}

TEST_CASE("ONNX Runtime speedups get a third part in the measured table, disagreements counted") {
  std::vector<json> records = {ok_record(0, "bert", 500, 1, 10, 1),
                               ok_record(1, "bert", 500, 2, 20, 1)};
  records[0]["result"]["measured"] = {{"speedup_percent", 1.0}};
  records[1]["result"]["measured"] = {{"speedup_percent", 3.0}};
  records[0]["result"]["onnxruntime"] = {{"speedup_percent", 4.0},
                                         {"outputs_agree", true},
                                         {"original_ms", {{"median", 1.5}}},
                                         {"optimized_ms", {{"median", 1.25}}}};
  records[1]["result"]["onnxruntime"] = {{"speedup_percent", 8.0}, {"outputs_agree", false}};
  const Summary summary = summarize(records);
  CHECK(summary.onnxruntime);
  const Cell& cell = summary.cells.at({0, 0});
  CHECK(cell.onnxruntime_speedup.mean == doctest::Approx(6));
  CHECK(cell.onnxruntime_outputs_differ == 1);
  const std::string md = markdown_report(summary);
  CHECK(md.find("Estimated / oneDNN / ONNX Runtime speedup") != std::string::npos);
  CHECK(md.find("| bert | +15.00 / +2.00 ± 1.41 / +6.00 ± 2.83 (outputs differ in 1) |") !=
        std::string::npos);
  CHECK(summary_csv(summary).find(",6.0000,2.8284,1\n") != std::string::npos);
  const std::string runs = runs_csv(records);
  CHECK(runs.find(",1.5,1.25,4,true\n") != std::string::npos);
  CHECK(runs.find(",,,8,false\n") != std::string::npos);
}

TEST_CASE("the report writes Markdown, CSV and plots, with a plot per swept parameter") {
  const fs::path dir = fs::temp_directory_path() / "mctsat-report-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  CHECK_THROWS_AS(write_report(dir.string(), {}), mctsat::Error);  // nothing recorded yet
  std::size_t index = 0;
  for (const char* model : {"bert", "nasrnn"})
    for (std::size_t limit : {500, 1000, 2000})
      for (std::uint64_t seed : {1, 2}) {
        append_record((dir / "runs.jsonl").string(),
                      ok_record(index, model, limit, seed, static_cast<double>(limit) / 100 + seed,
                                static_cast<double>(limit) / 1000));
        ++index;
      }
  const ReportOutput out = write_report(dir.string(), {});
  CHECK(out.markdown.find("![speedup](plots/speedup.png)") != std::string::npos);
  for (const char* file :
       {"report.md", "summary.csv", "runs.csv", "plots/speedup.png", "plots/speedup.svg",
        "plots/time.png", "plots/sweep-node_limit-speedup.png",
        "plots/sweep-node_limit-speedup.svg", "plots/sweep-node_limit-time.png", "plots/rules.png",
        "plots/rules.svg"}) {
    CAPTURE(file);
    CHECK(fs::file_size(dir / file) > 0);
  }
  // The sweep's data: one block per model, points sorted by node limit (x, mean, min, max).
  std::ifstream data(dir / "plots/sweep-node_limit-speedup.dat");
  std::string first_line;
  std::getline(data, first_line);
  CHECK(first_line == "500\t6.5\t6\t7");
  // Without plots no gnuplot is needed.
  fs::remove_all(dir / "plots");
  ReportOptions no_plots;
  no_plots.plots = false;
  write_report(dir.string(), no_plots);
  CHECK_FALSE(fs::exists(dir / "plots"));
}

TEST_CASE("the best known cost per model counts reference studies, and each cell gets its share") {
  // bert: original 2.0; this study finds 1.0 (seed 1) and 1.5 (seed 2) with node_limit 500 and
  // 1.25 with 1000; a reference study found 0.8. nasrnn: no run improves on the original.
  std::vector<json> records = {
      ok_record(0, "bert", 500, 1, 100, 1), ok_record(1, "bert", 500, 2, 100.0 / 3, 1),
      ok_record(2, "bert", 1000, 1, 60, 1), ok_record(3, "nasrnn", 500, 1, 0, 1)};
  const Summary own = summarize(records);
  REQUIRE(own.best_known.size() == 2);
  const BestKnown& bert = own.best_known.at({"bert", ""});
  CHECK(bert.original_ms == doctest::Approx(2.0));
  CHECK(bert.best_ms == doctest::Approx(1.0));
  CHECK(bert.found_by == "mcts node_limit=500");
  CHECK(own.cells.at({0, 0}).best_known_share.mean == doctest::Approx(75));  // 100 and 50
  CHECK(own.cells.at({0, 0}).best_known_share.min == doctest::Approx(50));
  CHECK(own.cells.at({0, 1}).best_known_share.mean == doctest::Approx(75));
  CHECK(own.cells.at({1, 0}).best_known_share.n == 0);  // nothing better than nasrnn is known

  json reference = ok_record(0, "bert", 2000, 1, 150, 1);
  reference["study"] = "long";
  json elsewhere = ok_record(1, "vgg19", 500, 1, 900, 1);  // not a model of this study
  elsewhere["study"] = "long";
  const Summary with = summarize(records, {reference, elsewhere});
  CHECK(with.best_known.size() == 2);
  CHECK(with.best_known.at({"bert", ""}).best_ms == doctest::Approx(0.8));
  CHECK(with.best_known.at({"bert", ""}).found_by == "long/mcts node_limit=2000");
  CHECK(with.cells.at({0, 0}).best_known_share.mean ==
        doctest::Approx((1.0 / 1.2 + 0.5 / 1.2) * 50));
  CHECK(with.cells.at({0, 1}).best_known_share.mean == doctest::Approx(0.75 / 1.2 * 100));
  const std::string md = markdown_report(with);
  CHECK(md.find("## Best known") != std::string::npos);
  CHECK(md.find("(also counting the runs of long)") != std::string::npos);
  CHECK(md.find("| bert |  | 2 | 0.8 | 60.00 | long/mcts node_limit=2000 |") != std::string::npos);
  CHECK(md.find("| bert | 62.50 (min 41.67) | 62.50 |") != std::string::npos);
  CHECK(summary_csv(with).find(",62.5000,41.6667,,,\n") != std::string::npos);
}
