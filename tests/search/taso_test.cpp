// TASO's backtracking search: the alpha relaxation lets it pass through a graph no cheaper than
// the best to reach a cheaper one; right-hand sides that are existing nodes; the same search for
// every thread count; the budget, time, patience and empty-queue stops; TASO's rules on a real
// graph, with the result checked numerically; graph fingerprints.
#include <cmath>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"
#include "search/graph_fingerprint.hpp"
#include "search/taso.hpp"
#include "tensor/device_profile.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph_builder.hpp"
#include "tensor/graph_stats.hpp"
#include "tensor/interpreter.hpp"
#include "tensor/roofline_cost_model.hpp"
#include "tests/search/search_graphs.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;
using namespace mctsat::tensor;
using search_graphs::projections;

namespace {

dsl::RuleSet rules_from(const char* text) {
  return test_fixtures::rule_set(text, "taso.rules");
}

// relu(transpose(relu(x))): moving the outer relu below the transpose costs the same, and then the
// two relus collapse into one.
Graph double_relu() {
  GraphBuilder b;
  const TensorRef x = b.input("x", {16, 64});
  b.output("y", b.relu(b.transpose(b.relu(x), {1, 0})));
  return std::move(b).finish();
}

const char* kReluRules = R"(
rule relu-transpose: (relu (transpose ?x ?p)) => (transpose (relu ?x) ?p)
rule relu-relu: (relu (relu ?x)) => (relu ?x)
)";

}  // namespace

TEST_CASE("taso needs its alpha relaxation to pass a graph that is no cheaper") {
  const dsl::RuleSet rules = rules_from(kReluRules);
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = double_relu();
  search::TasoOptions options;
  search::SearchLimits limits;
  const search::TasoResult relaxed = search::run_taso(graph, rules, model, options, limits);
  CHECK(relaxed.cost < graph_cost(graph, model));
  CHECK(graph_stats(relaxed.graph).by_op.at(Op::kRelu) == 1);
  CHECK(relaxed.applied == std::vector<std::size_t>{0, 1});  // relu-transpose, then relu-relu
  CHECK(relaxed.stop == search::StopReason::kQueueEmpty);
  CHECK(relaxed.explored == 3);  // the input, the neutral step, the collapsed relus
  CHECK(search_graphs::max_difference(graph, relaxed.graph, 9) == 0);

  options.alpha = 1.0;  // only strictly cheaper graphs: the neutral first step is never taken
  const search::TasoResult strict = search::run_taso(graph, rules, model, options, limits);
  CHECK(strict.cost == graph_cost(graph, model));
  CHECK(strict.applied.empty());
  CHECK(strict.explored == 1);
}

TEST_CASE("taso stops at its budget and its time limit") {
  const dsl::RuleSet rules = rules_from(kReluRules);
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  search::TasoOptions options;
  search::SearchLimits limits;
  options.budget = 1;
  const search::TasoResult budget = search::run_taso(double_relu(), rules, model, options, limits);
  CHECK(budget.stop == search::StopReason::kBudget);
  CHECK(budget.explored == 1);
  options.budget = 1000;
  limits.seconds = 0;
  const search::TasoResult timed = search::run_taso(double_relu(), rules, model, options, limits);
  CHECK(timed.stop == search::StopReason::kTimeLimit);
  CHECK(timed.explored == 0);
}

