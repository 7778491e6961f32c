// A bench study: the JSON config file that declares a grid of optimization runs (models x rule
// sets x configurations with parameter sweeps x cost models x seeds, with per-run limits), and
// its expansion into an ordered list of runs. The file format is documented by
// bench/configs/schema.json and the README; every problem in a config is an mctsat::Error naming
// the file and the JSON path of the offending value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/onnxruntime_measurement.hpp"
#include "dsl/rule_library.hpp"
#include "frontend/model_io.hpp"
#include "study/cost_model_spec.hpp"
#include "runtime/measured_speedup.hpp"
#include "search/optimizer.hpp"

namespace mctsat::study {

struct ModelSpec {
  std::string name;    // label in tables
  std::string source;  // zoo name or file path (resolved against the config's directory)
  // "input_shapes": fixed shapes of an ONNX model's inputs; "input_values": inputs that become
  // constants (e.g. a sample rate an If tests)
  frontend::LoadOptions load;
};

struct RulesSpec {
  std::string name;
  std::vector<std::string> paths;  // files or directories (resolved); the built-in library if none
  dsl::RuleSelection selection;
};

struct CostSpec {
  std::string name;
  study::CostModelSpec spec;
};

struct Limits {
  double seconds = 600;          // wall-clock limit of one run (the run is killed after it)
  std::size_t memory_mb = 8192;  // address-space limit of one run (0: none)
};

// One point of the grid.
struct RunSpec {
  std::size_t index = 0;  // position in the grid (stable for a given config)
  std::string id;         // hash of everything that determines the result (limits excluded)
  std::size_t model = 0, rules = 0, cost = 0;  // indices into Study::models, rules, costs
  std::string configuration;       // label: the configuration's name and its swept values
  std::string base_configuration;  // the configuration's name
  nlohmann::json sweep;            // swept parameter -> value (an object; empty if none)
  std::uint64_t seed = 1;
  search::OptimizeOptions options;  // every search parameter, seed included
  Limits limits;
};

struct Study {
  std::string name, description;
  std::string file;  // the config file
  std::string text;  // its contents, as read
  std::vector<ModelSpec> models;
  std::vector<RulesSpec> rules;
  std::vector<CostSpec> costs;
  std::vector<RunSpec> runs;  // in grid order
  // "measure": true or {"runs", "warmup", "threads"}: every run also times the original and the
  // optimized graph with oneDNN (runtime/measured_speedup.hpp; one thread unless told otherwise)
  // and records the real speedup in its report. Unset: no measurement.
  std::optional<runtime::SpeedupMeasureOptions> measure;
  // "measure_onnxruntime": true or {"rounds", "tolerance"}: every run also exports the original
  // and the optimized graph to ONNX and times both in ONNX Runtime (onnxruntime_measurement.hpp),
  // recording the speedup and whether the outputs agree. Unset: not run in ONNX Runtime.
  std::optional<OnnxRuntimeMeasureOptions> measure_onnxruntime;
};

// The most runs a grid may hold (a larger one is an error before it is expanded, since listing
// its runs takes time and memory in proportion). Far beyond any study that can finish: split it.
inline constexpr std::size_t kMaxGridRuns = 100'000;

// Reads and expands a config file. Relative model, rule and cost-table paths are resolved
// against the file's directory; `default_rules` is used by rule sets that name no paths.
Study load_study(const std::string& path, const std::vector<std::string>& default_rules);
// The same for config text in memory (`path` names it in errors and anchors relative paths).
Study parse_study(const std::string& text, const std::string& path,
                  const std::vector<std::string>& default_rules);

// Every search parameter of the options as a flat object ("strategy", "mcts.node_limit", ...):
// what a run record stores and its id hashes.
nlohmann::json parameters_json(const search::OptimizeOptions& options);
// The parameter names a configuration may set, in a fixed order.
std::vector<std::string> parameter_names();

// Keeps only the runs with one of these seeds (a quick pass with fewer seeds; a later run of the
// whole grid with --resume adds the rest). Runs keep their index and id. Throws mctsat::Error for
// a seed the config does not list.
void restrict_seeds(Study& study, const std::vector<std::uint64_t>& seeds);

// Runs of shard `index` of `count` (round robin over the grid order, so that every shard gets a
// mix of models). Throws for index >= count or count == 0.
std::vector<RunSpec> shard_runs(const std::vector<RunSpec>& runs, std::size_t index,
                                std::size_t count);

}  // namespace mctsat::study
