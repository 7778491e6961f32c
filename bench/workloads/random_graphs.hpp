// Synthetic, seeded workloads for the e-graph micro-benchmarks: random binary trees over shared
// leaves and random DAGs, as lists of terms (children before parents) that can be added to any
// e-graph. The generator is a fixed SplitMix64, so the same seed gives the same graph everywhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "egraph/egraph.hpp"
#include "support/splitmix64.hpp"

namespace workloads {

using mctsat::egraph::Id;
using mctsat::egraph::OpCode;

// Binary operators are 0..kBinaryOps-1; leaves are kLeaf with their index as payload.
inline constexpr OpCode kBinaryOps = 4;
inline constexpr OpCode kLeaf = kBinaryOps;

using Random = mctsat::SplitMix64;  // fixed: the same graph everywhere for a seed

// One term: a leaf, or a binary operator over two earlier terms (indices into the list).
struct Term {
  OpCode op;
  std::int64_t payload;
  std::uint32_t left, right;  // meaningful for binary terms only
};

// `trees` random binary trees, each over the same `leaves` leaf symbols (each leaf used once per
// tree): the leaves come first, then each tree's internal terms, built by joining two random roots
// of a shrinking pool under a random operator.
inline std::vector<Term> random_trees(std::uint32_t leaves, std::uint32_t trees,
                                      std::uint64_t seed) {
  std::vector<Term> terms;
  terms.reserve(leaves + static_cast<std::size_t>(trees) * (leaves - 1));
  for (std::uint32_t i = 0; i < leaves; ++i) terms.push_back({kLeaf, i, 0, 0});
  Random random(seed);
  std::vector<std::uint32_t> pool;
  for (std::uint32_t t = 0; t < trees; ++t) {
    pool.resize(leaves);
    for (std::uint32_t i = 0; i < leaves; ++i) pool[i] = i;
    while (pool.size() > 1) {
      auto take = [&] {
        const std::uint32_t at = random.below(static_cast<std::uint32_t>(pool.size()));
        const std::uint32_t term = pool[at];
        pool[at] = pool.back();
        pool.pop_back();
        return term;
      };
      const std::uint32_t left = take(), right = take();
      pool.push_back(static_cast<std::uint32_t>(terms.size()));
      terms.push_back({random.below(kBinaryOps), 0, left, right});
    }
  }
  return terms;
}

// A random DAG: `leaves` leaf symbols, then binary terms (to `size` terms in all) whose children
// are drawn uniformly from all earlier terms, under a random operator. A few terms repeat an
// earlier one (the e-graph then holds slightly fewer than `size` e-nodes).
inline std::vector<Term> random_dag(std::uint32_t leaves, std::uint32_t size, std::uint64_t seed) {
  std::vector<Term> terms;
  terms.reserve(size);
  for (std::uint32_t i = 0; i < leaves; ++i) terms.push_back({kLeaf, i, 0, 0});
  Random random(seed);
  while (terms.size() < size) {
    const auto earlier = static_cast<std::uint32_t>(terms.size());
    const std::uint32_t left = random.below(earlier), right = random.below(earlier);
    terms.push_back({random.below(kBinaryOps), 0, left, right});
  }
  return terms;
}

// Adds the terms in order; `ids` receives each term's e-class.
template <class Analysis>
void add_terms(mctsat::egraph::EGraph<Analysis>& egraph, const std::vector<Term>& terms,
               std::vector<Id>& ids) {
  ids.resize(terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Term& t = terms[i];
    ids[i] = t.op == kLeaf ? egraph.add(t.op, t.payload)
                           : egraph.add(t.op, t.payload, {ids[t.left], ids[t.right]});
  }
}

}  // namespace workloads
