// Search strategies end to end on small graphs with a known better form: two products sharing an
// input are merged into one wider product. Results are checked numerically with the reference
// interpreter; MCTS is deterministic for a seed; every strategy's stop reasons are reported.
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/optimizer.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/search/strategy_records.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;
using namespace mctsat::tensor;

namespace {

const char* kRules = R"(
rule share-input:
  (matmul 0 ?x ?w1), (matmul 0 ?x ?w2)
  => (split_0 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2)))),
     (split_1 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2))))
rule fuse-relu: (relu (matmul 0 ?a ?b)) => (matmul 2 ?a ?b)
rule unfuse-relu: (matmul 2 ?a ?b) => (relu (matmul 0 ?a ?b))
rule never: (conv2d 1 1 0 0 ?x ?w) => (conv2d 1 1 0 2 ?x ?w)
)";

dsl::RuleSet rules() {
  return test_fixtures::rule_set(kRules, "search.rules");
}

// Two products of one input.
Graph shared_input_graph() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {16, 64});
  b.output("p", b.matmul(x, b.weight("w1", {64, 64})));
  b.output("q", b.matmul(x, b.weight("w2", {64, 64})));
  return std::move(b).finish();
}

search::OptimizeOptions base_options(const std::string& strategy) {
  search::OptimizeOptions options;
  options.strategy = parse_name(search::kStrategyNames, strategy, "strategy");
  options.extract = extract::ExtractorKind::kIlp;
  options.final_extract = extract::ExtractorKind::kIlp;
  options.mcts.simulations = 16;
  options.mcts.seed = 7;
  options.taso_pass.graph = search::TasoGraph::kNone;  // the tree search alone
  options.eqsat_pass = false;
  return options;
}

}  // namespace

TEST_CASE("each strategy merges the shared-input products and keeps the outputs") {
  const dsl::RuleSet set = rules();
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = shared_input_graph();
  for (const char* strategy : {"eqsat", "mcts", "greedy", "taso"}) {
    CAPTURE(std::string(strategy));
    const search::OptimizeResult result =
        search::optimize(graph, set, model, base_options(strategy));
    CHECK(result.optimized_cost < result.original_cost);
    CHECK_FALSE(result.kept_original);
    CHECK(result.optimized_cost == doctest::Approx(graph_cost(result.graph, model)));
    const GraphStats stats = graph_stats(result.graph);
    CHECK(stats.by_op.at(Op::kMatmul) == 1);  // one wider product
    CHECK(stats.by_op.at(Op::kSplit) == 1);
    CHECK(search_graphs::max_difference(graph, result.graph, 5) < 1e-9);
  }
}

TEST_CASE("mcts is deterministic for a seed") {
  const dsl::RuleSet set = rules();
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = shared_input_graph();
  auto committed = [&](std::uint64_t seed) {
    search::OptimizeOptions options = base_options("mcts");
    options.mcts.seed = seed;
    const auto result = search::optimize(graph, set, model, options);
    std::vector<std::string> actions;
    for (const auto& step : strategy_records::mcts_steps(result)) actions.push_back(step.rule);
    return std::make_pair(actions, result.optimized_cost);
  };
  const auto first = committed(11), second = committed(11);
  CHECK(first == second);
  CHECK_FALSE(first.first.empty());
}

TEST_CASE("mcts prunes actions that change nothing and reports why it stopped") {
  const dsl::RuleSet set = rules();
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = shared_input_graph();
  auto run = [&](auto&& tweak) {
    search::OptimizeOptions options = base_options("mcts");
    tweak(options);
    return search::optimize(graph, set, model, options);
  };
  const auto normal = run([](search::OptimizeOptions&) {});
  for (const auto& step : strategy_records::mcts_steps(normal))
    CHECK(step.rule != "never");  // no conv2d: pruned
  CHECK((normal.stop == search::StopReason::kNoImprovement ||
         normal.stop == search::StopReason::kSaturated));
  CHECK(run([](search::OptimizeOptions& o) { o.mcts.max_steps = 1; }).stop ==
        search::StopReason::kStepLimit);
  CHECK(run([](search::OptimizeOptions& o) { o.mcts.node_limit = 10; }).stop ==
        search::StopReason::kNodeLimit);
  CHECK(run([](search::OptimizeOptions& o) { o.limits.seconds = 1e-9; }).stop ==
        search::StopReason::kTimeLimit);
  CHECK(run([](search::OptimizeOptions& o) { o.limits.memory_bytes = 1; }).stop ==
        search::StopReason::kMemoryLimit);
}

TEST_CASE("mcts keeps committing actions that gain nothing when asked, as the paper's loop does") {
  const dsl::RuleSet set = rules();
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  GraphBuilder b;  // already optimal: unfusing the relu only adds a costlier alternative
  b.output("p", b.matmul(b.input("x", {16, 64}), b.weight("w", {64, 64}), Activation::kRelu));
  const Graph graph = std::move(b).finish();
  search::OptimizeOptions options = base_options("mcts");
  const auto stopping = search::optimize(graph, set, model, options);
  CHECK(stopping.stop == search::StopReason::kNoImprovement);
  CHECK(strategy_records::mcts_steps(stopping).empty());
  options.mcts.stop_without_gain = false;
  const auto continuing = search::optimize(graph, set, model, options);
  CHECK(continuing.stop == search::StopReason::kSaturated);
  REQUIRE_FALSE(strategy_records::mcts_steps(continuing).empty());
  CHECK(strategy_records::mcts_steps(continuing).front().rule == "unfuse-relu");
  CHECK(strategy_records::mcts_steps(continuing).front().mean_value == 0);
  CHECK(continuing.optimized_cost == doctest::Approx(stopping.optimized_cost));
}

