// Hand-made and random extraction problems for the extraction tests, and a brute-force optimum.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "extract/dag_cost.hpp"
#include "extract/problem.hpp"
#include "support/splitmix64.hpp"

namespace extract_test {

using mctsat::extract::Choice;
using mctsat::extract::Index;
using mctsat::extract::kNone;
using mctsat::extract::Problem;
using mctsat::extract::ProblemBuilder;

// A subgraph S (cost 8) that two classes A and B can both use (a1 = g(S), b1 = h(S), cost 1
// each) or avoid (leaves a2, b2 of cost 6); the root R = p(A, B) costs 1. Tree costs make a1 and
// b1 look like 9 > 6, so the tree-cost greedy takes a2, b2 (DAG cost 13); sharing S gives 11.
struct SharedSubgraph {
  Problem problem;
  Index s, a, b, r;              // classes
  Index s1, a1, a2, b1, b2, r1;  // nodes
};
inline SharedSubgraph shared_subgraph() {
  ProblemBuilder builder;
  SharedSubgraph p{};
  p.s = builder.add_class();
  p.a = builder.add_class();
  p.b = builder.add_class();
  p.r = builder.add_class();
  p.s1 = builder.add_node(p.s, 8);
  p.a1 = builder.add_node(p.a, 1, {p.s});
  p.a2 = builder.add_node(p.a, 6);
  p.b1 = builder.add_node(p.b, 1, {p.s});
  p.b2 = builder.add_node(p.b, 6);
  p.r1 = builder.add_node(p.r, 1, {p.a, p.b});
  builder.add_root(p.r);
  p.problem = std::move(builder).finish();
  return p;
}

// Two classes that can each be a leaf (cost 10) or point at the other (cost 1): choosing both
// pointers is a cycle. The root R = h(X, Y) costs 1. Optimum: one pointer, one leaf = 12.
struct MutualCycle {
  Problem problem;
  Index x, y, r;
  Index x1, x2, y1, y2, r1;
};
inline MutualCycle mutual_cycle() {
  ProblemBuilder builder;
  MutualCycle p{};
  p.x = builder.add_class();
  p.y = builder.add_class();
  p.r = builder.add_class();
  p.x1 = builder.add_node(p.x, 1, {p.y});
  p.x2 = builder.add_node(p.x, 10);
  p.y1 = builder.add_node(p.y, 1, {p.x});
  p.y2 = builder.add_node(p.y, 10);
  p.r1 = builder.add_node(p.r, 1, {p.x, p.y});
  builder.add_root(p.r);
  p.problem = std::move(builder).finish();
  return p;
}

// The tests' generator: SplitMix64 with bounded draws by remainder (the sequences the tests'
// expected values were recorded with).
struct Random : mctsat::SplitMix64 {
  using SplitMix64::SplitMix64;
  std::uint32_t below(std::uint32_t bound) { return modulo(bound); }
};

// A random problem: `classes` classes with 1..3 nodes each, integer costs 1..9, children drawn
// from all classes (cycles and self-loops possible; about a third of the nodes are leaves), one or
// two roots. With `forbid`, some nodes are forbidden.
inline Problem random_problem(Random& random, Index classes, bool forbid = false) {
  ProblemBuilder builder;
  for (Index c = 0; c < classes; ++c) builder.add_class();
  std::vector<Index> children;
  for (Index c = 0; c < classes; ++c) {
    const std::uint32_t nodes = 1 + random.below(3);
    for (std::uint32_t n = 0; n < nodes; ++n) {
      children.clear();
      const std::uint32_t arity = random.below(3) == 0 ? 0 : 1 + random.below(3);
      for (std::uint32_t i = 0; i < arity; ++i) children.push_back(random.below(classes));
      const bool forbidden = forbid && random.below(6) == 0;
      builder.add_node(c, 1 + random.below(9), children, forbidden);
    }
  }
  builder.add_root(0);
  if (random.below(2) == 0) builder.add_root(1 + random.below(classes - 1));
  return std::move(builder).finish();
}

// A random e-graph shaped like a saturated tensor graph, drawn exactly as the extraction study's
// random e-graphs (bench/micro/extraction_benchmark.cpp; bench/workloads/random_graphs.hpp's
// generator): `leaves` leaf classes (one node each), then classes of 1..4 alternative nodes with
// 1..3 children among the `window` classes before them, costs 1..100; the last class is the root.
// window_problem(200, 1) is the study's `random200`.
inline Problem window_problem(Index classes, std::uint64_t seed, Index leaves = 32,
                              Index window = 32) {
  mctsat::SplitMix64 random(seed);
  auto below = [&random](std::uint32_t bound) { return random.below(bound); };
  ProblemBuilder builder;
  for (Index c = 0; c < classes; ++c) builder.add_class();
  std::vector<Index> children;
  for (Index c = 0; c < classes; ++c) {
    const std::uint32_t nodes = c < leaves ? 1 : 1 + below(4);
    for (std::uint32_t n = 0; n < nodes; ++n) {
      children.clear();
      const std::uint32_t arity = c < leaves ? 0 : 1 + below(3);
      for (std::uint32_t i = 0; i < arity; ++i)
        children.push_back(c - 1 - below(c < window ? c : window));
      builder.add_node(c, 1 + below(100), children);
    }
  }
  builder.add_root(classes - 1);
  return std::move(builder).finish();
}

// The optimum over every choice of one candidate per class (infinity when none is valid).
inline double brute_force_optimum(const Problem& problem) {
  const std::size_t classes = problem.num_classes();
  Choice choice(classes, kNone);
  std::vector<std::size_t> at(classes, 0);
  for (Index c = 0; c < classes; ++c)
    if (!problem.candidates(c).empty()) choice[c] = problem.candidates(c)[0];
  double best = std::numeric_limits<double>::infinity();
  for (;;) {
    const mctsat::extract::ChoiceCheck check = mctsat::extract::check_choice(problem, choice);
    if (check.valid && check.cost < best) best = check.cost;
    Index c = 0;
    for (; c < classes; ++c) {
      const auto candidates = problem.candidates(c);
      if (candidates.empty()) continue;
      if (++at[c] < candidates.size()) {
        choice[c] = candidates[at[c]];
        break;
      }
      at[c] = 0;
      choice[c] = candidates[0];
    }
    if (c == classes) break;
  }
  return best;
}

}  // namespace extract_test
