// The four extractors on hand-made problems: sharing, cycles, blacklisted nodes, several roots,
// trees, infeasible problems; the paper's OCF values computed by hand; the factory.
#include <cmath>

#include <doctest/doctest.h>

#include "extract/extractor.hpp"
#include "extract/greedy_extractor.hpp"
#include "extract/paper_extractor.hpp"
#include "problems.hpp"
#include "support/error.hpp"

using namespace mctsat;
using namespace mctsat::extract;
using namespace extract_test;

namespace {

Result run(std::string_view name, const Problem& problem) {
  return make_extractor(name)->extract(problem);
}

// Leaf S (8); A = g(S, V), B = h(S, V) with leaf V (5), both cost 1; R = p(A, B) cost 1. Only one
// node per class: every extractor returns the same DAG (cost 16), but the estimates differ.
Problem double_overlap() {
  ProblemBuilder builder;
  const Index s = builder.add_class(), v = builder.add_class(), a = builder.add_class(),
              b = builder.add_class(), r = builder.add_class();
  builder.add_node(s, 8);
  builder.add_node(v, 5);
  builder.add_node(a, 1, {s, v});
  builder.add_node(b, 1, {s, v});
  builder.add_node(r, 1, {a, b});
  builder.add_root(r);
  return std::move(builder).finish();
}

}  // namespace

TEST_CASE("greedy double-counts a shared subgraph; dag and ilp find the optimum") {
  const SharedSubgraph p = shared_subgraph();
  const Result greedy = run("greedy", p.problem);
  CHECK(greedy.status == Status::kHeuristic);
  CHECK(greedy.dag_cost == 13);  // r1 + a2 + b2
  CHECK(greedy.estimate == 13);  // tree cost of the root
  CHECK(greedy.choice[p.a] == p.a2);
  CHECK(greedy.choice[p.s] == kNone);  // not needed

  for (const char* name : {"dag", "ilp"}) {
    INFO(name);
    const Result result = run(name, p.problem);
    CHECK(result.dag_cost == 11);  // r1 + a1 + b1 + s1
    CHECK(result.choice[p.a] == p.a1);
    CHECK(result.choice[p.b] == p.b1);
    CHECK(result.choice[p.s] == p.s1);
  }
  const Result ilp = run("ilp", p.problem);
  CHECK(ilp.status == Status::kOptimal);
  CHECK(ilp.gap == doctest::Approx(0));
}

TEST_CASE("the paper's OCF on small cases, computed by hand") {
  SUBCASE("two children over one shared class") {
    // S (8); A = g(S), B = h(S) (1 each); R = p(A, B) (1). A and B are 9 each with histories
    // {S: 8, A: 9} and {S: 8, B: 9}; for R, A counts 9, B adds max(9 - 8, 0) = 1: R = 11.
    ProblemBuilder builder;
    const Index s = builder.add_class(), a = builder.add_class(), b = builder.add_class(),
                r = builder.add_class();
    builder.add_node(s, 8);
    builder.add_node(a, 1, {s});
    builder.add_node(b, 1, {s});
    builder.add_node(r, 1, {a, b});
    builder.add_root(r);
    const Problem problem = std::move(builder).finish();
    const OcfValues ocf = ocf_values(problem);
    CHECK(ocf.value[a] == 9);
    CHECK(ocf.value[r] == 11);
    const std::vector<std::pair<Index, double>> history{{s, 8}, {a, 9}, {b, 9}, {r, 11}};
    CHECK(ocf.history[r] == history);
    CHECK(tree_costs(problem).cost[r] == 19);
  }
  SUBCASE("a later child already in the history adds nothing") {
    // R = p(A, S) with A = g(S): A = 9 with {S, A}; S is in it, so R = 1 + 9 = 10.
    ProblemBuilder builder;
    const Index s = builder.add_class(), a = builder.add_class(), r = builder.add_class();
    builder.add_node(s, 8);
    builder.add_node(a, 1, {s});
    builder.add_node(r, 1, {a, s});
    builder.add_root(r);
    const Problem problem = std::move(builder).finish();
    CHECK(ocf_values(problem).value[r] == 10);
    CHECK(tree_costs(problem).cost[r] == 18);
  }
  SUBCASE("only the largest overlap is subtracted") {
    // A = g(S, V) = 1 + 8 + 5 = 14, B likewise; for R, B overlaps A's history in S (8) and V (5)
    // and adds 14 - 8 = 6: R = 1 + 14 + 6 = 21, while the exact DAG costs 16 and the tree 29.
    const Problem problem = double_overlap();
    const Index r = problem.roots()[0];
    CHECK(ocf_values(problem).value[r] == 21);
    const Result paper = run("paper", problem);
    CHECK(paper.estimate == 21);
    CHECK(paper.dag_cost == 16);
    const Result greedy = run("greedy", problem);
    CHECK(greedy.estimate == 29);
    CHECK(greedy.dag_cost == 16);
  }
  SUBCASE("OCF prefers the shared subgraph where tree costs do not") {
    // R has r1 = p(A, B) over a shared S (OCF 11, tree 19) and a leaf r2 of cost 15.
    ProblemBuilder builder;
    const Index s = builder.add_class(), a = builder.add_class(), b = builder.add_class(),
                r = builder.add_class();
    builder.add_node(s, 8);
    builder.add_node(a, 1, {s});
    builder.add_node(b, 1, {s});
    const Index r1 = builder.add_node(r, 1, {a, b});
    const Index r2 = builder.add_node(r, 15);
    builder.add_root(r);
    const Problem problem = std::move(builder).finish();
    const Result paper = run("paper", problem);
    CHECK(paper.choice[r] == r1);
    CHECK(paper.dag_cost == 11);
    const Result greedy = run("greedy", problem);
    CHECK(greedy.choice[r] == r2);
    CHECK(greedy.dag_cost == 15);
  }
}

