// Rule synthesis end to end on tiny operator sets: the expected laws come out (commutativity and
// associativity of ewadd, transpose involution, relu idempotence), every written rule survives a
// fresh numeric test, and a candidate that fingerprints equal only because the inputs were too
// few and too narrow is rejected by the verifier with a counterexample; pairs of graphs give
// two-output rules (TASO's `(relu ?x), (relu ?y)` merge) beyond the enumerated size; condition
// minimisation keeps the atoms a rule needs; merge gives TASO's grouped-convolution law; a rule
// the final test refutes is kept under the condition it needs.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "synth/candidate_verification.hpp"
#include "synth/synthesizer.hpp"
#include "tests/verify/rule_equations.hpp"
#include "verify/numeric_check.hpp"
#include "verify/rule_derivation.hpp"

using namespace mctsat;
using namespace mctsat::verify;
using namespace mctsat::synth;

namespace {

SynthesisOptions small_options() {
  SynthesisOptions o;
  o.max_ops = 2;
  o.fingerprint.jobs = 2;
  return o;
}

}  // namespace

TEST_CASE("synthesis finds the laws of ewadd, transpose and relu, and only sound rules") {
  const auto vocabulary =
      make_vocabulary({"ewadd,relu,transpose"}, {"x:n,n", "y:n,n", "z:n,n"}, {"n=2,3"});
  const SynthesisReport report = synthesize(vocabulary, {}, small_options());
  INFO(report.text);
  REQUIRE(!report.rules.empty());
  const dsl::RuleLibrary synthesized = testing::rule_library(report.text);
  CHECK(synthesized.rules.size() >= report.rules.size());
  for (const auto& rule : synthesized.rules) {
    CHECK(std::find(rule.tags.begin(), rule.tags.end(), "synthesized") != rule.tags.end());
    NumericCheckOptions numeric;
    numeric.samples = 6;
    numeric.seed = 12345;
    const CheckResult result = check_numeric(equation_of(rule), numeric);
    CAPTURE(rule.name);
    CHECK_MESSAGE(result.verdict == Verdict::kPass, result.detail);
  }
  // Each law follows from the synthesized rules (whatever their orientation and names).
  const dsl::RuleSet rules(synthesized.rules);
  const dsl::RuleLibrary laws = testing::rule_library(R"(
    rule ewadd-comm: (ewadd ?a ?b) => (ewadd ?b ?a)
    rule ewadd-assoc: (ewadd ?a (ewadd ?b ?c)) => (ewadd (ewadd ?a ?b) ?c)
    rule transpose-involution: (transpose (transpose ?a [1, 0]) [1, 0]) => ?a
    rule relu-idempotent: (relu (relu ?a)) => (relu ?a)
  )");
  for (const auto& law : laws.rules) {
    CAPTURE(law.name);
    const Equation e = equation_of(law);
    Binding binding;
    binding.values.assign(e.vars.size(), {3, 3});
    CHECK(derivable(e, binding, rules, {}));
  }
  // Nothing is derivable from nothing but what hash-consing shows.
  const Equation comm = equation_of(laws.rules[0]);
  CHECK_FALSE(derivable(comm, Binding{{{2, 2}, {2, 2}}}, dsl::RuleSet({}), {}));
  CHECK(report.derivable > 0);  // the minimisation dropped consequences
}

TEST_CASE("a candidate equal on too few, too narrow inputs is rejected with a counterexample") {
  const auto vocabulary = make_vocabulary({"relu,ewmul"}, {"x:n"}, {"n=2"});
  SynthesisOptions options = small_options();
  options.max_ops = 1;
  options.fingerprint.integer_sets = 1;
  options.fingerprint.real_sets = 0;
  options.fingerprint.integer_min = 0;  // on {0, 1}: relu x = x and x * x = x
  options.fingerprint.integer_max = 1;
  const SynthesisReport report = synthesize(vocabulary, {}, options);
  INFO(report.text);
  bool relu_rejected = false, square_rejected = false;
  for (const auto& r : report.rejected) {
    CAPTURE(r.rule);
    CAPTURE(r.reason);
    relu_rejected |= r.rule == "(relu ?x) => ?x";
    square_rejected |= r.rule == "(ewmul ?x ?x) => ?x";
    CHECK(r.reason.find("the sides differ") != std::string::npos);
  }
  CHECK(relu_rejected);
  CHECK(square_rejected);
  CHECK(report.rules.empty());
}

