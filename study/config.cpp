// Parsing and expanding bench config files. Each value is checked where it is read, and an error
// names the file and the JSON path (e.g. /configurations/1/mcts/node_limit) of the bad value.
#include "study/config.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "extract/extractor.hpp"
#include "frontend/zoo.hpp"
#include "search/option_registry.hpp"
#include "search/strategies.hpp"
#include "support/error.hpp"
#include "support/files.hpp"
#include "support/json_text.hpp"
#include "support/stable_hash.hpp"

namespace mctsat::study {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using search::OptimizeOptions;

// Reads values out of the config, raising errors at file + JSON path.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw Error(fmt::format("{}: {}", path.empty() ? "/" : path, message),
                SourceLocation::at(file_));
  }
  const json& object(const json& value, const std::string& path) const {
    if (!value.is_object()) fail(path, fmt::format("expected an object, got {}", describe(value)));
    return value;
  }
  const json& array(const json& value, const std::string& path, bool non_empty) const {
    if (!value.is_array()) fail(path, fmt::format("expected an array, got {}", describe(value)));
    if (non_empty && value.empty()) fail(path, "expected a non-empty array");
    return value;
  }
  std::string string(const json& value, const std::string& path) const {
    if (!value.is_string() || value.get<std::string>().empty())
      fail(path, fmt::format("expected a non-empty string, got {}", describe(value)));
    return value.get<std::string>();
  }
  std::vector<std::string> strings(const json& value, const std::string& path) const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < array(value, path, false).size(); ++i)
      out.push_back(string(value[i], fmt::format("{}/{}", path, i)));
    return out;
  }
  bool boolean(const json& value, const std::string& path) const {
    if (!value.is_boolean())
      fail(path, fmt::format("expected true or false, got {}", describe(value)));
    return value.get<bool>();
  }
  double number(const json& value, const std::string& path, double min, bool min_inclusive,
                double max = 1e300) const {
    if (!value.is_number()) fail(path, fmt::format("expected a number, got {}", describe(value)));
    const double v = value.get<double>();
    if (v < min || (!min_inclusive && v == min) || v > max)
      fail(path,
           fmt::format("{} is out of range ({} {}{})", value.dump(), min_inclusive ? ">=" : ">",
                       min, max < 1e300 ? fmt::format(" and <= {}", max) : ""));
    return v;
  }
  std::uint64_t integer(const json& value, const std::string& path, std::uint64_t min) const {
    // nlohmann_json stores non-negative integers as unsigned numbers.
    if (!value.is_number_unsigned())
      fail(path, fmt::format("expected a non-negative integer, got {}", describe(value)));
    const auto v = value.get<std::uint64_t>();
    if (v < min) fail(path, fmt::format("{} is out of range (>= {})", v, min));
    return v;
  }
  // Rejects keys outside `known`.
  void only(const json& value, const std::string& path,
            std::initializer_list<std::string_view> known) const {
    for (const auto& [key, _] : value.items())
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        std::string list;
        for (auto k : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
        fail(fmt::format("{}/{}", path, key),
             fmt::format("unknown key '{}' (known: {})", key, list));
      }
  }
  const std::string& file() const { return file_; }

 private:
  static std::string describe(const json& value) {
    std::string text = value.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return fmt::format("{} {}", value.type_name(), text);
  }
  std::string file_;
};

// A configuration's parameters as flat name -> (value, JSON path): nested "eqsat", "mcts" and
// "taso" objects become "eqsat.x", "mcts.x", "taso.x".
using FlatParameters = std::vector<std::pair<std::string, std::pair<json, std::string>>>;

// Whether registry option names "key.x" exist (a study may nest them as {"key": {"x": ...}}).
bool is_option_group(const std::string& key) {
  for (const search::OptionSpec& spec : search::option_registry())
    if (spec.name.starts_with(key + ".")) return true;
  return false;
}

void flatten(const json& object, const std::string& path, FlatParameters& out,
             std::initializer_list<std::string_view> reserved) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(reserved.begin(), reserved.end(), key) != reserved.end()) continue;
    const std::string where = fmt::format("{}/{}", path, key);
    if (value.is_object() && is_option_group(key)) {
      for (const auto& [inner, v] : value.items())
        out.push_back({key + "." + inner, {v, fmt::format("{}/{}", where, inner)}});
    } else {
      out.push_back({key, {value, where}});
    }
  }
}

