// Chain moves (chain_moves.hpp): on a ring of gates sharing merged operators
// pairwise -- NASRNN's shape, where the optimum pays only when every gate of the ring switches --
// single and compound moves stay at the local optimum and chain moves reach the ILP optimum;
// `dag` runs them after its restarts, or alone with ExtractorOptions::dag_chains. They never make
// an extraction worse or invalid, nor beat the brute-force optimum. Their shortcut for tries that
// cannot pay counts what a switching gate's own weight refunds (the ring with the fused operators'
// price moved into such weights).
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "extract/chain_moves.hpp"
#include "extract/extractor.hpp"
#include "extract/local_search.hpp"
#include "problems.hpp"

using namespace mctsat::extract;
using namespace extract_test;

namespace {

// Six gates G0..G5 under one root, all reading one input I (a leaf of cost 0). A gate is either
// one fused operator on I (cost 26) or add(Xi, Hi) (cost 6) of two halves; a half is a plain
// operator on I (cost 16) or a projection (cost 0) of a pair class merging it with another
// gate's half (cost 17, on I). X halves pair gates (0,1), (2,3), (4,5), H halves (1,2), (3,4),
// (5,0): a ring. With the root (cost 1), fused everywhere costs 157; one gate switching alone
// costs 6 + 16 + 16 = 38 > 26 (or 39 through a pair), so every single move and every compound
// move loses; the whole ring switched to pairs costs 1 + 6 * 6 + 6 * 17 = 139, the optimum.
struct Ring {
  Problem problem;
  Choice fused;  // the local optimum
};

// `weight_depth` 1 or 2 moves 22 of a fused operator's 26 into a weight only that gate uses: a
// leaf of cost 22 (depth 1), or a free node over such a leaf (depth 2); the prices are the same,
// but a gate switching away from its fused operator then pays only through the refund of its
// weight (which the chains' shortcut for tries that cannot pay must count).
Ring ring(int weight_depth = 0) {
  constexpr Index kGates = 6;
  ProblemBuilder b;
  const Index input = b.add_class();
  b.add_node(input, 0);
  std::vector<Index> gate(kGates), x(kGates), h(kGates), x_pair(kGates / 2), h_pair(kGates / 2);
  for (Index i = 0; i < kGates; ++i) {
    gate[i] = b.add_class();
    x[i] = b.add_class();
    h[i] = b.add_class();
  }
  for (Index k = 0; k < kGates / 2; ++k) {
    x_pair[k] = b.add_class();
    b.add_node(x_pair[k], 17, {input});
    h_pair[k] = b.add_class();
    b.add_node(h_pair[k], 17, {input});
  }
  Ring r;
  std::vector<Index> fused_nodes(kGates);
  std::vector<std::pair<Index, Index>> weights;  // (class, node) of the weights
  for (Index i = 0; i < kGates; ++i) {
    if (weight_depth == 0) {
      fused_nodes[i] = b.add_node(gate[i], 26, {input});
    } else {
      Index weight = b.add_class();
      weights.emplace_back(weight, b.add_node(weight, 22));
      for (int level = 1; level < weight_depth; ++level) {
        const Index above = b.add_class();
        weights.emplace_back(above, b.add_node(above, 0, {weight}));
        weight = above;
      }
      fused_nodes[i] = b.add_node(gate[i], 4, {input, weight});
    }
    b.add_node(gate[i], 6, {x[i], h[i]});
    b.add_node(x[i], 16, {input});
    b.add_node(x[i], 0, {x_pair[i / 2]});
    b.add_node(h[i], 16, {input});
    b.add_node(h[i], 0, {h_pair[((i + kGates - 1) % kGates) / 2]});
  }
  const Index root = b.add_class();
  b.add_node(root, 1, std::span<const Index>(gate));
  b.add_root(root);
  r.problem = std::move(b).finish();
  r.fused.assign(r.problem.num_classes(), kNone);
  r.fused[input] = r.problem.candidates(input)[0];
  r.fused[root] = r.problem.candidates(root)[0];
  for (Index i = 0; i < kGates; ++i) r.fused[gate[i]] = fused_nodes[i];
  for (const auto& [weight, node] : weights) r.fused[weight] = node;
  return r;
}

}  // namespace

