// Writing gnuplot data and scripts for a study summary and running gnuplot on them.
#include "study/plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "search/strategies.hpp"
#include "support/error.hpp"
#include "support/files.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string gp_string(const std::string& text) {  // a gnuplot string literal
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\t' || c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string field(const std::string& text) {  // a tab-separated data field
  std::string out = text;
  std::replace(out.begin(), out.end(), '\t', ' ');
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

std::string value(double v) {
  return std::isfinite(v) ? fmt::format("{:.6g}", v) : "?";
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One picture: its data and the plot commands, written as NAME.dat and NAME.gp (PNG and SVG).
struct Plot {
  std::string name, data, settings, plot;
  int width = 900, height = 500;
};

std::string script(const Plot& p) {
  return fmt::format(
      "# {0}: drawn by `mctsat bench report`; redraw with `gnuplot {0}.gp`.\n"
      "set datafile separator \"\\t\"\n"
      "set datafile missing \"?\"\n"
      "set grid ytics\n"
      "set key outside top center horizontal\n"
      "{1}\n"
      "set terminal pngcairo noenhanced size {2},{3} font \"sans,10\"\n"
      "set output \"{0}.png\"\n"
      "{4}\n"
      "set terminal svg noenhanced size {2},{3} font \"sans,10\" background \"white\"\n"
      "set output \"{0}.svg\"\n"
      "replot\n",
      p.name, p.settings, p.width, p.height, p.plot);
}

// "study NAME: WHAT (cost model roofline(v100))": every plot says what it shows, of which study,
// under which cost model(s).
std::string title(const Summary& s, const std::string& what) {
  std::string cost;
  for (const std::string& name : s.cost_models) cost += (cost.empty() ? "" : ", ") + name;
  return fmt::format("set title {}\n",
                     gp_string(fmt::format("study {}: {}{}", s.study, what,
                                           cost.empty() ? "" : " (cost model " + cost + ")")));
}

const Cell* cell_at(const Summary& s, std::size_t model, std::size_t variant) {
  const auto it = s.cells.find({model, variant});
  return it == s.cells.end() || it->second.ok == 0 ? nullptr : &it->second;
}

// Bars per model, one per variant: the mean, with an error bar from the runs' min to their max
// (never past a value some run reached, as mean + std could be past the best known).
Plot bars(const Summary& s, const std::string& name, const std::string& what,
          const std::string& ylabel, bool log_scale, Stats Cell::*stat) {
  Plot p;
  p.name = name;
  for (std::size_t m = 0; m < s.models.size(); ++m) {
    p.data += field(s.models[m]);
    for (std::size_t v = 0; v < s.variants.size(); ++v) {
      const Cell* c = cell_at(s, m, v);
      p.data += c == nullptr ? "\t?\t?\t?"
                             : fmt::format("\t{}\t{}\t{}", value((c->*stat).mean),
                                           value((c->*stat).min), value((c->*stat).max));
    }
    p.data += '\n';
  }
  // Bars start at zero: the range includes it (and the lowest error bar below it).
  double low = 0;
  for (const auto& [key, c] : s.cells)
    if (c.ok > 0) low = std::min(low, (c.*stat).min);
  p.settings = fmt::format(
      "set style data histogram\nset style histogram errorbars gap 1 lw 1\n"
      "set style fill solid 0.85 border -1\nset boxwidth 0.9\nset xtics rotate by -30 nomirror\n"
      "{}set xlabel \"model\"\nset ylabel {}\n{}",
      title(s, what), gp_string(ylabel),
      log_scale ? std::string("set logscale y\n")
                : fmt::format("set yrange [{}:*]\nset xzeroaxis lt -1\n", value(low * 1.1)));
  for (std::size_t v = 0; v < s.variants.size(); ++v)
    p.plot += fmt::format("{}{} using {}:{}:{}{} title {}", v == 0 ? "plot " : ", \\\n     ",
                          v == 0 ? gp_string(name + ".dat") : "''", 3 * v + 2, 3 * v + 3, 3 * v + 4,
                          v == 0 ? ":xtic(1)" : "", gp_string(s.variants[v].label));
  p.width = std::clamp(200 + static_cast<int>(s.models.size() * (s.variants.size() * 14 + 30)), 700,
                       1800);
  return p;
}

// Mean commits per run of each rule, per model (or model and variant), for the strategies that
// commit rules (StrategyTraits::commits_rules); saturation's application counts if there is
// nothing else.
Plot rule_heat_map(const Summary& s, bool& empty) {
  Plot p;
  p.name = "rules";
  // Records without a strategy count as committing.
  const auto commits = [](const Variant& v) {
    return !v.strategy || search::strategy_traits(*v.strategy).commits_rules;
  };
  bool committing = false;
  for (const Variant& v : s.variants) committing = committing || commits(v);
  std::set<std::string> rules;
  struct Row {
    std::string label;
    std::map<std::string, double> counts;
  };
  std::vector<Row> rows;
  std::size_t used_variants = 0;
  for (const Variant& v : s.variants) used_variants += commits(v) == committing;
  for (std::size_t m = 0; m < s.models.size(); ++m)
    for (std::size_t v = 0; v < s.variants.size(); ++v) {
      if (commits(s.variants[v]) != committing) continue;
      const Cell* c = cell_at(s, m, v);
      if (c == nullptr) continue;
      Row row{used_variants > 1 ? s.models[m] + " / " + s.variants[v].label : s.models[m],
              c->rules};
      for (const auto& [rule, _] : c->rules) rules.insert(rule);
      rows.push_back(std::move(row));
    }
  empty = rules.empty();
  // A rule's label: its name and, when the records have it, its operators ("concat-02
  // concat(relu, relu) -> relu(concat)"), as names alone say little.
  p.data = "rule";
  std::size_t longest = 0;  // label, in characters: the height leaves room for it below the map
  for (const std::string& rule : rules) {
    const auto sketch = s.rule_sketches.find(rule);
    const std::string label =
        field(sketch == s.rule_sketches.end() ? rule : rule + "  " + sketch->second);
    longest = std::max(longest, label.size());
    p.data += "\t" + label;
  }
  p.data += '\n';
  for (const Row& row : rows) {
    p.data += field(row.label);
    for (const std::string& rule : rules) {
      const auto it = row.counts.find(rule);
      p.data += "\t" + value(it == row.counts.end() ? 0.0 : it->second);
    }
    p.data += '\n';
  }
  const std::string title_line =
      title(s, committing ? "rule commits per run (mean)" : "rule applications per run (mean)");
  p.settings = fmt::format(
      "{}unset key\nset xtics rotate by 90 right nomirror\nset ytics nomirror\n"
      "set palette defined (0 \"white\", 1 \"#fdd49e\", 2 \"#ef6548\", 3 \"#7f0000\")\n"
      "set xlabel \"rule\"\nset ylabel {}\nset cblabel {}\nset yrange [*:*] reverse\nunset grid",
      title_line, gp_string(used_variants > 1 ? "model / configuration" : "model"),
      gp_string(committing ? "commits" : "applications"));
  p.plot = "plot \"rules.dat\" matrix rowheaders columnheaders using 1:2:3 with image";
  p.width = std::clamp(std::max(300 + static_cast<int>(rules.size()) * 16,
                                static_cast<int>(title_line.size()) * 7),
                       600, 2400);
  p.height = std::clamp(260 + static_cast<int>(rows.size()) * 18 + static_cast<int>(longest) * 7,
                        400, 2000);
  return p;
}

// Speedup or time against one swept numeric parameter, one line per model and configuration.
Plot sweep_plot(const Summary& s, const std::string& parameter, bool time) {
  Plot p;
  const std::string short_name = parameter.substr(parameter.rfind('.') + 1);
  p.name = fmt::format("sweep-{}-{}", short_name, time ? "time" : "speedup");
  std::map<std::string, std::vector<std::tuple<double, double, double, double>>> series;
  std::vector<std::string> order;
  double min_x = INFINITY, max_x = -INFINITY;
  for (std::size_t m = 0; m < s.models.size(); ++m)
    for (std::size_t v = 0; v < s.variants.size(); ++v) {
      const Variant& variant = s.variants[v];
      if (!variant.sweep.contains(parameter) || !variant.sweep[parameter].is_number()) continue;
      const Cell* c = cell_at(s, m, v);
      if (c == nullptr) continue;
      std::string key = s.models[m] + " " + variant.base_configuration;
      for (const auto& [k, x] : variant.sweep.items())
        if (k != parameter)
          key += fmt::format(" {}={}", k.substr(k.rfind('.') + 1),
                             x.is_string() ? x.get<std::string>() : x.dump());
      if (!series.count(key)) order.push_back(key);
      const double x = variant.sweep[parameter].get<double>();
      min_x = std::min(min_x, x);
      max_x = std::max(max_x, x);
      // The bar spans the runs' range (min to max), so it never claims a value no run reached
      // (mean + std can exceed the best known speedup).
      const Stats& st = time ? c->wall_s : c->speedup;
      series[key].emplace_back(x, st.mean, st.min, st.max);
    }
  for (std::size_t i = 0; i < order.size(); ++i) {
    auto& points = series[order[i]];
    std::sort(points.begin(), points.end());
    if (i > 0) p.data += "\n\n";
    for (const auto& [x, mean, low, high] : points)
      p.data += fmt::format("{}\t{}\t{}\t{}\n", value(x), value(mean), value(low), value(high));
    p.plot += fmt::format("{}{} index {} using 1:2:3:4 with yerrorlines title {}",
                          i == 0 ? "plot " : ", \\\n     ", gp_string(p.name + ".dat"), i,
                          gp_string(order[i]));
  }
  const bool log_x = min_x > 0 && max_x / min_x >= 10;
  p.settings =
      fmt::format("{}set xlabel {}\nset ylabel {}\n{}{}set key outside right top vertical\n",
                  title(s, fmt::format("{} against {} (mean; bars: min to max of the runs)",
                                       time ? "optimization time" : "speedup", parameter)),
                  gp_string(parameter), gp_string(time ? "optimization time (s)" : "speedup (%)"),
                  log_x ? "set logscale x\n" : "", time ? "set logscale y\n" : "");
  p.width = 1000;
  return p;
}

}  // namespace

