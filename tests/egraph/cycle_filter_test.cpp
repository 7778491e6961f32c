// The cycle pre-check (CycleFilter): levels consistent with the e-graph's edges, reachability
// answers equal to a brute-force search, rewrites that would close cycles (a variable-rooted
// expansion, TENSAT's multi-pattern matmul merge) made cyclic without it and kept acyclic with it,
// and the Runner wiring with the post-iteration pass.
#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "egraph/cycle_filter.hpp"
#include "egraph/cycles.hpp"
#include "egraph/runner.hpp"

using namespace mctsat::egraph;

namespace cycle_filter_test {

constexpr OpCode kLeaf = 0, kF = 1, kG = 2, kH = 3, kMatmul = 4, kConcat = 5, kSplit0 = 6,
                 kSplit1 = 7;

using Rule = Rewrite<NoAnalysis>;

std::vector<const Rule*> pointers(const std::vector<std::unique_ptr<Rule>>& rules) {
  std::vector<const Rule*> out;
  for (const auto& r : rules) out.push_back(r.get());
  return out;
}

// ?x => (f ?x): every class would hold an e-node pointing at itself.
std::unique_ptr<Rule> wrap_rule() {
  Pattern lhs, rhs;
  lhs.var(0);
  rhs.node(kF, 0, {rhs.var(0)});
  return std::make_unique<Rule>("wrap", std::vector{lhs}, std::vector{rhs}, 1);
}

// (g (f ?x)) => ?x: the class of g(f(x)) and x become one, which is cyclic by the rule's meaning.
std::unique_ptr<Rule> collapse_rule() {
  Pattern lhs, rhs;
  lhs.node(kG, 0, {lhs.node(kF, 0, {lhs.var(0)})});
  rhs.var(0);
  return std::make_unique<Rule>("collapse", std::vector{lhs}, std::vector{rhs}, 1);
}

// TENSAT's merge of two matmuls sharing an input:
//   (matmul ?x ?w1), (matmul ?x ?w2) =>
//   (split0 (matmul ?x (concat ?w1 ?w2))), (split1 (matmul ?x (concat ?w1 ?w2)))
// When ?w2 is computed from the first matmul, the merged matmul would consume its own output.
std::unique_ptr<Rule> merge_matmuls_rule() {
  Pattern lhs1, lhs2, rhs1, rhs2;
  lhs1.node(kMatmul, 0, {lhs1.var(0), lhs1.var(1)});
  lhs2.node(kMatmul, 0, {lhs2.var(0), lhs2.var(2)});
  for (auto [rhs, split] : {std::pair{&rhs1, kSplit0}, std::pair{&rhs2, kSplit1}}) {
    const auto concat = rhs->node(kConcat, 0, {rhs->var(1), rhs->var(2)});
    rhs->node(split, 0, {rhs->node(kMatmul, 0, {rhs->var(0), concat})});
  }
  return std::make_unique<Rule>("merge-matmuls", std::vector{lhs1, lhs2}, std::vector{rhs1, rhs2},
                                3);
}

// x, w1, w2 leaves; a = matmul(x, w1), b = matmul(x, a) (w2 = a: a chain), c = matmul(x, w2).
struct MatmulGraph {
  EGraph<NoAnalysis> egraph;
  Id a, b, c;
  MatmulGraph() {
    const Id x = egraph.add(kLeaf, 0), w1 = egraph.add(kLeaf, 1), w2 = egraph.add(kLeaf, 2);
    a = egraph.add(kMatmul, 0, {x, w1});
    b = egraph.add(kMatmul, 0, {x, a});
    c = egraph.add(kMatmul, 0, {x, w2});
    egraph.rebuild();
  }
};

// Whether `to` is reachable from `from` (path length >= 0) through live, non-blacklisted e-nodes.
bool reachable(const EGraph<NoAnalysis>& egraph, Id from, Id to) {
  std::vector<bool> seen(egraph.num_ids(), false);
  std::vector<Id> stack{egraph.find(from)};
  seen[stack.back()] = true;
  while (!stack.empty()) {
    const Id c = stack.back();
    stack.pop_back();
    if (c == egraph.find(to)) return true;
    for (Id n : egraph.nodes_of(c)) {
      if (egraph.blacklisted(n)) continue;
      for (Id child : egraph.node(n).children) {
        const Id k = egraph.find(child);
        if (!seen[k]) {
          seen[k] = true;
          stack.push_back(k);
        }
      }
    }
  }
  return false;
}

// A random e-graph: a DAG of f/g/h e-nodes over leaves, some merges (which may close cycles),
// some blacklisted e-nodes.
EGraph<NoAnalysis> random_egraph(std::mt19937& rng) {
  EGraph<NoAnalysis> egraph;
  std::vector<Id> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(egraph.add(kLeaf, i));
  for (int i = 0; i < 30; ++i) {
    const Id x = ids[rng() % ids.size()], y = ids[rng() % ids.size()];
    ids.push_back(rng() % 2 ? egraph.add(kF + rng() % 2, 0, {x}) : egraph.add(kH, 0, {x, y}));
  }
  for (std::uint32_t i = 0, merges = rng() % 4; i < merges; ++i)
    egraph.merge(ids[rng() % ids.size()], ids[rng() % ids.size()]);
  for (int i = 0; i < 3; ++i) egraph.blacklist(static_cast<Id>(rng() % egraph.num_ids()));
  egraph.rebuild();
  return egraph;
}

TEST_CASE("levels decrease along every edge, strictly between components") {
  std::mt19937 rng(7);
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    const EGraph<NoAnalysis> egraph = random_egraph(rng);
    CycleFilter<NoAnalysis> filter;
    filter.prepare(egraph);
    for (Id c : egraph.classes()) {
      bool leaf = true;
      for (Id n : egraph.nodes_of(c)) {
        if (egraph.blacklisted(n)) continue;
        for (Id child : egraph.node(n).children) {
          leaf = false;
          CHECK(filter.level(c) >= filter.level(child));
          if (filter.component(c) != filter.component(child)) {
            CHECK(filter.level(c) > filter.level(child));
          } else {
            CHECK(reachable(egraph, child, c));  // one component: a cycle through both
          }
        }
      }
      if (leaf) CHECK(filter.level(c) == 0);
    }
  }
}

