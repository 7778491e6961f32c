// Bench configs: grid expansion (sweeps, seeds, deterministic strategies), parameters, sharding,
// the shipped configs, and errors that name the file and the JSON path of the bad value.
#include <filesystem>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "study/config.hpp"
#include "support/error.hpp"
#include "support/files.hpp"

using mctsat::study::parse_study;
using mctsat::study::Study;

namespace {

const std::vector<std::string> kRules{MCTSAT_SOURCE_DIR "/rules/taso"};

Study parse(const std::string& text) {
  return parse_study(text, "/tmp/study.json", kRules);
}

// The error message of parsing `text`, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const mctsat::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a grid expands models x configurations (with sweeps) x seeds in a fixed order") {
  const Study study = parse(R"({
    "name": "t", "models": ["demo", "bert"], "seeds": [1, 2, 3],
    "defaults": {"mcts": {"simulations": 8}},
    "configurations": [
      {"name": "eq", "strategy": "eqsat", "eqsat": {"k_multi": 2}},
      {"name": "m", "strategy": "mcts", "extract": "paper",
       "mcts": {"stop_without_gain": false, "tie_break": "fair"},
       "sweep": {"mcts.node_limit": [500, 1000], "mcts.policy": ["random", "heavy"]}}]})");
  // eqsat is deterministic: one run per model; mcts: 2 x 2 sweep points x 3 seeds.
  REQUIRE(study.runs.size() == 2 * (1 + 4 * 3));
  const auto& first = study.runs[0];
  CHECK(first.configuration == "eq");
  CHECK(first.options.strategy == mctsat::search::StrategyKind::kEqsat);
  CHECK(first.options.eqsat.multi_iterations == 2);
  const auto& second = study.runs[1];
  CHECK(second.base_configuration == "m");
  CHECK(second.configuration.find("node_limit=") != std::string::npos);
  CHECK(second.configuration.find("policy=") != std::string::npos);
  CHECK(second.options.extract == mctsat::extract::ExtractorKind::kPaper);
  CHECK(second.options.mcts.simulations == 8);  // from the defaults
  CHECK_FALSE(second.options.mcts.stop_without_gain);
  CHECK(first.options.mcts.stop_without_gain);
  CHECK(second.options.mcts.tie_break == mctsat::search::TieBreak::kFair);
  CHECK(first.options.mcts.tie_break == mctsat::search::TieBreak::kVisits);
  CHECK(second.options.mcts.seed == 1);
  CHECK(study.runs[2].options.mcts.seed == 2);
  std::set<std::string> ids;
  std::set<std::size_t> node_limits;
  for (std::size_t i = 0; i < study.runs.size(); ++i) {
    CHECK(study.runs[i].index == i);
    ids.insert(study.runs[i].id);
    if (study.runs[i].options.strategy == mctsat::search::StrategyKind::kMcts)
      node_limits.insert(study.runs[i].options.mcts.node_limit);
  }
  CHECK(ids.size() == study.runs.size());
  CHECK(node_limits == std::set<std::size_t>{500, 1000});
  CHECK(study.models[1].name == "bert");
  CHECK(study.rules.size() == 1);
  CHECK(study.costs.size() == 1);
  // The same config gives the same ids (resume depends on it).
  const Study again = parse(study.text);
  CHECK(again.runs[5].id == study.runs[5].id);
}

TEST_CASE("parameters_json lists every parameter, and a run's parameters are its options") {
  const Study study = parse(R"({"name": "t", "models": ["demo"], "configurations": [
      {"name": "a", "strategy": "mcts", "search_seconds": 7, "cycle_filter": false,
       "dag_restarts": 16, "dag_chains": false,
       "mcts": {"rollout_depth": 5, "gamma": 0.5, "policy": "lookahead"}}]})");
  const auto p = mctsat::study::parameters_json(study.runs.at(0).options);
  for (const auto& name : mctsat::study::parameter_names()) CHECK(p.contains(name));
  CHECK(p["search_seconds"] == 7.0);
  CHECK(p["cycle_filter"] == false);
  CHECK(p["mcts.rollout_depth"] == 5);
  CHECK(p["mcts.gamma"] == 0.5);
  CHECK(p["mcts.policy"] == "lookahead");
  CHECK(study.runs[0].options.limits.seconds == 7.0);
  CHECK(p["dag_restarts"] == 16);
  CHECK(p["dag_chains"] == false);
  CHECK(study.runs[0].options.extractor.dag_restarts == 16);
  CHECK(!study.runs[0].options.extractor.dag_chains);  // on by default
  CHECK(parse(R"({"name": "t", "models": ["demo"], "configurations": [{"name": "a"}]})")
            .runs.at(0)
            .options.extractor.dag_chains);
}