TEST_CASE("cycles are avoided by every extractor") {
  const MutualCycle p = mutual_cycle();
  for (const std::string& name : extractor_names()) {
    INFO(name);
    const Result result = run(name, p.problem);
    REQUIRE(result.status != Status::kInfeasible);
    CHECK(check_choice(p.problem, result.choice).valid);
    if (name == "greedy" || name == "paper") {
      CHECK(result.dag_cost == 21);  // both leaves
    } else {
      CHECK(result.dag_cost == 12);  // one pointer, one leaf
    }
  }
  // Without cuts the ILP relaxation would take both pointers (cost 3).
  const Result ilp = run("ilp", p.problem);
  CHECK(ilp.cuts >= 1);
  CHECK(ilp.status == Status::kOptimal);
}

TEST_CASE("a node that is its own class's only way is no way: infeasible") {
  ProblemBuilder builder;
  const Index a = builder.add_class(), r = builder.add_class();
  builder.add_node(a, 1, {a});
  builder.add_node(a, 0, {}, /*forbidden=*/true);
  builder.add_node(r, 1, {a});
  builder.add_root(r);
  const Problem problem = std::move(builder).finish();
  for (const std::string& name : extractor_names()) {
    INFO(name);
    const Result result = run(name, problem);
    CHECK(result.status == Status::kInfeasible);
    CHECK(std::isinf(result.dag_cost));
    CHECK(result.choice.empty());
  }
}

TEST_CASE("blacklisted (forbidden) nodes are never chosen") {
  Random random(7);
  for (int round = 0; round < 40; ++round) {
    const Problem problem = random_problem(random, 6, /*forbid=*/true);
    for (const std::string& name : extractor_names()) {
      INFO(name << " round " << round);
      const Result result = run(name, problem);
      if (result.status == Status::kInfeasible) continue;
      for (Index node : result.choice)
        if (node != kNone) CHECK_FALSE(problem.forbidden(node));
    }
  }
  // The cheapest node forbidden: the next one is taken.
  ProblemBuilder builder;
  const Index a = builder.add_class();
  builder.add_node(a, 1, {}, /*forbidden=*/true);
  const Index allowed = builder.add_node(a, 2);
  builder.add_root(a);
  const Problem problem = std::move(builder).finish();
  for (const std::string& name : extractor_names()) CHECK(run(name, problem).choice[a] == allowed);
}

TEST_CASE("several roots: the extraction covers them all and shares their common part") {
  ProblemBuilder builder;
  const Index s = builder.add_class(), r1 = builder.add_class(), r2 = builder.add_class();
  builder.add_node(s, 10);
  builder.add_node(s, 12);
  builder.add_node(r1, 1, {s});
  builder.add_node(r1, 9);
  builder.add_node(r2, 1, {s});
  builder.add_node(r2, 9);
  builder.add_root(r1);
  builder.add_root(r2);
  const Problem problem = std::move(builder).finish();
  // Tree costs: 11 > 9 for each root, so greedy takes both leaves (18); sharing S costs 12.
  CHECK(run("greedy", problem).dag_cost == 18);
  CHECK(run("dag", problem).dag_cost == 12);
  CHECK(run("ilp", problem).dag_cost == 12);
}

TEST_CASE("all extractors agree on trees") {
  // Tree-shaped problems: every class is the child of nodes of one parent class only, so every
  // extraction is a tree and the tree-cost optimum is the DAG optimum.
  Random random(11);
  for (int round = 0; round < 30; ++round) {
    ProblemBuilder builder;
    const Index classes = 12;
    for (Index c = 0; c < classes; ++c) builder.add_class();
    // Class c's nodes draw children among classes 2c+1 and 2c+2 (when they exist).
    for (Index c = 0; c < classes; ++c) {
      const std::uint32_t nodes = 1 + random.below(3);
      for (std::uint32_t n = 0; n < nodes; ++n) {
        std::vector<Index> children;
        for (Index k : {2 * c + 1, 2 * c + 2})
          if (k < classes && random.below(2) == 0) children.push_back(k);
        builder.add_node(c, 1 + random.below(20), children);
      }
    }
    builder.add_root(0);
    const Problem problem = std::move(builder).finish();
    const double expected = run("greedy", problem).dag_cost;
    for (const std::string& name : extractor_names()) {
      INFO(name << " round " << round);
      CHECK(run(name, problem).dag_cost == expected);
    }
  }
}

TEST_CASE("results are deterministic") {
  Random random(3);
  for (int round = 0; round < 10; ++round) {
    const Problem problem = random_problem(random, 8);
    for (const std::string& name : extractor_names()) {
      const Result first = run(name, problem), second = run(name, problem);
      CHECK(first.choice == second.choice);
    }
  }
}

TEST_CASE("the factory knows five extractors and names the known ones for an unknown name") {
  CHECK(extractor_names() == std::vector<std::string>{"greedy", "paper", "dag", "ilp", "beam"});
  for (const std::string& name : extractor_names()) CHECK(make_extractor(name)->name() == name);
  try {
    make_extractor("optimal");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("unknown extractor 'optimal'") != std::string::npos);
    CHECK(std::string(e.what()).find("greedy, paper, dag, ilp, beam") != std::string::npos);
  }
  CHECK(status_name(Status::kTimeLimit) == "time limit");
}