TEST_CASE("levels are heights on an acyclic e-graph") {
  EGraph<NoAnalysis> egraph;
  const Id a = egraph.add(kLeaf, 0), b = egraph.add(kLeaf, 1);
  const Id fa = egraph.add(kF, 0, {a});
  const Id h = egraph.add(kH, 0, {fa, b});
  const Id g = egraph.add(kG, 0, {h});
  egraph.rebuild();
  CycleFilter<NoAnalysis> filter;
  filter.prepare(egraph);
  CHECK(filter.level(a) == 0);
  CHECK(filter.level(b) == 0);
  CHECK(filter.level(fa) == 1);
  CHECK(filter.level(h) == 2);
  CHECK(filter.level(g) == 3);
  CHECK(filter.children(h).size() == 2);
  // Blacklisted e-nodes are no edges: without f(a), fa's class is a leaf.
  egraph.blacklist(fa);
  filter.prepare(egraph);
  CHECK(filter.level(fa) == 0);
  CHECK(filter.level(g) == 2);
}

TEST_CASE("reachability agrees with a brute-force search") {
  std::mt19937 rng(99);
  std::size_t reached = 0, unreached = 0, cyclic = 0;
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    const EGraph<NoAnalysis> egraph = random_egraph(rng);
    CycleFilter<NoAnalysis> filter;
    filter.prepare(egraph);
    for (Id from : egraph.classes())
      for (Id to : egraph.classes()) {
        const Id f[] = {from}, t[] = {to};
        const bool expected = reachable(egraph, from, to);
        CHECK(filter.reaches(f, t) == expected);
        ++(expected ? reached : unreached);
      }
    cyclic += has_cycle(egraph);
    // Several sources and targets at once, and non-canonical ids.
    const std::vector<Id> sources{0, 1, kNoId}, targets{static_cast<Id>(egraph.num_ids() - 1)};
    const bool expected = reachable(egraph, 0, targets[0]) || reachable(egraph, 1, targets[0]);
    CHECK(filter.reaches(sources, targets) == expected);
  }
  // Both answers, on acyclic and cyclic e-graphs, and most of them without a search.
  CHECK(reached > 1000);
  CHECK(unreached > 1000);
  CHECK(cyclic > 3);
  CHECK(cyclic < 27);
}

TEST_CASE("an expansion rooted at a variable is cyclic without the filter, not with it") {
  const auto rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(wrap_rule());
    return r;
  }();
  const auto ptrs = pointers(rules);
  const std::vector<bool> all{true};
  auto build = [] {
    EGraph<NoAnalysis> egraph;
    egraph.add(kH, 0, {egraph.add(kLeaf, 0), egraph.add(kLeaf, 1)});
    egraph.rebuild();
    return egraph;
  };

  EGraph<NoAnalysis> unfiltered = build();
  Runner<NoAnalysis>().run_iteration(unfiltered, ptrs, all);
  CHECK(has_cycle(unfiltered));

  EGraph<NoAnalysis> filtered = build();
  auto filter = std::make_shared<CycleFilter<NoAnalysis>>();
  RunnerOptions<NoAnalysis> options;
  options.before_apply = [&](const EGraph<NoAnalysis>& g) { filter->prepare(g); };
  options.apply.filter = std::ref(*filter);
  const IterationStats stats = Runner<NoAnalysis>(options).run_iteration(filtered, ptrs, all);
  CHECK_FALSE(has_cycle(filtered));
  CHECK(stats.rules[0].apply.filtered == 3);  // every class: x is its own root
  CHECK(stats.rules[0].apply.applied == 0);
  CHECK(filtered.num_nodes() == 3);
  CHECK(filter->checks() == 3);
}