TEST_CASE("shards split the grid round robin and together cover it once") {
  const Study study = parse(R"({"name": "t", "models": ["demo", "bert"], "seeds": [1, 2, 3],
      "configurations": [{"name": "m", "strategy": "mcts"}]})");
  const auto a = mctsat::study::shard_runs(study.runs, 0, 2);
  const auto b = mctsat::study::shard_runs(study.runs, 1, 2);
  CHECK(a.size() == 3);
  CHECK(b.size() == 3);
  std::set<std::size_t> all;
  for (const auto& run : a) all.insert(run.index);
  for (const auto& run : b) all.insert(run.index);
  CHECK(all.size() == 6);
  CHECK_THROWS_AS(mctsat::study::shard_runs(study.runs, 2, 2), mctsat::Error);
  CHECK_THROWS_AS(mctsat::study::shard_runs(study.runs, 0, 0), mctsat::Error);
}

TEST_CASE("restricting seeds keeps the runs' indices and ids") {
  Study study = parse(R"({"name": "t", "models": ["demo"], "seeds": [1, 2, 3],
      "configurations": [{"name": "e", "strategy": "eqsat"}, {"name": "m", "strategy": "mcts"}]})");
  REQUIRE(study.runs.size() == 4);
  const auto third = study.runs[3];
  mctsat::study::restrict_seeds(study, {3});
  REQUIRE(study.runs.size() == 1);  // the eqsat run has seed 1 only
  CHECK(study.runs[0].index == third.index);
  CHECK(study.runs[0].id == third.id);
  CHECK_THROWS_AS(mctsat::study::restrict_seeds(study, {7}), mctsat::Error);
}

