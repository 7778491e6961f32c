// Reading TASO's equation set (see taso_equation_import.hpp).
#include "dsl/taso_equation_import.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"

namespace mctsat::dsl {
namespace {

// A parsed call: name(args...), a number, or an identifier.
struct Call {
  std::string name;
  bool number = false;
  std::int64_t value = 0;
  std::vector<Call> args;
};

class CallParser {
 public:
  explicit CallParser(std::string_view text) : text_(text) {}

  Call parse() {
    Call c = call();
    skip_spaces();
    if (pos_ != text_.size()) fail("unexpected text after the term");
    return c;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(fmt::format("column {}: {}", pos_ + 1, what));
  }
  void skip_spaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  Call call() {
    skip_spaces();
    Call c;
    const std::size_t start = pos_;
    if (pos_ < text_.size() &&
        (text_[pos_] == '-' || std::isdigit(static_cast<unsigned char>(text_[pos_])))) {
      ++pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      c.number = true;
      try {
        c.value = std::stoll(std::string(text_.substr(start, pos_ - start)));
      } catch (const std::exception&) {
        fail("a malformed number");
      }
      return c;
    }
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    if (pos_ == start) fail("expected an operator, a number or an input");
    c.name = std::string(text_.substr(start, pos_ - start));
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == '(') {
      ++pos_;
      while (true) {
        c.args.push_back(call());
        skip_spaces();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == ')') {
          ++pos_;
          break;
        }
        fail("expected ',' or ')'");
      }
    }
    return c;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

bool mentions(const Call& c, const std::set<std::string>& names) {
  if (names.count(c.name)) return true;
  for (const Call& a : c.args)
    if (mentions(a, names)) return true;
  return false;
}

void variables(const Term& t, std::set<std::string>& out) {
  if (t.kind == Term::Kind::kVar) out.insert(t.name);
  for (const Term& a : t.args) variables(a, out);
}

class Converter {
 public:
  Converter(SourceLocation where, std::int64_t concat_rank)
      : where_(std::move(where)), concat_rank_(concat_rank) {}

  Term term(const Call& c) {
    if (c.number) return integer(c.value);
    if (c.args.empty()) {
      if (c.name.rfind("input_", 0) != 0 && c.name.rfind("weight_", 0) != 0)
        throw std::invalid_argument(fmt::format("unknown constant {}", c.name));
      Term t = make(Term::Kind::kVar);
      t.name = c.name;
      return t;
    }
    const std::string& op = c.name;
    if (op == "matmul" && c.args.size() == 2)
      return apply("matmul", {integer(0), term(c.args[0]), term(c.args[1])});
    if (op == "transpose" && c.args.size() == 1) {
      Term perm = make(Term::Kind::kList);
      perm.list = {1, 0};
      return apply("transpose", {term(c.args[0]), perm});
    }
    if (op == "concat" && c.args.size() >= 3) {
      std::vector<Term> args = {term(c.args[0]), integer(concat_rank_)};
      for (std::size_t i = 1; i < c.args.size(); ++i) args.push_back(term(c.args[i]));
      return apply("concat", std::move(args));
    }
    if ((op == "poolavg" || op == "poolmax") && c.args.size() == 6) {
      std::vector<Term> args = {term(c.args[5])};
      for (std::size_t i = 0; i < 5; ++i) args.push_back(term(c.args[i]));
      args.push_back(integer(0));
      return apply(op, std::move(args));
    }
    static const std::set<std::string> kSame = {"conv2d", "ewadd", "ewmul",  "smul",
                                                "relu",   "tanh",  "sigmoid"};
    if (kSame.count(op)) {
      std::vector<Term> args;
      for (const Call& a : c.args) args.push_back(term(a));
      return apply(op, std::move(args));
    }
    throw std::invalid_argument(
        fmt::format("{} with {} arguments has no mctsat form", op, c.args.size()));
  }

 private:
  Term make(Term::Kind kind) const {
    Term t;
    t.kind = kind;
    t.where = where_;
    return t;
  }
  Term integer(std::int64_t value) const {
    Term t = make(Term::Kind::kInt);
    t.int_value = value;
    return t;
  }
  Term apply(const std::string& name, std::vector<Term> args) const {
    Term t = make(Term::Kind::kApply);
    t.name = name;
    t.args = std::move(args);
    return t;
  }

  SourceLocation where_;
  std::int64_t concat_rank_;
};

}  // namespace

TasoEquationImport import_taso_equations(const std::string& text, const std::string& path) {
  TasoEquationImport out;
  std::istringstream in(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty()) continue;
    auto skip = [&](std::string reason) { out.skipped.push_back({number, std::move(reason)}); };
    const auto eq = line.find("==");
    if (eq == std::string::npos) {
      skip("expected 'lhs==rhs'");
      continue;
    }
    try {
      const Call lhs = CallParser(std::string_view(line).substr(0, eq)).parse();
      const Call rhs = CallParser(std::string_view(line).substr(eq + 2)).parse();
      if (mentions(lhs, {"Iconv", "Cpool"}) || mentions(rhs, {"Iconv", "Cpool"})) {
        skip("uses TASO's verification-only constants Iconv / Cpool");
        continue;
      }
      if (mentions(lhs, {"enlarge"}) || mentions(rhs, {"enlarge"})) {
        skip("enlarge to a literal size (mctsat's enlarge takes a reference kernel)");
        continue;
      }
      if (mentions(lhs, {"split_0", "split_1"}) || mentions(rhs, {"split_0", "split_1"})) {
        skip("split_k(axis, x) with a split point only TASO's verifier knows");
        continue;
      }
      const std::set<std::string> spatial = {"conv2d", "poolavg", "poolmax"};
      const std::int64_t rank = mentions(lhs, spatial) || mentions(rhs, spatial) ? 4 : 2;
      Converter convert(SourceLocation::at(path, number, 1), rank);
      Term a = convert.term(lhs), b = convert.term(rhs);
      std::set<std::string> va, vb;
      variables(a, va);
      variables(b, vb);
      const bool forward = std::includes(va.begin(), va.end(), vb.begin(), vb.end());
      const bool backward = std::includes(vb.begin(), vb.end(), va.begin(), va.end());
      if (!forward && !backward) {
        skip("each side has variables the other lacks");
        continue;
      }
      RuleDecl rule;
      rule.name = fmt::format("taso-eq-{}", number);
      rule.where = SourceLocation::at(path, number, 1);
      rule.tags = {"taso-equations"};
      rule.lhs.push_back(forward ? std::move(a) : std::move(b));
      rule.rhs.push_back(forward ? std::move(b) : std::move(a));
      Diagnostics check;
      load_rule_text(format_rule(rule), path, check);
      if (check.has_errors()) {
        skip("rejected by the checker");
        continue;
      }
      out.rules.push_back(std::move(rule));
    } catch (const std::invalid_argument& e) {
      skip(e.what());
    }
  }
  return out;
}

std::string taso_equations_to_dsl(const std::vector<RuleDecl>& rules, const std::string& ruleset) {
  std::string out = fmt::format(
      "# Imported from TASO's equation set by `mctsat rules import-taso-equations`.\n\nruleset "
      "{}\n",
      ruleset);
  for (const RuleDecl& rule : rules) out += "\n" + format_rule(rule);
  return out;
}

}  // namespace mctsat::dsl