TEST_CASE("TENSAT's matmul merge is cyclic without the filter, not with it") {
  const auto rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(merge_matmuls_rule());
    return r;
  }();
  const auto ptrs = pointers(rules);
  const std::vector<bool> all{true};

  MatmulGraph unfiltered;
  const IterationStats plain = Runner<NoAnalysis>().run_iteration(unfiltered.egraph, ptrs, all);
  CHECK(plain.rules[0].found == 6);  // ordered pairs of distinct matmuls
  CHECK(has_cycle(unfiltered.egraph));
  CHECK_FALSE(find_cycle(unfiltered.egraph, std::vector<Id>{unfiltered.b}).empty());

  MatmulGraph filtered;
  CycleFilter<NoAnalysis> filter;
  RunnerOptions<NoAnalysis> options;
  options.before_apply = [&](const EGraph<NoAnalysis>& g) { filter.prepare(g); };
  options.apply.filter = std::ref(filter);
  const IterationStats stats =
      Runner<NoAnalysis>(options).run_iteration(filtered.egraph, ptrs, all);
  // (a, b) and (b, a) would feed a into itself; the pairs with c stay.
  CHECK(stats.rules[0].apply.filtered == 2);
  CHECK(stats.rules[0].apply.applied == 4);
  CHECK_FALSE(has_cycle(filtered.egraph));
  CHECK(filter.checks() == 6);
}

TEST_CASE("the filter's fast path answers single-pattern matches without a search") {
  // (f ?x) => (g (g ?x)) on a chain f(f(...)): every variable lies below its root.
  Pattern lhs, rhs;
  lhs.node(kF, 0, {lhs.var(0)});
  rhs.node(kG, 0, {rhs.node(kG, 0, {rhs.var(0)})});
  const Rule rule("grow", std::vector{lhs}, std::vector{rhs}, 1);
  const Rule* ptrs[] = {&rule};
  EGraph<NoAnalysis> egraph;
  Id top = egraph.add(kLeaf, 0);
  for (int i = 0; i < 10; ++i) top = egraph.add(kF, 0, {top});
  RunnerOptions<NoAnalysis> options;
  options.limits.nodes = 1'000'000;
  const auto filter = use_cycle_filtering(options, {top});
  SimpleScheduler scheduler;
  const RunReport report = Runner<NoAnalysis>(options).run(egraph, ptrs, scheduler);
  CHECK(report.stop == StopReason::kSaturated);
  CHECK(filter->checks() == 10);  // one match per f, all in the first iteration
  CHECK(egraph.num_nodes() == 11 + 20);
  CHECK(filter->searches() == 0);
  CHECK(egraph.num_blacklisted() == 0);
  CHECK_FALSE(has_cycle(egraph));
}

TEST_CASE("the Runner wiring keeps the e-graph acyclic and is deterministic") {
  const auto rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(merge_matmuls_rule());
    r.push_back(collapse_rule());
    return r;
  }();
  const auto ptrs = pointers(rules);
  auto run = [&](EGraph<NoAnalysis>& egraph, std::vector<Id> roots) {
    RunnerOptions<NoAnalysis> options;
    options.limits.iterations = 4;
    options.limits.nodes = 100'000;
    options.multi_iterations = 1;
    std::size_t rebuilds = 0;
    const auto filter = use_cycle_filtering(options, std::move(roots));
    const auto remove = options.after_rebuild;
    options.after_rebuild = [&](EGraph<NoAnalysis>& g) {
      ++rebuilds;
      remove(g);
    };
    SimpleScheduler scheduler;
    const RunReport report = Runner<NoAnalysis>(options).run(egraph, ptrs, scheduler);
    CHECK(rebuilds == report.iterations.size());
    CHECK(filter->checks() > 0);
    return report;
  };

  // b and c, plus g(f(a)), which the collapse rule makes cyclic by merging it with a.
  auto build = [](MatmulGraph& graph) {
    const Id gfa = graph.egraph.add(kG, 0, {graph.egraph.add(kF, 0, {graph.a})});
    const Id out = graph.egraph.add(kH, 0, {graph.b, gfa});
    return std::pair{gfa, std::vector<Id>{out, graph.c}};
  };
  MatmulGraph first;
  const auto [gfa, roots] = build(first);
  const RunReport report = run(first.egraph, roots);
  CHECK_FALSE(has_cycle(first.egraph));
  CHECK(first.egraph.blacklisted(gfa));  // the post pass broke the collapse's cycle
  std::size_t filtered = 0;
  for (const auto& it : report.iterations) filtered += it.rules[0].apply.filtered;
  CHECK(filtered == 2);

  MatmulGraph second;
  run(second.egraph, build(second).second);
  CHECK(second.egraph.num_nodes() == first.egraph.num_nodes());
  CHECK(second.egraph.num_classes() == first.egraph.num_classes());
  CHECK(second.egraph.num_blacklisted() == first.egraph.num_blacklisted());
  for (Id n = 0; n < first.egraph.num_ids(); ++n)
    CHECK(second.egraph.blacklisted(n) == first.egraph.blacklisted(n));
}

}  // namespace cycle_filter_test