TEST_CASE("bad configs are errors naming the file and the JSON path") {
  const std::string base = R"("name": "t", "models": ["demo"], )";
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {R"({"name": "t", "models": ["demo"]})", "/configurations: missing"},
      {"{" + base + R"("configurations": [{"name": "a", "mcts": {"node_limit": -5}}]})",
       "/configurations/0/mcts/node_limit: expected a non-negative integer"},
      {"{" + base + R"("configurations": [{"name": "a", "mcts": {"node_limit": 0}}]})",
       "/configurations/0/mcts/node_limit: 0 is out of range"},
      {"{" + base + R"("configurations": [{"name": "a", "strategy": "annealing"}]})",
       "/configurations/0/strategy: unknown value 'annealing'"},
      {"{" + base + R"("configurations": [{"name": "a", "dag_restarts": -1}]})",
       "/configurations/0/dag_restarts: expected a non-negative integer"},
      {"{" + base + R"("configurations": [{"name": "a", "mcts": {"tie_break": "coin"}}]})",
       "/configurations/0/mcts/tie_break: unknown value 'coin' (known: visits, random, fair)"},
      {"{" + base + R"("configurations": [{"name": "a", "mcts": {"nodes": 5}}]})",
       "/configurations/0/mcts/nodes: unknown parameter 'mcts.nodes'"},
      {"{" + base + R"("configurations": [{"name": "a", "sweep": {"mcts.gamma": [0.5, 2]}}]})",
       "/configurations/0/sweep/mcts.gamma/1: 2 is out of range"},
      {"{" + base + R"("configurations": [{"name": "a", "mcts": {"seed": 3}}]})",
       "/configurations/0/mcts/seed: seeds are given by the top-level \"seeds\" list"},
      {"{" + base + R"("configurations": [{"name": "a"}, {"name": "a"}]})",
       "/configurations/1/name: configuration name 'a' is used twice"},
      {"{" + base + R"("configurations": [{"name": "a"}], "seeds": [1, 1]})",
       "/seeds/1: seed 1 is listed twice"},
      {"{" + base + R"("configurations": [{"name": "a"}], "limits": {"seconds": "10"}})",
       "/limits/seconds: expected a number, got string"},
      {"{" + base + R"("configurations": [{"name": "a"}], "cost_models": [{"device": "z80"}]})",
       "/cost_models/0: unknown device"},
      {"{" + base +
           R"("configurations": [{"name": "a"}], "cost_models": [{"runtime_fusions": "tvm"}]})",
       "/cost_models/0/runtime_fusions: unknown runtime 'tvm' (known: none, onnxruntime)"},
      {"{" + base + R"("configurations": [{"name": "a"}], "colour": 1})",
       "/colour: unknown key 'colour'"},
      {R"({"name": "t", "models": ["no-such-model"], "configurations": [{"name": "a"}]})",
       "/models/0: '/tmp/no-such-model' is neither a zoo model"},
      {R"({"name": "t", "models": [], "configurations": [{"name": "a"}]})",
       "/models: expected a non-empty array"},
      {R"({"name": "a b", "models": ["demo"], "configurations": [{"name": "a"}]})",
       "/name: must be a non-empty name without '/'"},
      {R"({"name": "a\nb", "models": ["demo"], "configurations": [{"name": "a"}]})",
       "/name: must be a non-empty name without '/'"},
      {R"({"name": "..", "models": ["demo"], "configurations": [{"name": "a"}]})",
       "/name: must be a non-empty name without '/'"},
      {R"({"name": "t", "models": ["demo"] "configurations": []})", "/tmp/study.json:1:"},
      {"{" + base + R"("configurations": [{"name": "a"}], "measure": "yes"})",
       "/measure: expected true, false or an object"},
      {"{" + base + R"("configurations": [{"name": "a"}], "measure": {"runs": 0}})",
       "/measure/runs: 0 is out of range"},
      {"{" + base + R"("configurations": [{"name": "a"}], "measure": {"repeats": 3}})",
       "/measure/repeats: unknown key 'repeats'"},
      {R"({"name": "t", "models": [{"path": "/", "input_shapes": {"x": [1, 0]}}],
           "configurations": [{"name": "a"}]})",
       "/models/0/input_shapes/x/1: 0 is out of range (>= 1)"},
      {R"({"name": "t", "models": [{"path": "/", "input_shapes": {"x": []}}],
           "configurations": [{"name": "a"}]})",
       "/models/0/input_shapes/x: expected a non-empty array"},
      {R"({"name": "t", "models": [{"path": "/", "input_shapes": [1, 3]}],
           "configurations": [{"name": "a"}]})",
       "/models/0/input_shapes: expected an object"},
      {R"({"name": "t", "models": [{"path": "/", "input_values": {"sr": ["16000"]}}],
           "configurations": [{"name": "a"}]})",
       "/models/0/input_values/sr/0: expected a number"},
      {R"({"name": "t", "models": [{"path": "/", "input_values": {"sr": []}}],
           "configurations": [{"name": "a"}]})",
       "/models/0/input_values/sr: expected a non-empty array"},
      {"{" + base + R"("configurations": [{"name": "a"}], "measure_onnxruntime": 1})",
       "/measure_onnxruntime: expected true, false or an object"},
      {"{" + base + R"("configurations": [{"name": "a"}], "measure_onnxruntime": {"rounds": 0}})",
       "/measure_onnxruntime/rounds: 0 is out of range"},
      {"{" + base +
           R"("configurations": [{"name": "a"}], "measure_onnxruntime": {"rounds": 4294967297}})",
       "/measure_onnxruntime/rounds: 4294967297 is out of range (<= 100000)"},
      {"{" + base +
           R"("configurations": [{"name": "a"}], "measure_onnxruntime": {"tolerance": 0}})",
       "/measure_onnxruntime/tolerance: 0 is out of range"},
      {"{" + base +
           R"("configurations": [{"name": "a"}], "measure_onnxruntime": {"round_ms": -1}})",
       "/measure_onnxruntime/round_ms: -1 is out of range"},
      {"{" + base + R"("configurations": [{"name": "a"}], "measure_onnxruntime": {"threads": 2}})",
       "/measure_onnxruntime/threads: unknown key 'threads'"},
  };
  for (const Case& c : cases) {
    const std::string message = error_of(c.text);
    CAPTURE(c.text);
    CAPTURE(message);
    CHECK(message.rfind("/tmp/study.json", 0) == 0);
    CHECK(message.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("a long seed list is refused or checked for duplicates without quadratic work") {
  const std::string grid = R"("name": "t", "models": ["demo"], "configurations": [{"name": "a"}])";
  // 10^6 seeds: more than a grid may hold, refused before the duplicate check.
  std::string seeds;
  for (int i = 0; i < 1'000'000; ++i) seeds += fmt::format("{}{}", i ? "," : "", i);
  std::string message = error_of("{" + grid + ", \"seeds\": [" + seeds + "]}");
  CHECK(message.find("/seeds: 1000000 seeds, more than the 100000 runs a grid may hold") !=
        std::string::npos);
  // 60,000 distinct seeds, then the first again.
  seeds.clear();
  for (int i = 0; i < 60'000; ++i) seeds += fmt::format("{},", i);
  message = error_of("{" + grid + ", \"seeds\": [" + seeds + "0]}");
  CHECK(message.find("/seeds/60000: seed 0 is listed twice") != std::string::npos);
}

TEST_CASE("\"measure\" asks for oneDNN timings and changes the ids only when on") {
  const std::string grid =
      R"("name": "t", "models": ["demo"], "configurations": [{"name": "g", "strategy": "greedy"}])";
  const Study plain = parse("{" + grid + "}");
  CHECK_FALSE(plain.measure.has_value());
  const Study off = parse("{" + grid + R"(, "measure": false})");
  CHECK_FALSE(off.measure.has_value());
  CHECK(off.runs[0].id == plain.runs[0].id);
  const Study on = parse("{" + grid + R"(, "measure": true})");
  REQUIRE(on.measure.has_value());
  CHECK(on.measure->threads == 1);
  CHECK(on.measure->runs == mctsat::runtime::SpeedupMeasureOptions{}.runs);
  CHECK(on.runs[0].id != plain.runs[0].id);
  const Study custom =
      parse("{" + grid + R"(, "measure": {"runs": 4, "warmup": 0, "instances": 3, "threads": 2}})");
  REQUIRE(custom.measure.has_value());
  CHECK(custom.measure->runs == 4);
  CHECK(custom.measure->instances == 3);
  CHECK(custom.measure->warmup == 0);
  CHECK(custom.measure->threads == 2);
  CHECK(custom.runs[0].id != on.runs[0].id);
}

TEST_CASE(
    "\"measure_onnxruntime\" asks for ONNX Runtime timings and changes the ids only when on") {
  const std::string grid =
      R"("name": "t", "models": ["demo"], "configurations": [{"name": "g", "strategy": "greedy"}])";
  const Study plain = parse("{" + grid + "}");
  CHECK_FALSE(plain.measure_onnxruntime.has_value());
  const Study off = parse("{" + grid + R"(, "measure_onnxruntime": false})");
  CHECK_FALSE(off.measure_onnxruntime.has_value());
  CHECK(off.runs[0].id == plain.runs[0].id);
  const Study on = parse("{" + grid + R"(, "measure_onnxruntime": true})");
  REQUIRE(on.measure_onnxruntime.has_value());
  CHECK(on.measure_onnxruntime->rounds == mctsat::study::OnnxRuntimeMeasureOptions{}.rounds);
  CHECK(on.runs[0].id != plain.runs[0].id);
  const Study custom = parse(
      "{" + grid + R"(, "measure_onnxruntime": {"rounds": 7, "round_ms": 0, "tolerance": 0.01}})");
  REQUIRE(custom.measure_onnxruntime.has_value());
  CHECK(custom.measure_onnxruntime->rounds == 7);
  CHECK(custom.measure_onnxruntime->round_ms == 0);
  CHECK(custom.measure_onnxruntime->tolerance == doctest::Approx(0.01));
  CHECK(custom.runs[0].id != on.runs[0].id);
}

TEST_CASE("a cost model's runtime fusions are read, named and change its runs' ids") {
  const std::string grid =
      R"("name": "t", "models": ["demo"], "configurations": [{"name": "g", "strategy": "greedy"}])";
  const Study plain = parse("{" + grid + R"(, "cost_models": [{"device": "cpu-2core"}]})");
  const Study none = parse(
      "{" + grid + R"(, "cost_models": [{"device": "cpu-2core", "runtime_fusions": "none"}]})");
  const Study as_run = parse("{" + grid +
                             R"(, "cost_models": [{"device": "cpu-2core", "runtime_fusions": )"
                             R"("onnxruntime"}]})");
  CHECK(none.runs[0].id == plain.runs[0].id);
  REQUIRE(as_run.costs.size() == 1);
  CHECK(as_run.costs[0].spec.runtime_fusions == mctsat::tensor::RuntimeFusions::kOnnxRuntime);
  CHECK(as_run.costs[0].name == "roofline-cpu-2core-onnxruntime");
  CHECK(as_run.runs[0].id != plain.runs[0].id);
}

TEST_CASE("a model file's input values are read and change its runs' ids") {
  const std::string tail = R"(], "configurations": [{"name": "g", "strategy": "greedy"}]})";
  const Study plain = parse(R"({"name": "t", "models": [{"path": "/"})" + tail);
  const Study valued =
      parse(R"({"name": "t", "models": [{"path": "/", "input_values": {"sr": [16000]}})" + tail);
  REQUIRE(valued.models[0].load.input_values.count("sr") == 1);
  CHECK(valued.models[0].load.input_values.at("sr") == std::vector<double>{16000});
  CHECK(valued.runs[0].id != plain.runs[0].id);
}

TEST_CASE("a model file's input shapes are read and change its runs' ids") {
  const std::string tail = R"(], "configurations": [{"name": "g", "strategy": "greedy"}]})";
  const Study plain = parse(R"({"name": "t", "models": [{"path": "/"})" + tail);
  const Study shaped = parse(
      R"({"name": "t", "models": [{"path": "/", "input_shapes": {"x": [1, 3, 48, 192]}})" + tail);
  CHECK(plain.models[0].load.input_shapes.empty());
  REQUIRE(shaped.models[0].load.input_shapes.count("x") == 1);
  CHECK(shaped.models[0].load.input_shapes.at("x") == std::vector<std::int64_t>{1, 3, 48, 192});
  CHECK(shaped.runs[0].id != plain.runs[0].id);
}

TEST_CASE("a grid of more runs than kMaxGridRuns is refused before it is expanded") {
  // A million runs took 45 s and 2.4 GB to expand (even for --list), with nothing printed.
  std::string hundred = "[1";
  for (int i = 2; i <= 100; ++i) hundred += fmt::format(", {}", i);
  hundred += "]";
  const std::string sweep = R"({"name": "t", "models": ["demo"], "configurations": [{"name": "m",
    "strategy": "mcts", "sweep": {"mcts.simulations": )" +
                            hundred + R"(, "mcts.max_steps": )" + hundred +
                            R"(, "mcts.rollout_depth": )" + hundred + "}}]}";
  CHECK(error_of(sweep).find("/configurations/0/sweep/mcts.simulations: the sweep has more "
                             "than 100000 points") != std::string::npos);
  // 10,000 sweep points x 20 seeds.
  std::string seeds = "[1";
  for (int i = 2; i <= 20; ++i) seeds += fmt::format(", {}", i);
  const std::string grid = R"({"name": "t", "models": ["demo"], "seeds": )" + seeds +
                           R"(], "configurations": [{"name": "m", "strategy": "mcts",
    "sweep": {"mcts.simulations": )" +
                           hundred + R"(, "mcts.max_steps": )" + hundred + "}}]}";
  CHECK(error_of(grid).find("the grid holds 200000 runs, more than the 100000") !=
        std::string::npos);
}

TEST_CASE("the shipped configs load") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(MCTSAT_SOURCE_DIR) / "bench" / "configs";
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json" || entry.path().filename() == "schema.json") continue;
    CAPTURE(entry.path().string());
    const Study study = mctsat::study::load_study(entry.path().string(), kRules);
    CHECK(study.name == entry.path().stem().string());
    CHECK_FALSE(study.runs.empty());
    names.insert(study.name);
  }
  for (const char* name :
       {"smoke", "paper-table2", "extraction-ablation", "node-limit", "rollout", "threads"})
    CHECK(names.count(name) == 1);
  // Downloaded models are named in build/test-models, which every build tree's fixtures fill: a
  // config naming one preset's build directory would load only in that preset's tree.
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    const std::string text = mctsat::read_text_file(entry.path().string());
    for (const char* preset : {"build/release/", "build/debug/"})
      CHECK(text.find(preset) == std::string::npos);
  }
}
