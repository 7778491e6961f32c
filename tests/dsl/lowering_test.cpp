// Rules written in text, loaded at run time and lowered to rewrites, fire on real graphs: the
// patterns, `where` conditions, TENSAT's inferred split sizes, and a brand-new rule file.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "egraph/runner.hpp"
#include "tensor/egraph_conversion.hpp"
#include "tensor/graph_builder.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;
using namespace mctsat::tensor;
namespace fs = std::filesystem;

namespace {

struct Saturated {
  TensorEGraph egraph;
  egraph::RunReport report;
  std::map<std::string, std::size_t> applied;  // per rule, over all iterations
};

Saturated saturate(const Graph& graph, const dsl::RuleSet& rules, std::size_t iterations = 10) {
  Saturated s{to_egraph(graph), {}, {}};
  egraph::RunnerOptions<TensorAnalysis> options;
  options.limits.iterations = iterations;
  egraph::SimpleScheduler scheduler;
  const auto rewrites = rules.rewrites();
  s.report = egraph::Runner<TensorAnalysis>(options).run(s.egraph.egraph, rewrites, scheduler);
  for (const auto& it : s.report.iterations)
    for (std::size_t r = 0; r < it.rules.size(); ++r)
      s.applied[rewrites[r]->name()] += it.rules[r].apply.applied;
  return s;
}

dsl::RuleSet rules_from(const std::string& text) {
  return test_fixtures::rule_set(text, "inline.rules");
}

// Whether the e-graph holds an e-node with this operator in the class of `ref`.
bool class_has(const TensorEGraph& teg, Id eclass, Op op) {
  for (Id node : teg.egraph.nodes_of(teg.egraph.find(eclass)))
    if (teg.egraph.node(node).op == op_code(op)) return true;
  return false;
}

}  // namespace

TEST_CASE("a brand-new rule file, written at run time, is loaded and fires") {
  const fs::path dir = fs::temp_directory_path() / "mctsat-new-rules";
  fs::create_directories(dir);
  std::ofstream(dir / "fuse.rules") << "ruleset mine\n@tags(fusion)\nrule fuse-matmul-relu:\n"
                                       "  (relu (matmul 0 ?a ?b)) => (matmul 2 ?a ?b)\n";
  const dsl::RuleLibrary library = dsl::load_rules_or_throw({(dir / "fuse.rules").string()});
  const dsl::RuleSet rules(library.rules);
  REQUIRE(rules.size() == 1);

  GraphBuilder b;
  const TensorRef y = b.relu(b.matmul(b.input("x", {4, 8}), b.weight("w", {8, 16})));
  b.output("y", y);
  const Saturated s = saturate(std::move(b).finish(), rules);
  CHECK(s.report.stop == egraph::StopReason::kSaturated);
  CHECK(s.applied.at("fuse-matmul-relu") == 1);
  // The output class now also holds the fused product (matmul with act = 2).
  bool fused = false;
  for (Id node : s.egraph.egraph.nodes_of(s.egraph.egraph.find(s.egraph.roots[0]))) {
    const auto e = s.egraph.egraph.node(node);
    if (e.op == op_code(Op::kMatmul)) fused = s.egraph.egraph.data(e.children[0]).int_value() == 2;
  }
  CHECK(fused);
}

TEST_CASE("literal attributes must match; variables bind attributes") {
  const dsl::RuleSet rules = rules_from(
      "rule only-relu-act: (matmul 2 ?a ?b) => (relu (matmul 0 ?a ?b))\n"
      "rule any-act: (matmul ?act (matmul 0 ?a ?b) ?c) => (matmul ?act ?a (matmul 0 ?b ?c))\n");
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 8});
  const TensorRef inner = b.matmul(x, b.weight("w1", {8, 8}), Activation::kTanh);
  const TensorRef outer =
      b.matmul(b.matmul(x, b.weight("w2", {8, 8})), b.weight("w3", {8, 4}), Activation::kTanh);
  b.output("a", inner);
  b.output("b", outer);
  const Saturated s = saturate(std::move(b).finish(), rules);
  CHECK(s.applied.at("only-relu-act") == 0);  // act is 3 (tanh) everywhere
  CHECK(s.applied.at("any-act") == 1);        // the outer product keeps act 3, the inner is 0
}

TEST_CASE("where conditions over shapes and attributes gate a rule") {
  const dsl::RuleSet rules = rules_from(
      "rule wide-only: (relu ?x) => (relu (relu ?x)) where dim(?x, 1) > 8 and rank(?x) == 2 and "
      "numel(?x) % 2 == 0\n"
      "rule never: (tanh ?x) => (tanh (tanh ?x)) where dim(?x, 5) == 1\n");
  GraphBuilder b;
  b.output("narrow", b.relu(b.input("a", {4, 8})));
  b.output("wide", b.relu(b.input("b", {4, 16})));
  b.output("t", b.tanh(b.input("c", {2, 2})));
  const Saturated s = saturate(std::move(b).finish(), rules, 1);
  CHECK(s.applied.at("wide-only") == 1);
  CHECK(s.applied.at("never") == 0);  // a dimension out of range fails the condition, never crashes
  CHECK(s.report.iterations[0].rules[1].apply.rejected == 1);
}

