// Loading rule files: includes (relative, each once, cycles), rulesets, duplicate names, and
// selection by ruleset, tag and name.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "dsl/rule_library.hpp"

using namespace mctsat;
using namespace mctsat::dsl;
namespace fs = std::filesystem;

namespace {
fs::path scratch_dir(const char* name) {
  const fs::path dir = fs::temp_directory_path() / "mctsat-dsl-test" / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  return dir;
}
void write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}
RuleSelection selection(std::vector<std::string> rulesets, std::vector<std::string> tags,
                        std::vector<std::string> exclude_tags,
                        std::vector<std::string> rule_names) {
  RuleSelection s;
  s.rulesets = std::move(rulesets);
  s.tags = std::move(tags);
  s.exclude_tags = std::move(exclude_tags);
  s.names = std::move(rule_names);
  return s;
}
std::vector<std::string> names(const std::vector<CheckedRule>& rules) {
  std::vector<std::string> out;
  for (const auto& r : rules) out.push_back(r.name);
  return out;
}
}  // namespace

TEST_CASE("includes are relative, loaded once, and inherit the ruleset") {
  const fs::path dir = scratch_dir("includes");
  write(dir / "main.rules",
        "ruleset mine\ninclude \"sub/a.rules\"\ninclude \"sub/b.rules\"\nrule main: (relu ?x) => "
        "?x\n");
  write(dir / "sub" / "a.rules",
        "include \"common.rules\"\n@tags(fast)\nrule a: (tanh ?x) => ?x\n");
  write(dir / "sub" / "b.rules",
        "ruleset other\ninclude \"common.rules\"\nrule b: (sigmoid ?x) => ?x\n");
  write(dir / "sub" / "common.rules", "rule common: (dropout ?x) => ?x\n");
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_files({(dir / "main.rules").string()}, diagnostics);
  INFO(diagnostics.render());
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(names(library.rules) == std::vector<std::string>{"common", "a", "b", "main"});
  CHECK(library.rules[0].ruleset == "mine");
  CHECK(library.rules[2].ruleset == "other");
  CHECK(library.files.size() == 4);

  CHECK(names(select_rules(library, selection({"other"}, {}, {}, {}))) ==
        std::vector<std::string>{"b"});
  CHECK(names(select_rules(library, selection({}, {"fast"}, {}, {}))) ==
        std::vector<std::string>{"a"});
  CHECK(names(select_rules(library, selection({}, {}, {"fast"}, {}))) ==
        std::vector<std::string>{"common", "b", "main"});
  CHECK(names(select_rules(library, selection({}, {}, {}, {"main", "b"}))) ==
        std::vector<std::string>{"b", "main"});
  CHECK_THROWS_WITH_AS(select_rules(library, selection({}, {"slow"}, {}, {})),
                       "error: no loaded rule has tag 'slow'", Error);
  CHECK_THROWS_WITH_AS(select_rules(library, selection({"x"}, {}, {}, {})),
                       "error: no loaded rule has ruleset 'x'", Error);
}

TEST_CASE("include cycles, missing includes and duplicate names are errors at their place") {
  const fs::path dir = scratch_dir("cycles");
  write(dir / "a.rules", "include \"b.rules\"\nrule a: (relu ?x) => ?x\n");
  write(dir / "b.rules", "rule dup: (tanh ?x) => ?x\n\ninclude \"a.rules\"\n");
  write(dir / "c.rules", "include \"missing.rules\"\nrule dup: (sigmoid ?x) => ?x\n");
  Diagnostics diagnostics;
  load_rule_files({(dir / "a.rules").string(), (dir / "c.rules").string()}, diagnostics);
  const auto& all = diagnostics.all();
  REQUIRE(all.size() == 3);
  CHECK(all[0].where.file == (dir / "b.rules").string());
  CHECK(all[0].where.line == 3);
  CHECK(all[0].message == "include cycle: a.rules -> b.rules -> a.rules");
  CHECK(all[1].where.file == (dir / "c.rules").string());
  CHECK(all[1].where.line == 1);
  CHECK(all[1].message.rfind("cannot open", 0) == 0);
  CHECK(all[2].where.file == (dir / "c.rules").string());
  CHECK(all[2].message == "'dup' is already defined at " + (dir / "b.rules").string() + ":1:1");
}

TEST_CASE("a directory loads every .rules file in name order") {
  const fs::path dir = scratch_dir("directory");
  write(dir / "b.rules", "rule b: (relu ?x) => ?x\n");
  write(dir / "a.rules", "rule a: (tanh ?x) => ?x\n");
  write(dir / "notes.txt", "not rules");
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_files({dir.string()}, diagnostics);
  CHECK(names(library.rules) == std::vector<std::string>{"a", "b"});
  Diagnostics empty;
  load_rule_files({(dir / "sub").string()}, empty);
  REQUIRE(empty.all().size() == 1);
  CHECK(empty.all()[0].message == "the directory holds no .rules file");
  CHECK_THROWS_AS(load_rules_or_throw({(dir / "sub").string()}), Error);
}

TEST_CASE("the shipped TASO library loads: 139 rules, 15 multi-pattern, and its axioms") {
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_files({MCTSAT_SOURCE_DIR "/rules/taso"}, diagnostics);
  INFO(diagnostics.render());
  CHECK(diagnostics.all().empty());
  CHECK(library.rules.size() == 139);
  std::size_t multi = 0;
  for (const auto& rule : library.rules) multi += rule.multi();
  CHECK(multi == 15);
  CHECK(library.axioms.size() >= 25);
}