TEST_CASE("taso with TASO's rules improves a graph the same way on 1 and 2 threads") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = projections();
  search::TasoOptions options;
  search::SearchLimits limits;
  options.budget = 40;
  const search::TasoResult one = search::run_taso(graph, rules, model, options, limits);
  CHECK(one.cost < graph_cost(graph, model));
  CHECK(one.cost == doctest::Approx(graph_cost(one.graph, model)));
  CHECK(one.queued > 0);
  CHECK(one.candidates >= one.queued);
  CHECK(search_graphs::max_difference(graph, one.graph, 9) < 1e-9);
  CHECK(one.parallel_cpu_seconds > 0);
  CHECK(one.parallel_cpu_seconds <= one.cpu_seconds);
  // With threads, the queue's top graph is rebuilt beside each expansion and used when popped.
  limits.threads = 2;
  const search::TasoResult two = search::run_taso(graph, rules, model, options, limits);
  CHECK(two.applied == one.applied);
  CHECK(two.cost == one.cost);
  CHECK(two.explored == one.explored);
  CHECK(two.queued == one.queued);
  const TensorEGraph one_state = to_egraph(one.graph), two_state = to_egraph(two.graph);
  CHECK(search::graph_fingerprint(two_state, source_selection(two_state)).hash ==
        search::graph_fingerprint(one_state, source_selection(one_state)).hash);
}

TEST_CASE("taso's patience stops it early and finds the same graph when it exceeds the waits") {
  const dsl::RuleLibrary& library = test_fixtures::taso_library();
  const dsl::RuleSet rules(dsl::select_rules(library, {}));
  const RooflineCostModel& model = test_fixtures::v100_roofline();
  const Graph graph = projections();
  search::TasoOptions options;
  search::SearchLimits limits;
  options.budget = 40;
  const search::TasoResult unbounded = search::run_taso(graph, rules, model, options, limits);
  REQUIRE(unbounded.best_explored > 0);
  REQUIRE(unbounded.best_explored + unbounded.longest_wait + 1 < unbounded.explored);

  // One graph more than the longest wait between two new bests: the same search, cut short.
  options.patience = unbounded.longest_wait + 1;
  const search::TasoResult patient = search::run_taso(graph, rules, model, options, limits);
  CHECK(patient.stop == search::StopReason::kPatience);
  CHECK(patient.explored == unbounded.best_explored + options.patience);
  CHECK(patient.cost == unbounded.cost);
  CHECK(patient.applied == unbounded.applied);
  CHECK(patient.best_explored == unbounded.best_explored);
  CHECK(patient.longest_wait == unbounded.longest_wait);

  // A patience of one graph stops at the first graph that is not a new best.
  options.patience = 1;
  const search::TasoResult hasty = search::run_taso(graph, rules, model, options, limits);
  CHECK(hasty.stop == search::StopReason::kPatience);
  CHECK(hasty.explored == hasty.best_explored + 1);
  CHECK(hasty.longest_wait == 0);
  CHECK(hasty.cost >= unbounded.cost);
}

TEST_CASE("graph fingerprints ignore ids and operator names but not arguments or leaves") {
  auto build = [](bool swap, const char* op_name, const char* input_name) {
    GraphBuilder b;
    const TensorRef x = b.input(input_name, {4, 4});
    const TensorRef w = b.weight("w", {4, 4});
    const TensorRef m = b.matmul(x, w);
    const TensorRef r = b.relu(x);
    b.output("y", swap ? b.ewadd(r, m) : b.ewadd(m, r));
    Graph g = std::move(b).finish();
    g.nodes().back().name = op_name;
    return g;
  };
  auto fingerprint = [](const Graph& g) {
    const TensorEGraph state = to_egraph(g);
    return search::graph_fingerprint(state, source_selection(state));
  };
  const search::GraphFingerprint base = fingerprint(build(false, "a", "x"));
  CHECK(base.operators == 3);
  CHECK(fingerprint(build(false, "b", "x")).hash == base.hash);
  CHECK(fingerprint(build(true, "a", "x")).hash != base.hash);
  CHECK(fingerprint(build(false, "a", "z")).hash != base.hash);
  // The same graph in an e-graph with other ids: built back, converted again.
  const TensorEGraph state = to_egraph(build(false, "a", "x"));
  CHECK(fingerprint(build_graph(state, source_selection(state))).hash == base.hash);
  const TensorEGraph other = to_egraph(projections());
  CHECK(search::graph_fingerprint(other, source_selection(other)).hash != base.hash);
}