void apply(const Reader& r, const std::string& name, const json& value, const std::string& path,
           OptimizeOptions& options) {
  const search::OptionSpec* spec = search::find_option(name);
  if (spec != nullptr && !spec->in_study)
    r.fail(path, name == "mcts.seed"
                     ? std::string("seeds are given by the top-level \"seeds\" list")
                     : fmt::format("'{}' is not a study parameter", name));
  if (spec == nullptr)
    r.fail(path, fmt::format("unknown parameter '{}' (known: {})", name,
                             fmt::join(parameter_names(), ", ")));
  if (const std::string error = search::option_value_error(*spec, value); !error.empty())
    r.fail(path, error);
  spec->set(options, value);
}

Limits read_limits(const Reader& r, const json& value, const std::string& path, Limits limits) {
  r.only(r.object(value, path), path, {"seconds", "memory_mb"});
  if (value.contains("seconds"))
    limits.seconds = r.number(value["seconds"], path + "/seconds", 0, false);
  if (value.contains("memory_mb"))
    limits.memory_mb = r.integer(value["memory_mb"], path + "/memory_mb", 0);
  return limits;
}

std::optional<runtime::SpeedupMeasureOptions> read_measure(const Reader& r, const json& value) {
  const std::string path = "/measure";
  runtime::SpeedupMeasureOptions options;
  options.threads = 1;  // runs may go in parallel (--jobs): one oneDNN thread each
  if (value.is_boolean()) return value.get<bool>() ? std::optional(options) : std::nullopt;
  if (!value.is_object())
    r.fail(path, fmt::format("expected true, false or an object {{\"runs\", \"warmup\", "
                             "\"instances\", \"threads\"}}, got {}",
                             value.dump()));
  r.only(value, path, {"runs", "warmup", "instances", "threads"});
  auto count = [&](const char* key, std::uint64_t min, int& out) {
    if (!value.contains(key)) return;
    const std::string where = fmt::format("{}/{}", path, key);
    const std::uint64_t v = r.integer(value[key], where, min);
    if (v > 100000) r.fail(where, fmt::format("{} is out of range (<= 100000)", v));
    out = static_cast<int>(v);
  };
  count("runs", 1, options.runs);
  count("warmup", 0, options.warmup);
  count("instances", 1, options.instances);
  count("threads", 1, options.threads);
  return options;
}

std::optional<OnnxRuntimeMeasureOptions> read_measure_onnxruntime(const Reader& r,
                                                                  const json& value) {
  const std::string path = "/measure_onnxruntime";
  OnnxRuntimeMeasureOptions options;
  if (value.is_boolean()) return value.get<bool>() ? std::optional(options) : std::nullopt;
  if (!value.is_object())
    r.fail(path, fmt::format("expected true, false or an object {{\"rounds\", \"round_ms\", "
                             "\"tolerance\"}}, got {}",
                             value.dump()));
  r.only(value, path, {"rounds", "round_ms", "tolerance"});
  if (value.contains("rounds")) {
    const std::uint64_t rounds = r.integer(value["rounds"], path + "/rounds", 1);
    if (rounds > 100000)
      r.fail(path + "/rounds", fmt::format("{} is out of range (<= 100000)", rounds));
    options.rounds = static_cast<unsigned>(rounds);
  }
  if (value.contains("round_ms"))
    options.round_ms = r.number(value["round_ms"], path + "/round_ms", 0, true, 10000);
  if (value.contains("tolerance"))
    options.tolerance = r.number(value["tolerance"], path + "/tolerance", 0, false, 1);
  return options;
}

std::string resolve(const fs::path& base, const std::string& path) {
  const fs::path p(path);
  return p.is_absolute() ? path : (base / p).lexically_normal().string();
}

