// The options, declared once, and the checks and conversions every front end shares.
#include "search/option_registry.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include <fmt/format.h>

#include "search/work_units.hpp"
#include "support/error.hpp"

namespace mctsat::search {
namespace {

using nlohmann::json;
using S = StrategyKind;

template <typename T>
using Ref = T& (*)(OptimizeOptions&);

template <typename T>
T& read(Ref<T> ref, const OptimizeOptions& options) {
  return ref(const_cast<OptimizeOptions&>(options));  // only read through
}

// The fields every option has; the rest keep their defaults until set.
OptionSpec spec_of(std::string name, std::string flag, OptionType type, std::string help) {
  OptionSpec spec;
  spec.name = std::move(name);
  spec.flag = std::move(flag);
  spec.type = type;
  spec.help = std::move(help);
  return spec;
}

OptionSpec count(std::string name, std::string flag, std::string help, Ref<std::size_t> ref,
                 std::uint64_t min, std::vector<S> used_by) {
  OptionSpec spec = spec_of(std::move(name), std::move(flag), OptionType::kCount, std::move(help));
  spec.min = static_cast<double>(min);
  spec.used_by = std::move(used_by);
  spec.get = [ref](const OptimizeOptions& o) { return json(read(ref, o)); };
  spec.set = [ref](OptimizeOptions& o, const json& v) { ref(o) = v.get<std::size_t>(); };
  return spec;
}

OptionSpec real(std::string name, std::string flag, std::string help, Ref<double> ref, double min,
                bool min_exclusive, double max, std::vector<S> used_by) {
  OptionSpec spec = spec_of(std::move(name), std::move(flag), OptionType::kReal, std::move(help));
  spec.min = min;
  spec.min_exclusive = min_exclusive;
  spec.max = max;
  spec.used_by = std::move(used_by);
  spec.get = [ref](const OptimizeOptions& o) { return json(read(ref, o)); };
  spec.set = [ref](OptimizeOptions& o, const json& v) { ref(o) = v.get<double>(); };
  return spec;
}

OptionSpec flag(std::string name, std::string flag, std::string help, Ref<bool> ref,
                std::vector<S> used_by) {
  OptionSpec spec = spec_of(std::move(name), std::move(flag), OptionType::kFlag, std::move(help));
  spec.used_by = std::move(used_by);
  spec.get = [ref](const OptimizeOptions& o) { return json(read(ref, o)); };
  spec.set = [ref](OptimizeOptions& o, const json& v) { ref(o) = v.get<bool>(); };
  return spec;
}

template <typename Enum, std::size_t N>
OptionSpec choice(std::string name, std::string flag, std::string help,
                  const EnumNames<Enum, N>& table, Ref<Enum> ref, std::vector<S> used_by) {
  OptionSpec spec = spec_of(std::move(name), std::move(flag), OptionType::kChoice, std::move(help));
  spec.choices = names_of(table);
  spec.used_by = std::move(used_by);
  spec.get = [ref, &table](const OptimizeOptions& o) {
    return json(std::string(name_of(table, read(ref, o))));
  };
  spec.set = [ref, &table](OptimizeOptions& o, const json& v) {
    ref(o) = *find_name(table, v.get<std::string>());
  };
  return spec;
}

// E-node ids are 32-bit: a larger e-node limit could never be reached.
constexpr double kMaxNodeLimit = 4294967295.0;

std::vector<OptionSpec> make_registry() {
  const std::vector<S> all, planners{S::kMcts, S::kGreedy}, mcts{S::kMcts},
      taso_pass{S::kMcts, S::kTaso}, egraphs{S::kEqsat, S::kMcts, S::kGreedy},
      threaded{S::kEqsat, S::kMcts, S::kTaso}, saturating{S::kEqsat, S::kMcts};
  std::vector<OptionSpec> r;
  r.push_back(choice(
      "strategy", "--strategy", "Search strategy", kStrategyNames,
      +[](OptimizeOptions& o) -> StrategyKind& { return o.strategy; }, all));
  r.push_back(choice(
      "extract", "--extract", "Reward extractor of mcts and greedy (greedy = DCF, paper = OCF)",
      extract::kExtractorNames,
      +[](OptimizeOptions& o) -> extract::ExtractorKind& { return o.extract; }, planners));
  r.push_back(choice(
      "final_extract", "--final-extract", "Final extractor", extract::kExtractorNames,
      +[](OptimizeOptions& o) -> extract::ExtractorKind& { return o.final_extract; }, all));
  r.push_back(real(
      "ilp_seconds", "--ilp-seconds", "Time limit of the ILP extractor (reward and final)",
      +[](OptimizeOptions& o) -> double& { return o.extractor.time_limit_seconds; }, 0, true, 1e9,
      all));
  r.push_back(count(
      "dag_restarts", "--dag-restarts",
      "Seeded restarts of the dag extractor (reward and final; 0: none)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.extractor.dag_restarts; }, 0, all));
  r.back().max = 100000;
  r.push_back(flag(
      "dag_chains", "--dag-chains,!--no-dag-chains",
      "Run the dag extractor's chain moves also without restarts (reward and final)",
      +[](OptimizeOptions& o) -> bool& { return o.extractor.dag_chains; }, all));
  r.push_back(real(
      "search_seconds", "--seconds",
      "The search's time budget in seconds (it stops and extracts; a bench run's hard limit is "
      "its limits.seconds)",
      +[](OptimizeOptions& o) -> double& { return o.limits.seconds; }, 0, true, 1e9, all));
  {
    OptionSpec work = spec_of(
        "search_work", "--work", OptionType::kReal,
        "The search's work budget in millions of work units (e-nodes it copies, rewrites or "
        "costs): unlike --seconds it does not depend on the machine's speed or load, so a seeded "
        "run stopped by it gives the same graph on a busy machine (mcts with a taso graph: half "
        "each); unset: none");
    work.min = 0;
    work.min_exclusive = true;
    work.max = 1e9;
    work.used_by = {S::kMcts, S::kTaso};
    work.id_only_if_set = true;
    work.get = [](const OptimizeOptions& o) {
      return o.limits.work == SearchLimits{}.work ? json()
                                                  : json(static_cast<double>(o.limits.work) /
                                                         static_cast<double>(kWorkUnitsPerMillion));
    };
    work.set = [](OptimizeOptions& o, const json& v) {
      o.limits.work = std::max<std::uint64_t>(
          1, static_cast<std::uint64_t>(
                 std::llround(v.get<double>() * static_cast<double>(kWorkUnitsPerMillion))));
    };
    r.push_back(std::move(work));
  }
  {
    OptionSpec memory = spec_of(
        "memory_limit_mb", "--memory-limit", OptionType::kReal,
        "Memory limit of the search in MB: its e-graphs (eqsat's; the tree's snapshots and every "
        "state a simulation builds; greedy's), the matches a step holds, the dag extractor's class "
        "sets; unset: half of the memory this process may use");
    memory.min = 0;
    memory.min_exclusive = true;
    memory.max = 1e9;
    memory.used_by = egraphs;
    memory.get = [](const OptimizeOptions& o) {
      return o.limits.memory_bytes == SearchLimits{}.memory_bytes
                 ? json()
                 : json(static_cast<double>(o.limits.memory_bytes) / (1024.0 * 1024.0));
    };
    memory.set = [](OptimizeOptions& o, const json& v) {
      o.limits.memory_bytes = static_cast<std::size_t>(v.get<double>() * 1024 * 1024);
    };
    r.push_back(std::move(memory));
  }
  r.push_back(count(
      "threads", "--threads",
      "Search threads (eqsat: rule matching; mcts: simulations; taso: "
      "candidates)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.limits.threads; }, 1, threaded));
  r.back().max = 1024;
  r.back().aliases = {"eqsat.threads", "mcts.threads", "taso.threads"};
  r.push_back(flag(
      "cycle_filter", "!--no-cycle-filter", "TENSAT's cycle filtering",
      +[](OptimizeOptions& o) -> bool& { return o.limits.cycle_filter; }, egraphs));
  r.push_back(count(
      "eqsat.node_limit", "--eqsat-node-limit", "E-node limit of eqsat (and of mcts's eqsat pass)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.eqsat.node_limit; }, 1, saturating));
  r.back().max = kMaxNodeLimit;
  r.push_back(count(
      "eqsat.iterations", "--iterations", "Iteration limit of eqsat (and of mcts's eqsat pass)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.eqsat.iterations; }, 0, saturating));
  r.push_back(count(
      "eqsat.k_multi", "--k-multi",
      "eqsat (and mcts's eqsat pass): multi-pattern rules in the first k iterations",
      +[](OptimizeOptions& o) -> std::size_t& { return o.eqsat.multi_iterations; }, 0, saturating));
  r.push_back(count(
      "mcts.simulations", "--simulations", "mcts: simulations per planning step",
      +[](OptimizeOptions& o) -> std::size_t& { return o.mcts.simulations; }, 1, mcts));
  r.push_back(count(
      "mcts.rollout_depth", "--rollout-depth", "mcts: rollout steps",
      +[](OptimizeOptions& o) -> std::size_t& { return o.mcts.rollout_depth; }, 0, mcts));
  r.push_back(real(
      "mcts.gamma", "--gamma", "mcts: discount",
      +[](OptimizeOptions& o) -> double& { return o.mcts.gamma; }, 0, false, 1, mcts));
  r.push_back(real(
      "mcts.exploration", "--exploration", "mcts: UCT exploration constant",
      +[](OptimizeOptions& o) -> double& { return o.mcts.exploration; }, 0, false, 1e9, mcts));
  r.push_back(real(
      "mcts.expand_probability", "--expand-probability",
      "mcts: expansion probability below the root",
      +[](OptimizeOptions& o) -> double& { return o.mcts.expand_probability; }, 0, false, 1, mcts));
  r.push_back(count(
      "mcts.max_steps", "--max-steps", "Planning-step limit of mcts and greedy",
      +[](OptimizeOptions& o) -> std::size_t& { return o.mcts.max_steps; }, 1, planners));
  r.push_back(count(
      "mcts.node_limit", "--node-limit",
      "E-node limit of mcts and greedy (eqsat: "
      "--eqsat-node-limit)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.mcts.node_limit; }, 1, planners));
  r.back().max = kMaxNodeLimit;
  r.push_back(flag(
      "mcts.stop_without_gain", "!--continue-without-gain",
      "mcts: stop when the best root action gains nothing (--continue-without-gain "
      "keeps committing it until the node limit, saturation or --max-steps, as the "
      "paper's planning loop does)",
      +[](OptimizeOptions& o) -> bool& { return o.mcts.stop_without_gain; }, mcts));
  r.push_back(flag(
      "mcts.best_state", "--best-state",
      "mcts: the final extraction reads the committed state with the lowest reward cost (the "
      "earliest of equals) instead of the last one (a larger e-graph may extract worse)",
      +[](OptimizeOptions& o) -> bool& { return o.mcts.best_state; }, mcts));
  r.push_back(choice(
      "mcts.tie_break", "--tie-break",
      "mcts: which of the root actions with the best mean value a step commits "
      "(visits: most visited; random: seeded; fair: least committed, then fewest "
      "e-nodes)",
      kTieBreakNames, +[](OptimizeOptions& o) -> TieBreak& { return o.mcts.tie_break; }, mcts));
  r.push_back(choice(
      "mcts.policy", "--policy", "mcts: rollout policy", kRolloutPolicyNames,
      +[](OptimizeOptions& o) -> RolloutPolicy& { return o.mcts.policy; }, mcts));
  r.push_back(real(
      "mcts.heavy_epsilon", "--heavy-epsilon", "mcts, heavy policy: chance of a random action",
      +[](OptimizeOptions& o) -> double& { return o.mcts.heavy_epsilon; }, 0, false, 1, mcts));
  r.push_back(count(
      "mcts.lookahead_width", "--lookahead-width",
      "mcts, lookahead policy: one-step candidates tried",
      +[](OptimizeOptions& o) -> std::size_t& { return o.mcts.lookahead_width; }, 1, mcts));
  r.push_back(count(
      "mcts.batch", "--batch",
      "mcts: simulations in flight at once (0: --threads; results depend on the batch, not on "
      "the thread count)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.mcts.batch; }, 0, mcts));
  {
    OptionSpec seed = spec_of("mcts.seed", "--seed", OptionType::kCount, "mcts: random seed");
    seed.max = 18446744073709551615.0;
    seed.used_by = mcts;
    seed.in_study = false;
    seed.get = [](const OptimizeOptions& o) { return json(o.mcts.seed); };
    seed.set = [](OptimizeOptions& o, const json& v) { o.mcts.seed = v.get<std::uint64_t>(); };
    r.push_back(std::move(seed));
  }
  r.push_back(real(
      "taso.alpha", "--alpha",
      "taso (and mcts with --taso-graph): accept candidates below alpha x the best cost",
      +[](OptimizeOptions& o) -> double& { return o.taso.alpha; }, 1, false, 10, taso_pass));
  r.push_back(choice(
      "taso_graph", "--taso-graph",
      "mcts: also run taso (--budget, --alpha; at most half the time budget) and add its best "
      "graph to the initial e-graph (seed: taso runs first) or to the final one (final: taso runs "
      "beside the tree search, sharing its threads, with half the memory limit); the result is "
      "then never worse than taso's (none: do not run it)",
      kTasoGraphNames, +[](OptimizeOptions& o) -> TasoGraph& { return o.taso_pass.graph; }, mcts));
  r.push_back(count(
      "taso_patience", "--taso-patience",
      "mcts with --taso-graph: stop its taso pass after this many explored graphs without a new "
      "best graph (0: never; the taso strategy itself has no patience)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.taso_pass.patience; }, 0, mcts));
  r.push_back(flag(
      "eqsat_pass", "--eqsat-pass,!--no-eqsat-pass",
      "mcts: also run eqsat from the input graph (--eqsat-node-limit, --iterations, --k-multi; "
      "after the tree search and taso, in the time left), extract its e-graph with the dag "
      "extractor and add that graph to the final e-graph; the result is then never worse than it",
      +[](OptimizeOptions& o) -> bool& { return o.eqsat_pass; }, mcts));
  r.back().id_only_if_set = true;
  r.push_back(count(
      "region_ops", "--region-ops",
      "A graph of more than twice this many operators is cut between layers into regions of at "
      "most this many, each searched on its own (regions of equal structure once) and joined "
      "(0: always search the whole graph)",
      +[](OptimizeOptions& o) -> std::size_t& { return o.region_ops; }, 0, all));
  r.back().id_only_if_set = true;
  r.push_back(count(
      "taso.budget", "--budget", "taso (and mcts with --taso-graph): graphs to explore",
      +[](OptimizeOptions& o) -> std::size_t& { return o.taso.budget; }, 1, taso_pass));
  r.push_back(real(
      "taso.max_ops_factor", "--max-ops-factor",
      "taso (and mcts with --taso-graph): reject candidates with more operators than this x the "
      "input's",
      +[](OptimizeOptions& o) -> double& { return o.taso.max_ops_factor; }, 0, true, 1e6,
      taso_pass));
  return r;
}

std::string range_text(const OptionSpec& spec) {
  std::string text = fmt::format("{} {}", spec.min_exclusive ? ">" : ">=", spec.min);
  if (std::isfinite(spec.max) && spec.max < 1e18) text += fmt::format(" and <= {}", spec.max);
  return text;
}

}  // namespace

const std::vector<OptionSpec>& option_registry() {
  static const std::vector<OptionSpec> registry = make_registry();
  return registry;
}

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& spec : option_registry()) {
    if (spec.name == name) return &spec;
    for (const std::string& alias : spec.aliases)
      if (alias == name) return &spec;
  }
  return nullptr;
}

std::string option_value_error(const OptionSpec& spec, const json& value) {
  const auto describe = [&] {
    std::string text = value.dump();
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return fmt::format("{} {}", value.type_name(), text);
  };
  switch (spec.type) {
    case OptionType::kCount: {
      if (!value.is_number_unsigned())
        return fmt::format("expected a non-negative integer, got {}", describe());
      const double v = static_cast<double>(value.get<std::uint64_t>());
      if (v < spec.min || v > spec.max)
        return fmt::format("{} is out of range ({})", value.dump(), range_text(spec));
      return {};
    }
    case OptionType::kReal: {
      if (!value.is_number()) return fmt::format("expected a number, got {}", describe());
      const double v = value.get<double>();
      if (!std::isfinite(v)) return fmt::format("{} is not a finite number", value.dump());
      if (v < spec.min || (spec.min_exclusive && v == spec.min) || v > spec.max)
        return fmt::format("{} is out of range ({})", value.dump(), range_text(spec));
      return {};
    }
    case OptionType::kFlag:
      return value.is_boolean() ? std::string()
                                : fmt::format("expected true or false, got {}", describe());
    case OptionType::kChoice: {
      if (!value.is_string()) return fmt::format("expected a string, got {}", describe());
      for (const std::string& c : spec.choices)
        if (c == value.get<std::string>()) return {};
      return fmt::format("unknown value '{}' (known: {})", value.get<std::string>(),
                         fmt::join(spec.choices, ", "));
    }
  }
  return "unknown option type";
}

std::string values_text(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::kCount:
      return "integer " + range_text(spec);
    case OptionType::kReal:
      return "number " + range_text(spec);
    case OptionType::kFlag:
      return "true or false";
    case OptionType::kChoice:
      return fmt::format("{}", fmt::join(spec.choices, ", "));
  }
  return {};
}

void set_option(OptimizeOptions& options, const OptionSpec& spec, const json& value) {
  if (const std::string error = option_value_error(spec, value); !error.empty()) throw Error(error);
  spec.set(options, value);
}

json option_value_from_text(const OptionSpec& spec, std::string_view text) {
  switch (spec.type) {
    case OptionType::kCount: {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec == std::errc::result_out_of_range)
        throw Error(fmt::format("'{}' is out of range ({})", text, range_text(spec)));
      if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        throw Error(fmt::format("'{}' is not a non-negative integer", text));
      return json(v);
    }
    case OptionType::kReal: {
      const std::string copy(text);
      char* end = nullptr;
      const double v = std::strtod(copy.c_str(), &end);
      if (copy.empty() || end != copy.c_str() + copy.size())
        throw Error(fmt::format("'{}' is not a number", text));
      if (!std::isfinite(v)) throw Error(fmt::format("'{}' is not a finite number", text));
      return json(v);
    }
    case OptionType::kFlag:
      if (text == "true" || text == "1") return json(true);
      if (text == "false" || text == "0") return json(false);
      throw Error(fmt::format("'{}' is not true or false", text));
    case OptionType::kChoice:
      return json(std::string(text));
  }
  throw Error("unknown option type");
}

std::string used_by_text(const OptionSpec& spec) {
  if (spec.used_by.empty()) return "all";
  std::string text;
  for (StrategyKind kind : spec.used_by)
    text += fmt::format("{}{}", text.empty() ? "" : ", ", name_of(kStrategyNames, kind));
  return text;
}

json options_json(const OptimizeOptions& options) {
  json out = json::object();
  for (const OptionSpec& spec : option_registry()) out[spec.name] = spec.get(options);
  return out;
}

json options_schema() {
  const OptimizeOptions defaults;
  json names = json::array();
  json properties = json::object();
  std::map<std::string, std::vector<std::string>> nested_names;  // group -> inner names
  const auto property = [&](const OptionSpec& spec, bool alias) {
    json p = json::object();
    switch (spec.type) {
      case OptionType::kCount:
        p["type"] = "integer";
        p["minimum"] = static_cast<std::uint64_t>(spec.min);
        if (spec.max < 1e18) p["maximum"] = static_cast<std::uint64_t>(spec.max);
        break;
      case OptionType::kReal:
        p["type"] = "number";
        p[spec.min_exclusive ? "exclusiveMinimum" : "minimum"] = spec.min;
        if (spec.max < 1e8) p["maximum"] = spec.max;
        break;
      case OptionType::kFlag:
        p["type"] = "boolean";
        break;
      case OptionType::kChoice:
        p["enum"] = spec.choices;
        break;
    }
    if (const json d = spec.get(defaults); !d.is_null()) p["default"] = d;
    p["description"] = alias ? fmt::format("Older name of {}. {}", spec.name, spec.help)
                             : fmt::format("{} (strategies: {}).", spec.help, used_by_text(spec));
    return p;
  };
  const auto add = [&](const std::string& name, json p) {
    names.push_back(name);
    if (const auto dot = name.find('.'); dot != std::string::npos) {
      const std::string group = name.substr(0, dot), inner = name.substr(dot + 1);
      json& object = properties[group];
      if (object.is_null()) object = {{"type", "object"}, {"additionalProperties", false}};
      object["properties"][inner] = std::move(p);
      nested_names[group].push_back(inner);
    } else {
      properties[name] = std::move(p);
    }
  };
  for (const OptionSpec& spec : option_registry()) {
    if (!spec.in_study) continue;
    add(spec.name, property(spec, false));
    for (const std::string& alias : spec.aliases) add(alias, property(spec, true));
  }
  json patterns = json::object();
  for (const auto& [group, inner] : nested_names)
    patterns[fmt::format("^{}\\.({})$", group, fmt::join(inner, "|"))] = json::object();
  return {{"parameter_name", {{"enum", names}}},
          {"parameters",
           {{"description",
             "Search parameters (defaults as in `mctsat optimize`), made from the option "
             "registry. Dotted names may be written flat (\"mcts.node_limit\": 500) or nested "
             "(\"mcts\": {\"node_limit\": 500})."},
            {"type", "object"},
            {"properties", properties},
            {"patternProperties", patterns}}}};
}

}  // namespace mctsat::search