TEST_CASE("chain moves switch a ring of gates that no single or compound move can") {
  const Ring r = ring();
  REQUIRE(dag_cost(r.problem, r.fused) == 157);
  const Result ilp = make_extractor("ilp")->extract(r.problem);
  REQUIRE(ilp.status == Status::kOptimal);
  CHECK(ilp.dag_cost == 139);

  Choice local = r.fused;
  improve_choice(r.problem, local, 64);
  CHECK(dag_cost(r.problem, local) == 157);  // a local optimum of single and compound moves

  Choice chained = r.fused;
  const ImproveStats stats = improve_by_chains(r.problem, chained, 64);
  CHECK(stats.before == 157);
  CHECK(stats.after == 139);
  CHECK(dag_cost(r.problem, chained) == 139);
  CHECK(stats.moves_taken >= 1);

  // `dag` without chain moves stays at the local optimum; with restarts (and then chain moves) or
  // with the chain moves alone (dag_chains, the default) it reaches the optimum.
  ExtractorOptions plain;
  plain.dag_chains = false;
  CHECK(make_extractor("dag", plain)->extract(r.problem).dag_cost == 157);
  ExtractorOptions options;
  options.dag_chains = false;
  options.dag_restarts = 4;
  const Result restarted = make_extractor("dag", options)->extract(r.problem);
  CHECK(restarted.dag_cost == 139);
  ExtractorOptions chains_only;
  const Result chained_dag = make_extractor("dag", chains_only)->extract(r.problem);
  CHECK(chained_dag.dag_cost == 139);
  CHECK(chained_dag.detail.find("chain moves to 139") != std::string::npos);
  chains_only.improve = false;  // the chain moves belong to the improvement phase
  CHECK(make_extractor("dag", chains_only)->extract(r.problem).dag_cost > 139);
}

TEST_CASE("chain moves count what a gate's own weight refunds") {
  // The gate switches of the ring pay only through the refund of the fused operator's weight, so
  // a chain that skipped tries on the price of the nodes alone would stay at 157.
  for (int depth : {1, 2}) {
    INFO("weight depth " << depth);
    const Ring r = ring(depth);
    REQUIRE(dag_cost(r.problem, r.fused) == 157);
    Choice local = r.fused;
    improve_choice(r.problem, local, 64);
    CHECK(dag_cost(r.problem, local) == 157);
    Choice chained = r.fused;
    const ImproveStats stats = improve_by_chains(r.problem, chained, 64);
    CHECK(stats.after == 139);
    CHECK(dag_cost(r.problem, chained) == 139);
    ExtractorOptions chains_only;
    chains_only.dag_chains = true;
    CHECK(make_extractor("dag", chains_only)->extract(r.problem).dag_cost == 139);
  }
}

TEST_CASE("chain moves never make an extraction worse and never beat the brute-force optimum") {
  Random random(77);
  std::size_t feasible = 0, improved = 0;
  for (int round = 0; round < 200; ++round) {
    // Cycles, self-loops and forbidden nodes included.
    const Problem problem = random_problem(random, 3 + random.below(6), round % 3 == 0);
    const double optimum = brute_force_optimum(problem);
    if (std::isinf(optimum)) continue;
    ++feasible;
    INFO("round " << round);
    ExtractorOptions options;
    options.improve = false;  // a poor start leaves the chains something to do
    Choice choice = make_extractor("dag", options)->extract(problem).choice;
    const double before = dag_cost(problem, choice);
    const ImproveStats stats = improve_by_chains(problem, choice, 64);
    const ChoiceCheck check = check_choice(problem, choice);
    REQUIRE(check.valid);
    CHECK(check.cost == doctest::Approx(stats.after));
    CHECK(check.cost <= before);
    CHECK(check.cost >= optimum);
    improved += check.cost < before ? 1 : 0;
  }
  MESSAGE("chain moves improved " << improved << " of " << feasible << " extractions");
  CHECK(feasible > 100);
}

TEST_CASE("chains are seeded only at classes that two or more needed classes can use") {
  // The shared-subgraph problem from the tree-cost extraction (a2, b2; 13): both needed classes
  // A and B can use S, so a chain seeded at S reaches the optimum (11).
  const SharedSubgraph shared = shared_subgraph();
  Choice choice(shared.problem.num_classes(), kNone);
  choice[shared.s] = shared.s1;
  choice[shared.a] = shared.a2;
  choice[shared.b] = shared.b2;
  choice[shared.r] = shared.r1;
  REQUIRE(dag_cost(shared.problem, choice) == 13);
  const ImproveStats both = improve_by_chains(shared.problem, choice, 64);
  CHECK(both.moves_tried > 0);
  CHECK(both.after == 11);

  // The same classes with a root that needs only A: B (outside the extraction, with no parent)
  // cannot use S, so S seeds no chain and nothing is tried.
  ProblemBuilder b;
  const Index s = b.add_class(), a = b.add_class(), other = b.add_class(), r = b.add_class();
  const Index s1 = b.add_node(s, 8);
  b.add_node(a, 1, {s});
  const Index a2 = b.add_node(a, 6);
  b.add_node(other, 1, {s});
  const Index r1 = b.add_node(r, 1, {a});
  b.add_root(r);
  const Problem single = std::move(b).finish();
  Choice only_a(single.num_classes(), kNone);
  only_a[s] = s1;
  only_a[a] = a2;
  only_a[r] = r1;
  const ImproveStats one = improve_by_chains(single, only_a, 64);
  CHECK(one.moves_tried == 0);
  CHECK(one.after == 7);
}