std::string value_label(const json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

void read_models(const Reader& r, const json& root, const fs::path& base, Study& study) {
  if (!root.contains("models")) r.fail("/models", "missing (a list of zoo names or model files)");
  const json& models = r.array(root["models"], "/models", true);
  std::vector<std::string> zoo;
  for (const auto& entry : frontend::zoo_models()) zoo.emplace_back(entry.name);
  for (const auto& family : frontend::zoo_families())
    zoo.push_back(fmt::format("{}-<size>", family.name));
  std::set<std::string> names;
  for (std::size_t i = 0; i < models.size(); ++i) {
    const std::string path = fmt::format("/models/{}", i);
    ModelSpec model;
    if (models[i].is_object()) {
      r.only(models[i], path, {"name", "path", "input_shapes", "input_values"});
      if (!models[i].contains("path")) r.fail(path + "/path", "missing");
      model.source = r.string(models[i]["path"], path + "/path");
      if (models[i].contains("input_shapes")) {
        const std::string shapes_path = path + "/input_shapes";
        for (const auto& [input, dims] : r.object(models[i]["input_shapes"], shapes_path).items()) {
          const std::string dims_path = shapes_path + "/" + input;
          std::vector<std::int64_t>& shape = model.load.input_shapes[input];
          for (std::size_t d = 0; d < r.array(dims, dims_path, true).size(); ++d)
            shape.push_back(static_cast<std::int64_t>(
                r.integer(dims[d], fmt::format("{}/{}", dims_path, d), 1)));
        }
      }
      if (models[i].contains("input_values")) {
        const std::string values_path = path + "/input_values";
        for (const auto& [input, values] :
             r.object(models[i]["input_values"], values_path).items()) {
          const std::string input_path = values_path + "/" + input;
          std::vector<double>& out = model.load.input_values[input];
          for (std::size_t k = 0; k < r.array(values, input_path, true).size(); ++k)
            out.push_back(r.number(values[k], fmt::format("{}/{}", input_path, k), -1e300, true));
        }
      }
      model.name = models[i].contains("name") ? r.string(models[i]["name"], path + "/name")
                                              : fs::path(model.source).stem().string();
    } else {
      model.source = r.string(models[i], path);
      model.name = frontend::is_zoo_model(model.source) ? model.source
                                                        : fs::path(model.source).stem().string();
    }
    if (!frontend::is_zoo_model(model.source)) {
      model.source = resolve(base, model.source);
      if (!fs::exists(model.source))
        r.fail(path, fmt::format("'{}' is neither a zoo model ({}) nor an existing file",
                                 model.source, fmt::join(zoo, ", ")));
    }
    if (!names.insert(model.name).second)
      r.fail(path, fmt::format("model name '{}' is used twice", model.name));
    study.models.push_back(std::move(model));
  }
}

void read_rules(const Reader& r, const json& root, const fs::path& base,
                const std::vector<std::string>& default_rules, Study& study) {
  if (!root.contains("rules")) {
    study.rules.push_back({"default", default_rules, {}});
    return;
  }
  const json& sets = r.array(root["rules"], "/rules", true);
  std::set<std::string> names;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const std::string path = fmt::format("/rules/{}", i);
    r.only(r.object(sets[i], path), path,
           {"name", "paths", "rulesets", "tags", "exclude_tags", "names"});
    RulesSpec spec;
    if (!sets[i].contains("name")) r.fail(path + "/name", "missing");
    spec.name = r.string(sets[i]["name"], path + "/name");
    if (!names.insert(spec.name).second)
      r.fail(path + "/name", fmt::format("rule set name '{}' is used twice", spec.name));
    if (sets[i].contains("paths")) {
      const auto paths = r.strings(sets[i]["paths"], path + "/paths");
      for (std::size_t p = 0; p < paths.size(); ++p) {
        spec.paths.push_back(resolve(base, paths[p]));
        if (!fs::exists(spec.paths.back()))
          r.fail(fmt::format("{}/paths/{}", path, p),
                 fmt::format("no such file or directory '{}'", spec.paths.back()));
      }
    }
    if (spec.paths.empty()) spec.paths = default_rules;
    auto list = [&](const char* key, std::vector<std::string>& out) {
      if (sets[i].contains(key)) out = r.strings(sets[i][key], fmt::format("{}/{}", path, key));
    };
    list("rulesets", spec.selection.rulesets);
    list("tags", spec.selection.tags);
    list("exclude_tags", spec.selection.exclude_tags);
    list("names", spec.selection.names);
    study.rules.push_back(std::move(spec));
  }
}

