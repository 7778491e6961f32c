// The verifier's Z3 queries are bounded by a step count (rlimit, z3_limit.hpp), not by time: a
// query beyond a tiny budget is "unknown" on every run, the same query within the default budget
// is decided, and the budget is part of the verification cache's key (a result found under one
// budget is not reused under another).
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/verify/rule_equations.hpp"
#include "verify/axiom_check.hpp"
#include "verify/shape_check.hpp"
#include "verify/verifier.hpp"

using namespace mctsat;
using namespace mctsat::verify;
using mctsat::verify::testing::rule_equation;
using mctsat::verify::testing::rule_library;

namespace {

constexpr const char* kAssociativity = R"(
  axiom ewadd-assoc: forall ?x ?y ?z. (ewadd ?x (ewadd ?y ?z)) == (ewadd (ewadd ?x ?y) ?z)
  axiom ewadd-comm: forall ?x ?y. (ewadd ?x ?y) == (ewadd ?y ?x)
  rule rotate: (ewadd ?a (ewadd ?b ?c)) => (ewadd (ewadd ?c ?a) ?b)
)";

std::vector<Equation> axioms_of(const dsl::RuleLibrary& library) {
  std::vector<Equation> axioms;
  for (const auto& a : library.axioms) axioms.push_back(equation_of(a));
  return axioms;
}

}  // namespace

TEST_CASE("a Z3 query beyond its step budget is unknown, on every run") {
  const dsl::RuleLibrary library = rule_library(kAssociativity);
  const Equation rule = equation_of(library.rules.at(0));
  CHECK(check_axioms(rule, axioms_of(library), {}).verdict == Verdict::kPass);
  for (int run = 0; run < 3; ++run) {
    const CheckResult starved = check_axioms(rule, axioms_of(library), {.rlimit = 1});
    CHECK(starved.verdict == Verdict::kUnknown);
    CHECK(starved.detail == "not proved within 1 Z3 steps (--z3-rlimit)");
  }

  const Equation conv = rule_equation(
      "rule c: (conv2d 1 1 0 0 (ewadd ?x ?y) ?w) => (ewadd (conv2d 1 1 0 0 ?x ?w) "
      "(conv2d 1 1 0 0 ?y ?w))");
  CHECK(check_shapes(conv, {}).verdict == Verdict::kPass);
  ShapeCheckOptions starved;
  starved.rlimit = 1;
  for (int run = 0; run < 3; ++run) {
    const CheckResult shape = check_shapes(conv, starved);
    CHECK(shape.verdict == Verdict::kUnknown);
    CHECK_MESSAGE(shape.detail.find("Z3 gave up") != std::string::npos, shape.detail);
  }
}

TEST_CASE("the step budget is part of the verification cache's key") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "mctsat-z3-limit-test";
  fs::remove_all(dir);
  const dsl::RuleLibrary library = rule_library("rule r: (relu (relu ?x)) => (relu ?x)");
  VerifyOptions options;
  options.jobs = 1;
  options.cache_dir = dir.string();
  CHECK_FALSE(verify_library(library, library.rules, {}, options).at(0).cached);
  CHECK(verify_library(library, library.rules, {}, options).at(0).cached);
  options.shape.rlimit = options.numeric.rlimit = options.proof.rlimit = kDefaultZ3Rlimit / 2;
  CHECK_FALSE(verify_library(library, library.rules, {}, options).at(0).cached);
  options.numeric.rlimit = kDefaultZ3Rlimit;
  CHECK_FALSE(verify_library(library, library.rules, {}, options).at(0).cached);
  fs::remove_all(dir);
}
