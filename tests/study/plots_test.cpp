// The plots of a study report: every script has a title (study, what, cost model) and axis
// labels, the rule heat map labels each rule with its operators, and a sweep's error bar spans
// the runs' min to max, so it never reaches past the best run (mean + std would).
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "study/plots.hpp"

using namespace mctsat::study;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("plots have titles and labels, and a sweep's error bars stay within the runs") {
  Summary s;
  s.study = "sweepy";
  s.models = {"bert"};
  s.cost_models = {"roofline(v100)"};
  for (const int limit : {1000, 2000}) {
    Variant v;
    v.label = "mcts node_limit=" + std::to_string(limit);
    v.base_configuration = "mcts";
    v.sweep = {{"mcts.node_limit", limit}};
    v.strategy = mctsat::search::StrategyKind::kMcts;
    s.variants.push_back(v);
  }
  for (std::size_t v = 0; v < 2; ++v) {
    Cell c;
    c.ok = 3;
    // Three runs: 2, 12 and 16 (v = 0) or 10, 12, 14 (v = 1): mean + std passes the best run.
    c.speedup = v == 0 ? Stats::of({2, 12, 16}) : Stats::of({10, 12, 14});
    c.wall_s = Stats::of({1, 2, 3});
    c.rules = {{"matmul-01", 1.0}};
    s.cells[{0, v}] = c;
  }
  s.rule_sketches = {{"matmul-01", "matmul(matmul) -> matmul(matmul)"}};
  REQUIRE(s.cells[{0, 0}].speedup.mean + s.cells[{0, 0}].speedup.std > 16);

  const fs::path dir = fs::temp_directory_path() / ("mctsat-plots-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  draw_plots(s, dir.string());
  for (const char* name : {"speedup", "time", "rules", "sweep-node_limit-speedup"}) {
    CAPTURE(name);
    const std::string script = read(dir / (std::string(name) + ".gp"));
    CHECK(script.find("set title \"study sweepy: ") != std::string::npos);
    CHECK(script.find("(cost model roofline(v100))") != std::string::npos);
    CHECK(script.find("set xlabel ") != std::string::npos);
    CHECK(script.find("set ylabel ") != std::string::npos);
  }
  // The heat map's columns: each rule's name and its operators, not its name alone.
  const std::string rules = read(dir / "rules.dat");
  CHECK(rules.substr(0, rules.find('\n')) == "rule\tmatmul-01  matmul(matmul) -> matmul(matmul)");
  // The sweep's data: x, mean, low, high per point; high is the best run, never mean + std.
  std::istringstream data(read(dir / "sweep-node_limit-speedup.dat"));
  std::size_t points = 0;
  for (std::string line; std::getline(data, line);) {
    if (line.empty()) continue;
    double x = 0, mean = 0, low = 0, high = 0;
    std::istringstream(line) >> x >> mean >> low >> high;
    CHECK(low <= mean);
    CHECK(high == (x == 1000 ? 16 : 14));
    ++points;
  }
  CHECK(points == 2);
  fs::remove_all(dir);
}
