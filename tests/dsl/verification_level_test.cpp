// Rules' verification levels (`@verified(samples|shapes|axioms)`): parsed, checked into the
// checked rules of both directions, printed back, and refused where they do not belong; rule
// library names (`--rules taso,extended`) resolved to the library's folders; and every rule of
// rules/extended states its level.
#include <filesystem>

#include <doctest/doctest.h>

#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"

using namespace mctsat::dsl;

namespace {
const std::string kLibrary = std::string(MCTSAT_SOURCE_DIR) + "/rules";
}  // namespace

TEST_CASE("@verified states a rule's level; both directions of a <=> rule carry it") {
  const std::string text = R"(@tags(a)
@verified(shapes)
rule r: (ewadd ?x ?y) <=> (ewadd ?y ?x)
@verified(axioms) @tags(b)
rule s: (relu (relu ?x)) => (relu ?x)
rule t: (relu ?x) => (relu ?x)
)";
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_text(text, "t.rules", diagnostics);
  INFO(diagnostics.render());
  REQUIRE(diagnostics.all().empty());
  REQUIRE(library.rules.size() == 4);
  CHECK(library.rules[0].verified == VerificationLevel::kShapes);
  CHECK(library.rules[1].name == "r-reverse");
  CHECK(library.rules[1].verified == VerificationLevel::kShapes);
  CHECK(library.rules[2].verified == VerificationLevel::kAxioms);
  CHECK(library.rules[2].tags == std::vector<std::string>{"b"});
  CHECK_FALSE(library.rules[3].verified);

  // Printing keeps it, and printing the printed text again gives the same text.
  Diagnostics d1, d2;
  const std::string printed = format_rule_file(parse_rule_text(text, "t.rules", d1));
  CHECK(printed.find("@tags(a)\n@verified(shapes)\nrule r:") != std::string::npos);
  CHECK(format_rule_file(parse_rule_text(printed, "t.rules", d2)) == printed);
}

TEST_CASE("a wrong @verified is a located error") {
  const auto errors = [](const std::string& text) {
    Diagnostics diagnostics;
    parse_rule_text(text, "t.rules", diagnostics);
    return diagnostics.all();
  };
  const auto unknown = errors("@verified(proved)\nrule r: (relu ?x) => ?x\n");
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].where.line == 1);
  CHECK(unknown[0].where.column == 11);
  CHECK(unknown[0].message ==
        "unknown verification level 'proved' (levels: samples, shapes, axioms)");
  const auto twice = errors("@verified(shapes)\n@verified(axioms)\nrule r: (relu ?x) => ?x\n");
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].where.line == 2);
  CHECK(twice[0].message == "a rule states its verification level once");
  const auto axiom = errors("@verified(axioms)\naxiom a: (relu ?x) == (relu ?x)\n");
  REQUIRE(axiom.size() == 1);
  CHECK(axiom[0].message == "an axiom is assumed, not verified: @verified belongs to rules");
  const auto empty = errors("@verified()\nrule r: (relu ?x) => ?x\n");
  REQUIRE_FALSE(empty.empty());
  CHECK(empty[0].message == "expected a verification level: samples, shapes or axioms");
}

TEST_CASE("rule library names resolve to the library's folders; paths stay paths") {
  CHECK(rule_library_names(kLibrary) == std::vector<std::string>{"exporters", "extended", "taso"});
  const auto paths = resolve_rule_sources({"taso", "extended"}, kLibrary);
  REQUIRE(paths.size() == 2);
  CHECK(std::filesystem::equivalent(paths[0], kLibrary + "/taso"));
  CHECK(std::filesystem::equivalent(paths[1], kLibrary + "/extended"));
  // A path (it has a '/' or a '.') is kept as it is, for the loader to read or report missing.
  CHECK(resolve_rule_sources({"my.rules", "dir/x"}, kLibrary) ==
        std::vector<std::string>{"my.rules", "dir/x"});
  try {
    resolve_rule_sources({"extnded"}, kLibrary);
    FAIL("expected an error");
  } catch (const mctsat::Error& e) {
    CHECK(std::string(e.what()).find("no rule file, directory or rule library named 'extnded'") !=
          std::string::npos);
    CHECK(std::string(e.what()).find("exporters, extended, taso") != std::string::npos);
  }
}

TEST_CASE("every rule of rules/extended states how it was verified") {
  const RuleLibrary library = load_rules_or_throw({kLibrary + "/extended"});
  REQUIRE(library.rules.size() > 100);
  std::size_t axioms = 0;
  for (const CheckedRule& rule : library.rules) {
    INFO(rule.name, " at ", rule.where.to_string());
    REQUIRE(rule.verified);
    axioms += *rule.verified == VerificationLevel::kAxioms;
  }
  CHECK(axioms > 0);
}
