// The canonical form: parse -> print -> parse -> print is stable, comments before items survive,
// and expressions get exactly the parentheses they need.
#include <filesystem>

#include <doctest/doctest.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "support/files.hpp"

using namespace mctsat::dsl;

namespace {
std::string canonical(const std::string& text) {
  Diagnostics diagnostics;
  const RuleFile file = parse_rule_text(text, "t.rules", diagnostics);
  INFO(diagnostics.render());
  REQUIRE_FALSE(diagnostics.has_errors());
  return format_rule_file(file);
}
}  // namespace

TEST_CASE("the canonical form of a rule") {
  CHECK(
      canonical(
          "# lead\n@tags(a,b) rule r:(matmul ?act (matmul 0 ?a ?b) ?c)=>(matmul ?act ?a ?b)  where "
          "(?act+1)*2==dim(?a,0)-(1-2)") ==
      "# lead\n@tags(a, b)\nrule r:\n  (matmul ?act (matmul 0 ?a ?b) ?c)\n  => (matmul ?act ?a "
      "?b)\n"
      "  where (?act + 1) * 2 == dim(?a, 0) - (1 - 2)\n");
  CHECK(canonical("axiom a: forall ?x. (relu ?x)==(relu (relu ?x))") ==
        "axiom a: forall ?x.\n  (relu ?x)\n  == (relu (relu ?x))\n");
  CHECK(canonical("rule m: (relu ?x), (tanh ?y) <=> (relu ?y), (tanh ?x) where not (rank(?x) == 1 "
                  "or rank(?y) == 2)") ==
        "rule m:\n  (relu ?x),\n    (tanh ?y)\n  <=> (relu ?y),\n    (tanh ?x)\n"
        "  where not (rank(?x) == 1 or rank(?y) == 2)\n");
  CHECK(canonical("rule f: (clip 0.0 6 ?x) => (clip 1e-3 -2.5 ?x)") ==
        "rule f:\n  (clip 0.0 6 ?x)\n  => (clip 0.001 -2.5 ?x)\n");
}

TEST_CASE("printing is a fixed point on every shipped rule file") {
  for (const auto& entry : std::filesystem::directory_iterator(MCTSAT_SOURCE_DIR "/rules/taso")) {
    CAPTURE(entry.path().string());
    const std::string once = canonical(mctsat::read_text_file(entry.path().string()));
    CHECK(canonical(once) == once);
  }
}