TEST_CASE("pairs of graphs give concat and two-output rules beyond the enumerated size") {
  // One operator per side: (concat 0 2 (relu ?x) (relu ?y)) has three, so only the pairs of
  // one-operator graphs propose it, and the merge (relu ?x), (relu ?y) => one relu and a split.
  const auto vocabulary = make_vocabulary({"relu,concat"}, {"x:n,n", "y:n,n"}, {"n=2,3"});
  SynthesisOptions options = small_options();
  options.max_ops = 1;
  auto has = [](const SynthesisReport& report, const std::string& lhs, const std::string& rhs) {
    return std::any_of(report.rules.begin(), report.rules.end(),
                       [&](const WrittenRule& r) { return r.lhs == lhs && r.rhs == rhs; });
  };
  const std::string merged =
      "(split_0 (split 0 (relu (concat 0 2 ?x ?y)))), (split_1 (split 0 (relu (concat 0 2 ?x "
      "?y))))";
  const SynthesisReport with_pairs = synthesize(vocabulary, {}, options);
  INFO(with_pairs.text);
  CHECK(with_pairs.pair_candidates > 0);
  CHECK(has(with_pairs, "(concat 0 2 (relu ?x) (relu ?y))", "(relu (concat 0 2 ?x ?y))"));
  CHECK(has(with_pairs, "(relu ?x), (relu ?y)", merged));
  CHECK(with_pairs.merges >= 2);  // axes 0 and 1
  CHECK(testing::rule_library(with_pairs.text).rules.size() >= with_pairs.rules.size());

  options.pairs = false;
  const SynthesisReport without = synthesize(vocabulary, {}, options);
  CHECK(without.pair_candidates == 0);
  CHECK_FALSE(has(without, "(relu ?x), (relu ?y)", merged));
}

TEST_CASE("the final test with more samples keeps sound rules and says so in the header") {
  const auto vocabulary = make_vocabulary({"ewadd"}, {"x:n", "y:n"}, {"n=2,3"});
  SynthesisOptions options = small_options();
  const SynthesisReport plain = synthesize(vocabulary, {}, options);
  options.final_samples = 6;
  const SynthesisReport strict = synthesize(vocabulary, {}, options);
  REQUIRE(!plain.rules.empty());
  CHECK(strict.rules.size() == plain.rules.size());
  CHECK(strict.rejected.size() == plain.rejected.size());
  CHECK(strict.text.find("then 6 more") != std::string::npos);
  CHECK(plain.text.find("then 6 more") == std::string::npos);
}

TEST_CASE("minimising a condition keeps only the atoms the rule needs") {
  // VALID and SAME padding agree for 1x1 kernels: of the conditions read from declared shapes
  // x:b,c,h,h y:c,c,1,1 only the kernel's size matters.
  WrittenRule rule;
  rule.name = "valid-same";
  rule.lhs = "(conv2d 1 1 1 0 ?x ?y)";
  rule.rhs = "(conv2d 1 1 0 0 ?x ?y)";
  const std::vector<std::string> atoms = {"dim(?x, 2) == dim(?x, 3)", "dim(?x, 1) == dim(?y, 0)",
                                          "dim(?x, 1) == dim(?y, 1)", "dim(?y, 2) == 1",
                                          "dim(?y, 3) == 1"};
  VerifyOptions options;
  options.jobs = 2;
  const auto kept = minimal_condition(rule, atoms, options);
  CHECK(kept == std::vector<std::string>{"dim(?y, 2) == 1", "dim(?y, 3) == 1"});
}