void read_costs(const Reader& r, const json& root, const fs::path& base, Study& study) {
  if (!root.contains("cost_models")) {
    study.costs.push_back({"roofline-v100", {}});
    return;
  }
  const json& costs = r.array(root["cost_models"], "/cost_models", true);
  std::set<std::string> names;
  for (std::size_t i = 0; i < costs.size(); ++i) {
    const std::string path = fmt::format("/cost_models/{}", i);
    r.only(r.object(costs[i], path), path, {"name", "model", "device", "table", "fallback", "runtime_fusions"});
    CostSpec cost;
    const json& c = costs[i];
    if (c.contains("model")) {
      const std::string model = r.string(c["model"], path + "/model");
      const auto kind = find_name(study::kCostModelNames, model);
      if (!kind)
        r.fail(path + "/model", fmt::format("unknown cost model '{}' (known: {})", model,
                                            joined_names(study::kCostModelNames)));
      cost.spec.kind = *kind;
    }
    if (c.contains("device")) {
      cost.spec.device = r.string(c["device"], path + "/device");
      if (cost.spec.device.ends_with(".json")) cost.spec.device = resolve(base, cost.spec.device);
    }
    if (c.contains("table")) cost.spec.table = resolve(base, r.string(c["table"], path + "/table"));
    if (c.contains("fallback")) cost.spec.fallback = r.boolean(c["fallback"], path + "/fallback");
    if (c.contains("runtime_fusions")) {
      const std::string runtime = r.string(c["runtime_fusions"], path + "/runtime_fusions");
      const auto fusions = find_name(tensor::kRuntimeFusionNames, runtime);
      if (!fusions)
        r.fail(path + "/runtime_fusions",
               fmt::format("unknown runtime '{}' (known: {})", runtime,
                           joined_names(tensor::kRuntimeFusionNames)));
      cost.spec.runtime_fusions = *fusions;
    }
    if (cost.spec.kind == study::CostModelKind::kTable && cost.spec.table.empty())
      r.fail(path + "/table", "missing (the table cost model needs a cost table file)");
    cost.name = c.contains("name") ? r.string(c["name"], path + "/name")
                                   : study::default_cost_model_name(cost.spec);
    if (!names.insert(cost.name).second)
      r.fail(path, fmt::format("cost model name '{}' is used twice", cost.name));
    // Unknown devices and unreadable tables are found now rather than in every run.
    try {
      study::check_cost_model_spec(cost.spec);
    } catch (const Error& e) {
      r.fail(path, e.message());
    }
    study.costs.push_back(std::move(cost));
  }
}

// A configuration expanded over its sweep: (label, swept values, options, limits).
struct ConfigVariant {
  std::string label;
  json sweep = json::object();
  OptimizeOptions options;
  Limits limits;
};

std::vector<ConfigVariant> read_configuration(const Reader& r, const json& config,
                                              const std::string& path,
                                              const FlatParameters& defaults, const Limits& limits,
                                              std::string& name) {
  r.object(config, path);
  if (!config.contains("name")) r.fail(path + "/name", "missing");
  name = r.string(config["name"], path + "/name");
  ConfigVariant base;
  for (const auto& [key, value] : defaults) apply(r, key, value.first, value.second, base.options);
  FlatParameters own;
  flatten(config, path, own, {"name", "sweep", "limits"});
  for (const auto& [key, value] : own) apply(r, key, value.first, value.second, base.options);
  base.limits = config.contains("limits")
                    ? read_limits(r, config["limits"], path + "/limits", limits)
                    : limits;
  base.label = name;
  std::vector<ConfigVariant> variants{base};
  if (!config.contains("sweep")) return variants;
  const std::string sweep_path = path + "/sweep";
  for (const auto& [key, values] : r.object(config["sweep"], sweep_path).items()) {
    const std::string key_path = fmt::format("{}/{}", sweep_path, key);
    r.array(values, key_path, true);
    if (static_cast<double>(variants.size()) * static_cast<double>(values.size()) >
        static_cast<double>(kMaxGridRuns))
      r.fail(key_path, fmt::format("the sweep has more than {} points, the most runs a grid may "
                                   "hold: split the study",
                                   kMaxGridRuns));
    std::vector<ConfigVariant> next;
    for (const ConfigVariant& v : variants)
      for (std::size_t i = 0; i < values.size(); ++i) {
        ConfigVariant w = v;
        apply(r, key, values[i], fmt::format("{}/{}", key_path, i), w.options);
        w.sweep[key] = values[i];
        const std::string short_key = key.substr(key.rfind('.') + 1);
        w.label += fmt::format(" {}={}", short_key, value_label(values[i]));
        next.push_back(std::move(w));
      }
    variants = std::move(next);
  }
  return variants;
}

}  // namespace

std::vector<std::string> parameter_names() {
  std::vector<std::string> names;
  for (const search::OptionSpec& spec : search::option_registry())
    if (spec.in_study) names.push_back(spec.name);
  return names;
}

