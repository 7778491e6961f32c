// The exact DAG cost and the checks that make a choice an extraction; the problem builders.
#include <cmath>
#include <limits>

#include <doctest/doctest.h>

#include "egraph/analysis.hpp"
#include "egraph/egraph.hpp"
#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"
#include "problems.hpp"
#include "support/error.hpp"

using namespace mctsat;
using namespace mctsat::extract;
using namespace extract_test;

TEST_CASE("a shared subgraph is counted once, however many parents use it") {
  const SharedSubgraph p = shared_subgraph();
  Choice choice(p.problem.num_classes(), kNone);
  choice[p.r] = p.r1;
  choice[p.a] = p.a1;
  choice[p.b] = p.b1;
  choice[p.s] = p.s1;
  CHECK(dag_cost(p.problem, choice) == 1 + 1 + 1 + 8);
  choice[p.a] = p.a2;
  choice[p.b] = p.b2;
  CHECK(dag_cost(p.problem, choice) == 1 + 6 + 6);  // S is not needed any more
  const ChoiceCheck check = check_choice(p.problem, choice);
  REQUIRE(check.valid);
  CHECK(check.order == std::vector<Index>{p.a, p.b, p.r});  // children first
  const Choice needed = needed_choice(p.problem, choice, p.problem.roots());
  CHECK(needed[p.s] == kNone);
  CHECK(needed[p.r] == p.r1);
}

TEST_CASE("several roots share their common part") {
  ProblemBuilder builder;
  const Index s = builder.add_class(), r1 = builder.add_class(), r2 = builder.add_class();
  const Index s_node = builder.add_node(s, 5);
  const Index f = builder.add_node(r1, 1, {s});
  const Index g = builder.add_node(r2, 2, {s, s});
  builder.add_root(r1);
  builder.add_root(r2);
  builder.add_root(r1);  // once only
  const Problem problem = std::move(builder).finish();
  CHECK(problem.roots().size() == 2);
  CHECK(problem.children(g).size() == 2);
  CHECK(problem.unique_children(g).size() == 1);
  Choice choice{s_node, f, g};
  CHECK(dag_cost(problem, choice) == 8);
  const Index only_r2[] = {r2};
  CHECK(dag_cost(problem, choice, only_r2) == 7);
}

TEST_CASE("a cyclic choice is rejected") {
  const MutualCycle p = mutual_cycle();
  Choice choice(p.problem.num_classes(), kNone);
  choice[p.r] = p.r1;
  choice[p.x] = p.x1;
  choice[p.y] = p.y1;
  const ChoiceCheck check = check_choice(p.problem, choice);
  CHECK_FALSE(check.valid);
  CHECK(check.error.find("cyclic") != std::string::npos);
  CHECK_THROWS_AS(dag_cost(p.problem, choice), InvalidChoice);
  choice[p.y] = p.y2;
  CHECK(dag_cost(p.problem, choice) == 1 + 1 + 10);
}

TEST_CASE("incomplete, misplaced and forbidden choices are rejected") {
  ProblemBuilder builder;
  const Index a = builder.add_class(), r = builder.add_class();
  const Index leaf = builder.add_node(a, 3);
  const Index banned = builder.add_node(a, 1, {}, /*forbidden=*/true);
  const Index infinite = builder.add_node(a, std::numeric_limits<double>::infinity());
  const Index top = builder.add_node(r, 1, {a});
  builder.add_root(r);
  const Problem problem = std::move(builder).finish();
  CHECK(problem.forbidden(banned));
  CHECK(problem.forbidden(infinite));  // infinite cost: never extractable
  CHECK(problem.candidates(a).size() == 1);
  CHECK(problem.nodes(a).size() == 3);
  CHECK(problem.parents(a).size() == 1);

  Choice choice{kNone, top};
  CHECK(check_choice(problem, choice).error.find("no chosen node") != std::string::npos);
  choice[a] = top;  // a node of another class
  CHECK(check_choice(problem, choice).error.find("not one of its nodes") != std::string::npos);
  choice[a] = banned;
  CHECK(check_choice(problem, choice).error.find("forbidden") != std::string::npos);
  CHECK_THROWS_AS(dag_cost(problem, choice), InvalidChoice);
  choice[a] = leaf;
  CHECK(dag_cost(problem, choice) == 4);
  CHECK_FALSE(check_choice(problem, Choice{leaf}).valid);  // wrong size
}

TEST_CASE("problem building rejects bad input with mctsat::Error") {
  ProblemBuilder builder;
  const Index a = builder.add_class();
  CHECK_THROWS_AS(builder.add_node(a, -1), Error);
  CHECK_THROWS_AS(builder.add_node(a, std::nan("")), Error);
  CHECK_THROWS_AS(builder.add_node(a, 1, {7}), Error);
  CHECK_THROWS_AS(builder.add_node(3, 1), Error);
  CHECK_THROWS_AS(builder.add_root(2), Error);
}

TEST_CASE(
    "an e-graph becomes a problem of its reachable classes; blacklisted e-nodes are "
    "forbidden") {
  egraph::EGraph<egraph::NoAnalysis> g;
  const Id x = g.add(0, 1), y = g.add(0, 2);
  const Id fx = g.add(1, 0, {x});
  const Id gy = g.add(2, 0, {y});
  g.merge(fx, gy);
  const Id unrelated = g.add(3, 0, {x});
  const Id root = g.add(4, 0, {fx, fx});
  g.rebuild();
  g.blacklist(gy);
  const Id roots[] = {root};
  const Problem problem = problem_from_egraph(g, roots, [](Id node) { return 1.0 + node; });
  CHECK(problem.num_classes() == 4);  // x, y, {fx, gy}, root; not `unrelated`
  CHECK(problem.num_nodes() == 5);
  REQUIRE(problem.roots().size() == 1);
  const Index r = problem.roots()[0];
  CHECK(problem.class_source(r) == g.find(root));
  std::size_t forbidden = 0;
  for (Index node = 0; node < problem.num_nodes(); ++node) {
    CHECK(problem.node_cost(node) == 1.0 + problem.node_source(node));
    CHECK(problem.node_source(node) != unrelated);
    if (problem.forbidden(node)) {
      ++forbidden;
      CHECK(problem.node_source(node) == gy);
    }
  }
  CHECK(forbidden == 1);
  // The root's e-node (f f) has one child class, twice.
  const Index root_node = problem.candidates(r)[0];
  CHECK(problem.children(root_node).size() == 2);
  CHECK(problem.unique_children(root_node).size() == 1);
}