TEST_CASE("the tie-break among zero-value actions decides how the paper's loop grows the e-graph") {
  // No rule lowers this graph's cost, so every root action is worth 0 and the tie-break alone
  // chooses. `transpose-product` and `transpose-twice` never saturate (each application exposes a
  // new match).
  const dsl::RuleSet set = test_fixtures::rule_set(R"(
rule transpose-product: (matmul 0 ?x ?y)
  => (transpose (matmul 0 (transpose ?y [1, 0]) (transpose ?x [1, 0])) [1, 0])
rule add-commute: (ewadd ?a ?b) => (ewadd ?b ?a)
rule mul-commute: (ewmul ?a ?b) => (ewmul ?b ?a)
rule unfuse-relu: (matmul 2 ?a ?b) => (relu (matmul 0 ?a ?b))
rule transpose-twice: (ewadd ?a ?b) => (ewadd (transpose (transpose ?a [1, 0]) [1, 0]) ?b)
)",
                                                   "zero.rules");
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  GraphBuilder b;
  const TensorRef x = b.input("x", {16, 16});
  const TensorRef product = b.matmul(x, b.weight("w", {16, 16}), Activation::kRelu);
  b.output("p", b.ewmul(b.ewadd(product, b.input("y", {16, 16})), b.input("z", {16, 16})));
  const Graph graph = std::move(b).finish();
  search::OptimizeOptions options = base_options("mcts");
  options.extract = extract::ExtractorKind::kGreedy;
  options.mcts.stop_without_gain = false;
  options.mcts.max_steps = 9;
  options.mcts.rollout_depth = 2;
  const auto committed = [&](search::TieBreak tie_break, std::uint64_t seed) {
    options.mcts.tie_break = tie_break;
    options.mcts.seed = seed;
    const auto result = search::optimize(graph, set, model, options);
    std::vector<std::string> names;
    for (const auto& step : strategy_records::mcts_steps(result)) {
      CHECK(step.mean_value == 0);
      names.push_back(step.rule);
    }
    return names;
  };

  // fair: every rule that changes the e-graph once, cheapest growth first, before any again.
  const auto fair = committed(search::TieBreak::kFair, 7);
  REQUIRE(fair.size() == 9);
  CHECK(std::set<std::string>(fair.begin(), fair.begin() + 5).size() == 5);
  CHECK(fair[0] != "transpose-product");  // it adds more e-nodes than the commutations
  CHECK(fair == committed(search::TieBreak::kFair, 7));

  // visits: the most visited, here one never-saturating rule again and again.
  const auto visits = committed(search::TieBreak::kVisits, 7);
  CHECK(std::set<std::string>(visits.begin(), visits.begin() + 5).size() < 5);

  // random: seeded, so a seed repeats its choices and seeds differ.
  std::set<std::vector<std::string>> sequences;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto random = committed(search::TieBreak::kRandom, seed);
    CHECK(random == committed(search::TieBreak::kRandom, seed));
    sequences.insert(random);
  }
  CHECK(sequences.size() > 1);
}

TEST_CASE("greedy and taso report why they stopped") {
  const dsl::RuleSet set = rules();
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  auto stop = [&](const char* strategy, auto&& tweak) {
    search::OptimizeOptions options = base_options(strategy);
    tweak(options);
    return search::optimize(shared_input_graph(), set, model, options).stop;
  };
  const auto none = [](search::OptimizeOptions&) {};
  CHECK(stop("greedy", none) == search::StopReason::kNoImprovement);
  CHECK(stop("greedy", [](search::OptimizeOptions& o) { o.mcts.max_steps = 1; }) ==
        search::StopReason::kStepLimit);
  CHECK(stop("greedy", [](search::OptimizeOptions& o) { o.mcts.node_limit = 10; }) ==
        search::StopReason::kNodeLimit);
  CHECK(stop("taso", none) == search::StopReason::kQueueEmpty);
  CHECK(stop("taso", [](search::OptimizeOptions& o) { o.taso.budget = 1; }) ==
        search::StopReason::kBudget);
}

TEST_CASE("eqsat reports its stop reason and the rules it used") {
  const dsl::RuleSet set = rules();
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  search::OptimizeOptions options = base_options("eqsat");
  const auto saturated = search::optimize(shared_input_graph(), set, model, options);
  CHECK(saturated.stop == search::StopReason::kSaturated);
  bool shared = false;
  for (const auto& [name, count] : saturated.rules_used)
    shared = shared || (name == "share-input" && count > 0);
  CHECK(shared);
  options.eqsat.iterations = 1;
  CHECK(search::optimize(shared_input_graph(), set, model, options).stop ==
        search::StopReason::kIterationLimit);
  options = base_options("eqsat");
  options.eqsat.node_limit = 10;
  CHECK(search::optimize(shared_input_graph(), set, model, options).stop ==
        search::StopReason::kNodeLimit);
  options = base_options("eqsat");
  options.limits.memory_bytes = 1;
  CHECK(search::optimize(shared_input_graph(), set, model, options).stop ==
        search::StopReason::kMemoryLimit);
}

TEST_CASE("unknown strategies and extractors are clear errors") {
  CHECK_THROWS_WITH_AS(base_options("annealing"),
                       "error: unknown strategy 'annealing' (known: eqsat, mcts, greedy, taso)",
                       Error);
  CHECK_THROWS_WITH_AS(extract::make_extractor("magic"),
                       "error: unknown extractor 'magic' (known: greedy, paper, dag, ilp, beam)",
                       Error);
}
