// The rule library is TENSAT's: every rule of TENSAT's converted.txt (120) and
// converted_multi.txt (13) plus its 4 + 2 hand-written grouped-convolution rules is present in
// rules/taso/, structurally (patterns equal up to variable renaming), and nothing else is.
#include <map>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "dsl/checker.hpp"
#include "dsl/pattern_text.hpp"
#include "dsl/rule_library.hpp"
#include "dsl/tensat_import.hpp"
#include "support/files.hpp"
#include "tests/support/fixtures.hpp"

using namespace mctsat;
using namespace mctsat::dsl;

namespace {

const std::string kReference = MCTSAT_TENSAT_DATA_DIR "/";

// The hand-written rules, from the reference README (TENSAT hard-codes them).
const char* kHandWrittenSingle =
    R"((conv2d 1 1 0 0 ?input_1 ?input_2)=>(conv2d 1 1 0 0 ?input_1 (merge ?input_2 2))
(conv2d 1 1 0 2 ?input_1 ?input_2)=>(conv2d 1 1 0 2 ?input_1 (merge ?input_2 2))
(conv2d 2 2 0 0 ?input_1 ?input_2)=>(conv2d 2 2 0 0 ?input_1 (merge ?input_2 2))
(conv2d 2 2 0 2 ?input_1 ?input_2)=>(conv2d 2 2 0 2 ?input_1 (merge ?input_2 2))
)";
const char* kHandWrittenMulti =
    R"((conv2d 1 1 0 0 ?input_1 ?input_2)=>(split_0 (split 1 (conv2d 1 1 0 0 ?input_1 (concat 0 4 (enlarge ?input_2 ?input_3) ?input_3))))
(conv2d 1 1 0 0 ?input_1 ?input_3)=>(split_1 (split 1 (conv2d 1 1 0 0 ?input_1 (concat 0 4 (enlarge ?input_2 ?input_3) ?input_3))))
(conv2d 1 1 0 2 ?input_1 ?input_2)=>(split_0 (split 1 (conv2d 1 1 0 2 ?input_1 (concat 0 4 (enlarge ?input_2 ?input_3) ?input_3))))
(conv2d 1 1 0 2 ?input_1 ?input_3)=>(split_1 (split 1 (conv2d 1 1 0 2 ?input_1 (concat 0 4 (enlarge ?input_2 ?input_3) ?input_3))))
)";

// Patterns as text with variables numbered by first appearance (conditions are not compared:
// the library adds soundness conditions TENSAT lacks).
class Canonical {
 public:
  std::string of(const CheckedRule& rule) {
    std::string out;
    for (const Pat& p : rule.lhs) out += term(p, rule) + " ; ";
    out += "=>";
    for (const Pat& p : rule.rhs) out += " ; " + term(p, rule);
    return out;
  }

 private:
  // Variables numbered by first appearance, anonymous ones as ?_.
  std::string term(const Pat& p, const CheckedRule& rule) {
    return pattern_text(p, [&](VarIndex v) {
      if (rule.vars[v].name[0] == '_') return std::string("?_");
      const auto [it, fresh] = numbering_.emplace(v, numbering_.size());
      return fmt::format("?{}", it->second);
    });
  }
  std::map<VarIndex, std::size_t> numbering_;
};

std::vector<CheckedRule> import_checked(const std::string& text, const std::string& path,
                                        bool multi) {
  Diagnostics diagnostics;
  std::vector<CheckedRule> out;
  for (const RuleDecl& decl :
       import_tensat_rules(text, path, multi, multi ? "m" : "s", diagnostics))
    check_rule(decl, "tensat", diagnostics, out);
  INFO(diagnostics.render());
  REQUIRE_FALSE(diagnostics.has_errors());
  return out;
}

}  // namespace

TEST_CASE("the importer reads TENSAT's full rule files") {
  const auto single =
      import_checked(read_text_file(kReference + "converted.txt"), "converted.txt", false);
  const auto multi = import_checked(read_text_file(kReference + "converted_multi.txt"),
                                    "converted_multi.txt", true);
  CHECK(single.size() == 120);
  CHECK(multi.size() == 13);
  for (const auto& rule : multi) CHECK(rule.lhs.size() == 2);
  CHECK(multi[0].tags == std::vector<std::string>{"tensat", "multi", "matmul"});
  CAPTURE(multi[2].name);
  CHECK(multi[2].tags == std::vector<std::string>{"tensat", "multi", "conv2d", "relu"});
  CHECK(multi[3].tags == std::vector<std::string>{"tensat", "multi", "concat", "relu", "split"});
}

TEST_CASE("every TENSAT rule is in rules/taso, exactly once, and nothing else is") {
  std::vector<CheckedRule> reference =
      import_checked(read_text_file(kReference + "converted.txt"), "c.txt", false);
  for (auto&& extra :
       {import_checked(read_text_file(kReference + "converted_multi.txt"), "m.txt", true),
        import_checked(kHandWrittenSingle, "hand.txt", false),
        import_checked(kHandWrittenMulti, "hand-multi.txt", true)})
    reference.insert(reference.end(), extra.begin(), extra.end());
  REQUIRE(reference.size() == 139);

  const RuleLibrary& library = test_fixtures::taso_library();
  std::multimap<std::string, std::string> available;  // canonical form -> library rule name
  for (const CheckedRule& rule : library.rules) available.emplace(Canonical().of(rule), rule.name);
  REQUIRE(available.size() == 139);

  std::size_t found = 0;
  for (const CheckedRule& rule : reference) {
    const std::string form = Canonical().of(rule);
    const auto it = available.find(form);
    CAPTURE(form);
    CHECK(it != available.end());
    if (it == available.end()) continue;
    available.erase(it);
    ++found;
  }
  CHECK(found == 139);
  CHECK(available.empty());
}