TEST_CASE("merge is enumerated and gives TASO's grouped-convolution law") {
  // A grouped kernel ?g (c=4, k=1: four groups; c=6, k=3: two): a convolution with it is one with
  // pairs of its groups merged, where the kernel has as many output channels as the input has.
  const auto vocabulary = make_vocabulary({"conv2d,merge"}, {"x:b,c,h,h", "g:c,k,3,3"},
                                          {"b=1", "c=4,6", "k=1,3", "h=2"});
  SynthesisOptions options = small_options();
  options.pairs = false;
  const SynthesisReport report = synthesize(vocabulary, {}, options);
  INFO(report.text);
  VerifyOptions verify;
  verify.jobs = 2;
  const dsl::RuleLibrary& taso = test_fixtures::taso_library();
  for (const auto& [stride, taso_name] :
       {std::pair{1, "groupconv-merge-01"}, std::pair{2, "groupconv-merge-03"}}) {
    CAPTURE(stride);
    const std::string conv = fmt::format("(conv2d {0} {0} 0 0 ?x ", stride);
    const auto found = std::find_if(report.rules.begin(), report.rules.end(), [&](const auto& r) {
      return r.lhs == conv + "(merge ?y 2))" && r.rhs == conv + "?y)";
    });
    REQUIRE(found != report.rules.end());
    // Its condition, read off the declared shapes, minimised: TASO's.
    std::vector<std::string> atoms;
    for (std::size_t at = 0, next = 0; next != std::string::npos; at = next + 5) {
      next = found->condition.find(" and ", at);
      atoms.push_back(found->condition.substr(at, next - at));
    }
    CHECK(atoms.size() > 1);
    const auto kept = minimal_condition(*found, atoms, verify);
    REQUIRE(kept == std::vector<std::string>{"dim(?x, 1) == dim(?y, 0)"});
    WrittenRule general = *found;
    general.condition = kept.front();
    // TASO's rule follows from it.
    const dsl::RuleSet synthesized(
        testing::rule_library("ruleset synthesized\n" + rule_text(general, false)).rules);
    const auto rule = std::find_if(taso.rules.begin(), taso.rules.end(),
                                   [&](const dsl::CheckedRule& r) { return r.name == taso_name; });
    REQUIRE(rule != taso.rules.end());
    CHECK(derivable_at_example(equation_of(*rule), synthesized, {}) == true);
  }
}

TEST_CASE("synthesis vocabularies reject bad specifications with a message") {
  CHECK_THROWS_WITH_AS(make_vocabulary({"relu,frobnicate"}, {"x:n"}, {"n=2"}),
                       doctest::Contains("unknown operator 'frobnicate'"), Error);
  CHECK_THROWS_WITH_AS(make_vocabulary({"split"}, {"x:n"}, {"n=2"}),
                       doctest::Contains("does not enumerate 'split'"), Error);
  CHECK_THROWS_WITH_AS(make_vocabulary({"relu"}, {"x"}, {"n=2"}),
                       doctest::Contains("expected NAME:DIM"), Error);
  CHECK_THROWS_WITH_AS(make_vocabulary({"relu"}, {"x:n,m"}, {"n=2"}),
                       doctest::Contains("no values for shape symbol 'm'"), Error);
  CHECK_THROWS_WITH_AS(make_vocabulary({"relu"}, {"x:n,m"}, {"n=2,3", "m=1,2,3"}),
                       doctest::Contains("3 values"), Error);
  const auto v = make_vocabulary({"relu", "transpose,concat"}, {"x:n,2", "y:n,2"}, {"n=2,3"});
  CHECK(v.instances.size() == 2);
  CHECK(v.shape(0, 1) == tensor::Shape{3, 2});
  CHECK(v.choices.size() == 1 + 1 + 2);  // relu; transpose [1, 0]; concat on axis 0 or 1
}

TEST_CASE("a rule the final test refutes gets the condition of the declared shapes it needs") {
  // Kernel stacking (two convolutions of one input as one on stacked kernels) holds only for
  // ungrouped convolutions: one sample per candidate misses the grouped shapes, the final test's
  // 40 find them, and the rule is kept with TASO's condition (minimised from the declared shapes').
  const auto vocabulary =
      make_vocabulary({"conv2d,concat"}, {"x:b,c,h,h", "w:c,c,3,3", "v:c,c,3,3"},
                      {"b=1,2", "c=2,3", "h=4,5"}, {"w,v"});
  SynthesisOptions options = small_options();
  options.max_ops = 1;
  options.merges = false;
  options.verify.numeric.samples = 1;
  options.final_samples = 40;
  options.minimize_conditions = true;
  const SynthesisReport report = synthesize(vocabulary, {}, options);
  INFO(report.text);
  const auto found = std::find_if(report.rules.begin(), report.rules.end(), [](const auto& r) {
    return r.lhs == "(concat 1 4 (conv2d 1 1 0 0 ?x ?y) (conv2d 1 1 0 0 ?x ?z))" &&
           r.rhs == "(conv2d 1 1 0 0 ?x (concat 0 4 ?y ?z))";
  });
  REQUIRE(found != report.rules.end());
  CHECK(found->condition == "dim(?x, 1) == dim(?y, 1)");
  CHECK(std::any_of(found->comments.begin(), found->comments.end(), [](const std::string& c) {
    return c.find("after the final test with 40 samples") != std::string::npos;
  }));
  CHECK(report.rejected.empty());
  // The file says which variables were parameters.
  CHECK(report.text.find("; parameters w, v (TASO's roles)") != std::string::npos);
}
