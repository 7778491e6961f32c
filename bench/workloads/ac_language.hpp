// The language of the associativity/commutativity workload (anchor E1): one binary operator `+`
// and symbol leaves, with the two rules comm-add and assoc-add. Shared by tests and benchmarks.
#pragma once

#include <memory>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"

namespace ac {

using mctsat::egraph::EGraph;
using mctsat::egraph::Id;
using mctsat::egraph::NoAnalysis;
using mctsat::egraph::Pattern;
using mctsat::egraph::Rewrite;

inline constexpr mctsat::egraph::OpCode kAdd = 0, kSymbol = 1;

// (+ x0 (+ x1 (+ ... x{n-1}))): returns the root class.
inline Id right_nested_sum(EGraph<NoAnalysis>& egraph, int n) {
  Id acc = egraph.add(kSymbol, n - 1);
  for (int i = n - 2; i >= 0; --i) acc = egraph.add(kAdd, 0, {egraph.add(kSymbol, i), acc});
  return acc;
}

inline std::vector<std::unique_ptr<Rewrite<NoAnalysis>>> rules() {
  std::vector<std::unique_ptr<Rewrite<NoAnalysis>>> out;
  {  // comm-add: (+ ?a ?b) => (+ ?b ?a)
    Pattern lhs, rhs;
    lhs.node(kAdd, 0, {lhs.var(0), lhs.var(1)});
    rhs.node(kAdd, 0, {rhs.var(1), rhs.var(0)});
    out.push_back(
        std::make_unique<Rewrite<NoAnalysis>>("comm-add", std::vector{lhs}, std::vector{rhs}, 2));
  }
  {  // assoc-add: (+ ?a (+ ?b ?c)) => (+ (+ ?a ?b) ?c)
    Pattern lhs, rhs;
    const auto a = lhs.var(0);
    const auto bc = lhs.node(kAdd, 0, {lhs.var(1), lhs.var(2)});
    lhs.node(kAdd, 0, {a, bc});
    const auto ab = rhs.node(kAdd, 0, {rhs.var(0), rhs.var(1)});
    rhs.node(kAdd, 0, {ab, rhs.var(2)});
    out.push_back(
        std::make_unique<Rewrite<NoAnalysis>>("assoc-add", std::vector{lhs}, std::vector{rhs}, 3));
  }
  return out;
}

}  // namespace ac