TEST_CASE("an ill-shaped right-hand side is skipped and counted, never added") {
  const dsl::RuleSet rules = rules_from("rule swap: (matmul 0 ?a ?b) => (matmul 0 ?b ?a)\n");
  GraphBuilder b;
  b.output("y", b.matmul(b.input("x", {4, 8}), b.weight("w", {8, 16})));
  const Saturated s = saturate(std::move(b).finish(), rules);
  CHECK(s.report.iterations[0].rules[0].apply.invalid == 1);
  CHECK(s.applied.at("swap") == 0);
}

TEST_CASE("a right-hand side of another shape than its match is rejected, never merged") {
  // Sound for TASO's non-broadcasting ewadd, not for ours: the right-hand side is well-formed
  // but [2, 3] where the match is [2, 4] (the verifier's shape check finds the same).
  const dsl::RuleSet rules = rules_from(
      "rule unsound: (concat 1 2 (ewadd ?x1 ?x2) (ewadd ?x2 ?x3))\n"
      "  => (ewadd (concat 1 2 ?x1 ?x2) (concat 1 2 ?x2 ?x3))\n"
      "rule guarded: (concat 1 2 (ewadd ?x1 ?x2) (ewadd ?x2 ?x3))\n"
      "  => (ewadd (concat 1 2 ?x1 ?x2) (concat 1 2 ?x2 ?x3))\n"
      "  where same_shape(?x1, ?x2) and same_shape(?x2, ?x3)\n");
  GraphBuilder b;
  const auto x2 = b.input("x2", {2, 1});
  b.output("y",
           b.concat(1, {b.ewadd(b.input("x1", {2, 2}), x2), b.ewadd(x2, b.input("x3", {2, 2}))}));
  const Saturated s = saturate(std::move(b).finish(), rules);
  CHECK(s.report.iterations[0].rules[0].apply.invalid == 1);
  CHECK(s.report.iterations[0].rules[1].apply.rejected == 1);
  CHECK(s.applied.at("unsound") == 0);
  CHECK(s.applied.at("guarded") == 0);

  // The other direction: where the three shapes agree, the guard holds and the rule fires.
  const dsl::RuleSet guarded = rules_from(
      "rule guarded: (concat 1 2 (ewadd ?x1 ?x2) (ewadd ?x2 ?x3))\n"
      "  => (ewadd (concat 1 2 ?x1 ?x2) (concat 1 2 ?x2 ?x3))\n"
      "  where same_shape(?x1, ?x2) and same_shape(?x2, ?x3)\n");
  GraphBuilder same;
  const auto y2 = same.input("y2", {2, 2});
  same.output("y", same.concat(1, {same.ewadd(same.input("y1", {2, 2}), y2),
                                   same.ewadd(y2, same.input("y3", {2, 2}))}));
  const Saturated fired = saturate(std::move(same).finish(), guarded, 1);
  CHECK(fired.applied.at("guarded") == 1);
  CHECK(fired.report.iterations[0].rules[0].apply.rejected == 0);
}

TEST_CASE("TENSAT's two-argument split takes its sizes from the matched roots") {
  const dsl::RuleSet rules = rules_from(
      "rule share-input:\n"
      "  (matmul 0 ?x ?w1), (matmul 0 ?x ?w2)\n"
      "  => (split_0 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2)))),\n"
      "     (split_1 (split 1 (matmul 0 ?x (concat 1 2 ?w1 ?w2))))\n");
  GraphBuilder b;
  const TensorRef x = b.input("x", {4, 8});
  const TensorRef p = b.matmul(x, b.weight("w1", {8, 16}));
  const TensorRef q = b.matmul(x, b.weight("w2", {8, 24}));
  b.output("p", p);
  b.output("q", q);
  const Saturated s = saturate(std::move(b).finish(), rules, 1);
  CHECK(s.applied.at("share-input") == 2);  // (p, q) and (q, p)
  // p's class gained a projection of a split of a 4x40 product into 16 and 24 columns.
  const auto& eg = s.egraph.egraph;
  bool found = false;
  for (Id node : eg.nodes_of(eg.find(s.egraph.roots[0]))) {
    const auto proj = eg.node(node);
    if (proj.op != kProjOp) continue;
    for (Id split_node : eg.nodes_of(eg.find(proj.children[0]))) {
      const auto split = eg.node(split_node);
      if (split.op != op_code(Op::kSplit)) continue;
      const auto sizes = eg.data(split.children[1]).ints();
      const auto input = eg.data(split.children[2]).shape();
      if (std::vector<std::int64_t>(sizes.begin(), sizes.end()) ==
              std::vector<std::int64_t>{16, 24} &&
          std::vector<std::int64_t>(input.begin(), input.end()) == std::vector<std::int64_t>{4, 40})
        found = true;
    }
  }
  CHECK(found);
  CHECK(class_has(s.egraph, s.egraph.roots[1], Op::kMatmul));
}

TEST_CASE("the TASO library lowers: 139 rewrites, 15 of them multi-pattern") {
  const dsl::RuleSet& rules = test_fixtures::taso_rules();
  CHECK(rules.size() == 139);
  std::size_t multi = 0;
  for (std::size_t i = 0; i < rules.size(); ++i) multi += rules.rewrite(i).multi();
  CHECK(multi == 15);
}