std::vector<std::string> draw_plots(const Summary& summary, const std::string& dir,
                                    const std::string& gnuplot) {
  std::vector<Plot> plots;
  plots.push_back(bars(summary, "speedup", "speedup per model (mean; bars: min to max of the runs)",
                       "speedup (%)", false, &Cell::speedup));
  plots.push_back(bars(summary, "time", "optimization time per model (mean; bars: min to max)",
                       "optimization time (s, log scale)", true, &Cell::wall_s));
  std::set<std::string> swept;
  for (const Variant& v : summary.variants)
    for (const auto& [key, x] : v.sweep.items())
      if (x.is_number()) swept.insert(key);
  for (const std::string& parameter : swept) {
    std::set<double> values;
    for (const Variant& v : summary.variants)
      if (v.sweep.contains(parameter) && v.sweep[parameter].is_number())
        values.insert(v.sweep[parameter].get<double>());
    if (values.size() < 2) continue;
    plots.push_back(sweep_plot(summary, parameter, false));
    plots.push_back(sweep_plot(summary, parameter, true));
  }
  bool no_rules = true;
  Plot heat = rule_heat_map(summary, no_rules);
  if (!no_rules) plots.push_back(std::move(heat));

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("cannot create: {}", ec.message()), SourceLocation::at(dir));
  if (std::system(fmt::format("command -v {} > /dev/null 2>&1", shell_quote(gnuplot)).c_str()) != 0)
    throw Error(fmt::format("'{}' not found: install gnuplot, or pass --no-plots", gnuplot));
  std::vector<std::string> files;
  const fs::path base(dir);
  for (const Plot& plot : plots) {
    write_file_atomically((base / (plot.name + ".dat")).string(), plot.data);
    write_file_atomically((base / (plot.name + ".gp")).string(), script(plot));
    const std::string log = (base / (plot.name + ".log")).string();
    const int status =
        std::system(fmt::format("cd {} && {} {} > {} 2>&1", shell_quote(dir), shell_quote(gnuplot),
                                shell_quote(plot.name + ".gp"), shell_quote(plot.name + ".log"))
                        .c_str());
    std::ifstream in(log);
    const std::string messages((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    if (status != 0)
      throw Error(fmt::format("gnuplot failed: {}", messages),
                  SourceLocation::at((base / (plot.name + ".gp")).string()));
    fs::remove(log, ec);
    for (const char* extension : {".png", ".svg", ".dat", ".gp"}) {
      const fs::path file = base / (plot.name + extension);
      if ((std::string(extension) == ".png" || std::string(extension) == ".svg") &&
          !fs::exists(file))
        throw Error("gnuplot drew nothing", SourceLocation::at(file.string()));
      files.push_back(file.string());
    }
  }
  return files;
}

}  // namespace mctsat::study
