// The option registry: every search and extraction option of an optimization, declared once
// (name, type, default, range or choices, help, which strategies read it, its command-line flag).
// The CLI's flags (cli/search_flags), the study library's study parameters, the study schema
// (bench/configs/schema.json, checked against it by a test), the report's echo of the options and
// the run ids of studies all come from this table; adding an option touches only it.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "search/optimize_options.hpp"
#include "search/strategy.hpp"

namespace mctsat::search {

enum class OptionType {
  kCount,   // a non-negative integer
  kReal,    // a finite number
  kFlag,    // true or false
  kChoice,  // one of a list of names
};

struct OptionSpec {
  // The option's name: the study parameter ("mcts.node_limit"; a dot nests it in studies'
  // "mcts" object) and its key in the report's echo of the options.
  std::string name;
  // The command-line flag in CLI11's spelling ("--node-limit"; "!--no-cycle-filter" sets false;
  // "--dag-chains,!--no-dag-chains" both ways). Empty: not on the command line.
  std::string flag;
  OptionType type = OptionType::kCount;
  std::string help;
  double min = 0;              // kCount, kReal
  bool min_exclusive = false;  // kReal: the value must exceed `min`
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;   // kChoice
  std::vector<StrategyKind> used_by;  // the strategies that read it; empty: all of them
  bool in_study = true;               // false: studies set it otherwise (the seed: "seeds")
  std::vector<std::string> aliases;   // older study parameter names that still read
  // Added after studies were run: study run ids hash it only when it differs from its default,
  // so that the ids of runs that do not set it stay as they were.
  bool id_only_if_set = false;
  std::function<nlohmann::json(const OptimizeOptions&)> get;
  std::function<void(OptimizeOptions&, const nlohmann::json&)> set;  // value already checked
};

// In a fixed order (the CLI's help lists them so).
const std::vector<OptionSpec>& option_registry();
// By name or alias; nullptr if none.
const OptionSpec* find_option(std::string_view name);

// Why `value` is not a valid value of the option (type, range, choices); empty when it is.
std::string option_value_error(const OptionSpec& spec, const nlohmann::json& value);
// Checks and sets; throws mctsat::Error with the reason (callers add the location).
void set_option(OptimizeOptions& options, const OptionSpec& spec, const nlohmann::json& value);
// Command-line text as the option's JSON value ("12" -> 12, "fair" -> "fair"); throws
// mctsat::Error for text that is not a value of its type (no number wraps or overflows).
nlohmann::json option_value_from_text(const OptionSpec& spec, std::string_view text);
// What the strategies' names of `used_by` say in help texts ("mcts, greedy"; "all").
std::string used_by_text(const OptionSpec& spec);
// The values the option accepts, in words ("integer >= 1", "number > 0 and <= 1e+09",
// "mcts, eqsat, taso, greedy", "true or false").
std::string values_text(const OptionSpec& spec);

// Every option's value by name (a flat object): what run records store and run ids hash.
nlohmann::json options_json(const OptimizeOptions& options);
// The study schema's definitions made from the registry: {"parameter_name": {...},
// "parameters": {...}} (JSON Schema 2020-12), as bench/configs/schema.json's "$defs" holds them.
nlohmann::json options_schema();

}  // namespace mctsat::search