json parameters_json(const OptimizeOptions& options) {
  return search::options_json(options);
}

namespace {

// The parameters a run id hashes: all but those added after studies were run and left at their
// defaults (OptionSpec::id_only_if_set), so that the ids of runs that do not set them stay.
json id_parameters_json(const OptimizeOptions& options) {
  json parameters = parameters_json(options);
  const OptimizeOptions defaults;
  for (const search::OptionSpec& spec : search::option_registry())
    if (spec.id_only_if_set && spec.get(options) == spec.get(defaults)) parameters.erase(spec.name);
  return parameters;
}

}  // namespace

Study parse_study(const std::string& text, const std::string& path,
                  const std::vector<std::string>& default_rules) try {
  const Reader r(path);
  const json root = parse_json_text(text, path);
  r.object(root, "");
  r.only(root, "",
         {"$schema", "name", "description", "models", "rules", "configurations", "defaults",
          "cost_models", "seeds", "limits", "measure", "measure_onnxruntime"});
  Study study;
  study.file = path;
  study.text = text;
  if (!root.contains("name")) r.fail("/name", "missing (the study's name)");
  study.name = r.string(root["name"], "/name");
  if (study.name.empty() || study.name == "." || study.name == ".." ||
      std::any_of(study.name.begin(), study.name.end(), [](char c) {
        return c == '/' || c == '\\' || c == ' ' || static_cast<unsigned char>(c) < 0x20 ||
               c == 0x7f;
      }))
    r.fail("/name",
           "must be a non-empty name without '/', '\\', spaces or control characters, and not "
           "'.' or '..' (it names the output directory)");
  if (root.contains("description"))
    study.description = r.string(root["description"], "/description");
  const fs::path base = fs::path(path).parent_path();
  read_models(r, root, base, study);
  read_rules(r, root, base, default_rules, study);
  read_costs(r, root, base, study);
  if (root.contains("measure")) study.measure = read_measure(r, root["measure"]);
  if (root.contains("measure_onnxruntime"))
    study.measure_onnxruntime = read_measure_onnxruntime(r, root["measure_onnxruntime"]);

  std::vector<std::uint64_t> seeds{1};
  if (root.contains("seeds")) {
    seeds.clear();
    const json& list = r.array(root["seeds"], "/seeds", true);
    // More seeds than a grid may hold runs can never make a valid grid (checked before the
    // duplicate check, which is O(n log n)).
    if (list.size() > kMaxGridRuns)
      r.fail("/seeds",
             fmt::format("{} seeds, more than the {} runs a grid may hold: split the study",
                         list.size(), kMaxGridRuns));
    std::set<std::uint64_t> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = fmt::format("/seeds/{}", i);
      seeds.push_back(r.integer(list[i], where, 0));
      if (!seen.insert(seeds.back()).second)
        r.fail(where, fmt::format("seed {} is listed twice", seeds.back()));
    }
  }
  const Limits limits =
      root.contains("limits") ? read_limits(r, root["limits"], "/limits", Limits{}) : Limits{};
  FlatParameters defaults;
  if (root.contains("defaults"))
    flatten(r.object(root["defaults"], "/defaults"), "/defaults", defaults, {});

  if (!root.contains("configurations")) r.fail("/configurations", "missing");
  const json& configs = r.array(root["configurations"], "/configurations", true);
  std::vector<std::vector<ConfigVariant>> expanded;
  std::set<std::string> names;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const std::string path_i = fmt::format("/configurations/{}", i);
    std::string name;
    expanded.push_back(read_configuration(r, configs[i], path_i, defaults, limits, name));
    if (!names.insert(name).second)
      r.fail(path_i + "/name", fmt::format("configuration name '{}' is used twice", name));
  }

  double grid_runs = 0;
  for (const auto& variants : expanded)
    for (const ConfigVariant& variant : variants)
      grid_runs += search::strategy_traits(variant.options.strategy).seeded
                       ? static_cast<double>(seeds.size())
                       : 1.0;
  grid_runs *= static_cast<double>(study.models.size() * study.rules.size() * study.costs.size());
  if (grid_runs > static_cast<double>(kMaxGridRuns))
    r.fail("", fmt::format("the grid holds {:.0f} runs, more than the {} a grid may hold: split "
                           "the study",
                           grid_runs, kMaxGridRuns));

  // Grid order: model, rule set, configuration (and its sweep), cost model, seed. Strategies
  // whose result does not depend on the seed (StrategyTraits::seeded) run with the first one only.
  for (std::size_t m = 0; m < study.models.size(); ++m)
    for (std::size_t s = 0; s < study.rules.size(); ++s)
      for (std::size_t c = 0; c < expanded.size(); ++c)
        for (const ConfigVariant& variant : expanded[c])
          for (std::size_t k = 0; k < study.costs.size(); ++k)
            for (std::uint64_t seed : seeds) {
              if (!search::strategy_traits(variant.options.strategy).seeded &&
                  seed != seeds.front())
                continue;
              RunSpec run;
              run.index = study.runs.size();
              run.model = m;
              run.rules = s;
              run.cost = k;
              run.configuration = variant.label;
              run.base_configuration = configs[c]["name"].get<std::string>();
              run.sweep = variant.sweep;
              run.seed = seed;
              run.options = variant.options;
              run.options.mcts.seed = seed;
              run.limits = variant.limits;
              const RulesSpec& rules = study.rules[s];
              const CostSpec& cost = study.costs[k];
              json identity = {{"model", {study.models[m].name, study.models[m].source}},
                               {"configuration", run.configuration},
                               {"rules",
                                {rules.paths, rules.selection.rulesets, rules.selection.tags,
                                 rules.selection.exclude_tags, rules.selection.names}},
                               {"cost",
                                {name_of(study::kCostModelNames, cost.spec.kind),
                                 cost.spec.device, cost.spec.table, cost.spec.fallback}},
                               {"parameters", id_parameters_json(run.options)}};
              // Only when set, so that the ids of studies without them stay as they were.
              if (!study.models[m].load.input_shapes.empty())
                identity["input_shapes"] = study.models[m].load.input_shapes;
              if (!study.models[m].load.input_values.empty())
                identity["input_values"] = study.models[m].load.input_values;
              if (cost.spec.runtime_fusions != tensor::RuntimeFusions::kNone)
                identity["runtime_fusions"] =
                    name_of(tensor::kRuntimeFusionNames, cost.spec.runtime_fusions);
              if (study.measure)
                identity["measure"] = {study.measure->runs, study.measure->warmup,
                                       study.measure->threads, study.measure->instances};
              if (study.measure_onnxruntime)
                identity["measure_onnxruntime"] = {study.measure_onnxruntime->rounds,
                                                   study.measure_onnxruntime->tolerance,
                                                   study.measure_onnxruntime->round_ms};
              run.id = fmt::format("{:016x}", fnv1a(identity.dump()));
              study.runs.push_back(std::move(run));
            }
  std::set<std::string> ids;
  for (const RunSpec& run : study.runs)
    if (!ids.insert(run.id).second)
      throw Error(fmt::format("two runs of the grid are identical (configuration '{}' on model "
                              "'{}'): remove the duplicate",
                              run.configuration, study.models[run.model].name),
                  SourceLocation::at(path));
  return study;
} catch (const nlohmann::json::exception& e) {
  // A value of a type the reader did not expect: an Error naming the file, not a crash.
  throw json_error(e, path);
}

Study load_study(const std::string& path, const std::vector<std::string>& default_rules) {
  return parse_study(read_text_file(path), path, default_rules);
}

void restrict_seeds(Study& study, const std::vector<std::uint64_t>& seeds) {
  std::set<std::uint64_t> known;
  for (const RunSpec& run : study.runs) known.insert(run.seed);
  for (std::uint64_t seed : seeds)
    if (known.count(seed) == 0)
      throw Error(
          fmt::format("seed {} is not one of the study's seeds ({})", seed, fmt::join(known, ", ")),
          SourceLocation::at(study.file));
  std::erase_if(study.runs, [&](const RunSpec& run) {
    return std::find(seeds.begin(), seeds.end(), run.seed) == seeds.end();
  });
}

std::vector<RunSpec> shard_runs(const std::vector<RunSpec>& runs, std::size_t index,
                                std::size_t count) {
  if (count == 0 || index >= count)
    throw Error(fmt::format("shard {}/{}: expected I/N with 0 <= I < N", index, count));
  std::vector<RunSpec> out;
  for (const RunSpec& run : runs)
    if (run.index % count == index) out.push_back(run);
  return out;
}

}  // namespace mctsat::study
