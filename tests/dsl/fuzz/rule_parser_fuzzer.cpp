// libFuzzer target for the rule-file front end: arbitrary bytes go through the parser, the loader
// (checker included), lowering to e-graph rewrites and the TENSAT importer, none of which may
// crash, hang or leak. When the text parses without errors, printing it in canonical form and
// parsing that again must give no error, the same syntax tree and the same printed text; otherwise
// the target aborts, which libFuzzer reports as a finding. Built by the build (tests/fuzz/targets)
// and run by tests/fuzz/run_fuzzer.sh (CTest test dsl_parser_fuzz).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dsl/lowering.hpp"
#include "dsl/parser.hpp"
#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"
#include "dsl/tensat_import.hpp"

namespace {

using namespace mctsat::dsl;

// Includes resolve relative to this file's directory, which does not exist: no input can make the
// loader read a real file (e.g. /dev/zero) except through an absolute or `..` path; loadable()
// leaves files with those to the parser alone.
constexpr const char* kPath = "/nonexistent-mctsat-fuzz/input.rules";

bool loadable(const RuleFile& file) {
  for (const IncludeDecl& include : file.includes) {
    if (include.path.empty() || include.path.front() == '/' ||
        include.path.find("..") != std::string::npos)
      return false;
  }
  return true;
}

[[noreturn]] void fail(const char* what, const std::string& first, const std::string& second) {
  std::fprintf(stderr, "rule_parser_fuzzer: %s\n--- first:\n", what);
  std::fwrite(first.data(), 1, first.size(), stderr);  // the text may hold NUL bytes
  std::fprintf(stderr, "\n--- second:\n");
  std::fwrite(second.data(), 1, second.size(), stderr);
  std::fprintf(stderr, "\n");
  std::abort();
}

// A fully parenthesized dump of the syntax tree without source locations, independent of the
// printer: parsing the printed text must give the same tree, not just text that prints the same
// (a printer that drops needed parentheses prints its own output unchanged).
void dump(const Term& t, std::string& out) {
  switch (t.kind) {
    case Term::Kind::kVar:
      out += "?" + t.name;
      return;
    case Term::Kind::kInt:
      out += std::to_string(t.int_value);
      return;
    case Term::Kind::kFloat: {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%a", t.float_value);
      out += buffer;
      return;
    }
    case Term::Kind::kList:
      out += "[";
      for (std::int64_t v : t.list) out += std::to_string(v) + ",";
      out += "]";
      return;
    case Term::Kind::kApply:
      out += "(" + t.name;
      for (const Term& a : t.args) dump(a, out += " ");
      out += ")";
      return;
  }
}

void dump(const Expr& e, std::string& out) {
  out +=
      "{" + std::to_string(static_cast<int>(e.kind)) + " " + e.name + " " + std::to_string(e.value);
  for (const Expr& o : e.operands) dump(o, out += " ");
  out += "}";
}

void dump(const std::vector<std::string>& strings, std::string& out) {
  for (const std::string& s : strings) out += s + "\n";
}

std::string dump(const RuleFile& file) {
  std::string out = file.ruleset.value_or("<none>") + "\n";
  for (const Item& item : file.items) {
    dump(item.comments, out);
    out += std::to_string(static_cast<int>(item.kind)) + " ";
    if (item.kind == Item::Kind::kInclude) out += file.includes.at(item.index).path;
    if (item.kind == Item::Kind::kRule) {
      const RuleDecl& r = file.rules.at(item.index);
      out += r.name + (r.bidirectional ? " <=> " : " => ");
      dump(r.tags, out);
      for (const Term& t : r.lhs) dump(t, out += " L ");
      for (const Term& t : r.rhs) dump(t, out += " R ");
      if (r.condition) dump(*r.condition, out += " where ");
    }
    if (item.kind == Item::Kind::kAxiom) {
      const AxiomDecl& a = file.axioms.at(item.index);
      out += a.name;
      dump(a.tags, out);
      dump(a.forall, out);
      dump(a.lhs, out += " L ");
      dump(a.rhs, out += " R ");
      if (a.condition) dump(*a.condition, out += " where ");
    }
    out += "\n";
  }
  dump(file.trailing_comments, out);
  return out;
}

// Loading checks the rules; lowering compiles them to e-graph rewrites.
void load_and_lower(const std::string& text) {
  Diagnostics diagnostics;
  const RuleLibrary library = load_rule_text(text, kPath, diagnostics);
  (void)diagnostics.render();
  const RuleSet lowered(library.rules);
  if (lowered.size() != library.rules.size()) std::abort();
}

// The TENSAT importer on the same bytes: when it reports no error, the rules it read must print as
// rule text that parses.
void import_tensat(const std::string& text, bool multi) {
  Diagnostics diagnostics;
  const std::vector<RuleDecl> rules =
      import_tensat_rules(text, kPath, multi, multi ? "m" : "s", diagnostics);
  (void)diagnostics.render();
  if (rules.empty() || diagnostics.has_errors()) return;
  const std::string converted = tensat_rules_to_dsl(rules, "imported");
  Diagnostics again;
  (void)parse_rule_text(converted, kPath, again);
  if (again.has_errors()) fail("imported rules print as text that does not parse", text, converted);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Diagnostics diagnostics;
  const RuleFile file = parse_rule_text(text, kPath, diagnostics);
  (void)diagnostics.render();
  // Loading parses again: only worth it when some rule or axiom parsed.
  if ((!file.rules.empty() || !file.axioms.empty()) && loadable(file)) load_and_lower(text);
  import_tensat(text, false);
  import_tensat(text, true);
  if (diagnostics.has_errors()) return 0;

  const std::string printed = format_rule_file(file);
  Diagnostics again;
  const RuleFile reparsed = parse_rule_text(printed, kPath, again);
  if (again.has_errors()) fail("the printed text does not parse", printed, again.render());
  const std::string reprinted = format_rule_file(reparsed);
  if (reprinted != printed) fail("printing the printed text changes it", printed, reprinted);
  if (dump(reparsed) != dump(file))
    fail("the printed text parses to a different tree", dump(file), dump(reparsed));
  return 0;
}
