// Printing the AST in canonical form.
#include "dsl/printer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mctsat::dsl {
namespace {

// Binding strength of binary operators (higher binds tighter); matches the grammar.
int precedence(const Expr& e) {
  if (e.kind != Expr::Kind::kBinary) return 10;
  if (e.name == "or") return 1;
  if (e.name == "and") return 2;
  if (e.name == "+" || e.name == "-") return 4;
  if (e.name == "*" || e.name == "/" || e.name == "%") return 5;
  return 3;  // comparisons
}

std::string operand(const Expr& e, int parent, bool right) {
  const std::string text = format_expr(e);
  const int own = precedence(e);
  // Left-associative chains: a right operand of equal strength needs parentheses; comparisons do
  // not chain, so any nested comparison does.
  const bool wrap = own < parent || (own == parent && (right || own == 3));
  return wrap ? "(" + text + ")" : text;
}

std::string real(double value) {
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // stays a real number
  return text;
}

std::string sides(const std::vector<Term>& terms) {
  std::string out;
  for (std::size_t i = 0; i < terms.size(); ++i)
    out += (i ? ",\n    " : "") + format_term(terms[i]);
  return out;
}

std::string tags(const std::vector<std::string>& tags) {
  return tags.empty() ? std::string() : fmt::format("@tags({})\n", fmt::join(tags, ", "));
}

std::string verified(std::optional<VerificationLevel> level) {
  return level ? fmt::format("@verified({})\n", name_of(kVerificationLevelNames, *level))
               : std::string();
}

}  // namespace

std::string format_term(const Term& t) {
  switch (t.kind) {
    case Term::Kind::kVar:
      return "?" + t.name;
    case Term::Kind::kInt:
      return std::to_string(t.int_value);
    case Term::Kind::kFloat:
      return real(t.float_value);
    case Term::Kind::kList:
      return fmt::format("[{}]", fmt::join(t.list, ", "));
    case Term::Kind::kApply: {
      std::string out = "(" + t.name;
      for (const Term& a : t.args) out += " " + format_term(a);
      return out + ")";
    }
  }
  return {};
}

std::string format_expr(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kInt:
      return std::to_string(e.value);
    case Expr::Kind::kVar:
      return "?" + e.name;
    case Expr::Kind::kCall: {
      std::vector<std::string> args;
      for (const Expr& o : e.operands) args.push_back(format_expr(o));
      return fmt::format("{}({})", e.name, fmt::join(args, ", "));
    }
    case Expr::Kind::kNeg:
      return "-" + operand(e.operands[0], 6, false);
    case Expr::Kind::kNot:  // `not` binds as tightly as `-`: not (?a + 1), (not ?a) + 1
      return "not " + operand(e.operands[0], 6, false);
    case Expr::Kind::kBinary: {
      const int own = precedence(e);
      return fmt::format("{} {} {}", operand(e.operands[0], own, false), e.name,
                         operand(e.operands[1], own, true));
    }
  }
  return {};
}

std::string format_rule(const RuleDecl& r) {
  std::string out = tags(r.tags) + verified(r.verified) +
                    fmt::format("rule {}:\n  {}\n  {} {}\n", r.name, sides(r.lhs),
                                r.bidirectional ? "<=>" : "=>", sides(r.rhs));
  if (r.condition) out += fmt::format("  where {}\n", format_expr(*r.condition));
  return out;
}

std::string format_axiom(const AxiomDecl& a) {
  std::string out = tags(a.tags) + fmt::format("axiom {}:", a.name);
  if (!a.forall.empty()) {
    out += " forall";
    for (const std::string& v : a.forall) out += " ?" + v;
    out += ".";
  }
  out += fmt::format("\n  {}\n  == {}\n", format_term(a.lhs), format_term(a.rhs));
  if (a.condition) out += fmt::format("  where {}\n", format_expr(*a.condition));
  return out;
}

std::string format_rule_file(const RuleFile& file) {
  std::string out;
  for (const Item& item : file.items) {
    if (!out.empty()) out += "\n";
    for (const std::string& comment : item.comments) out += comment + "\n";
    switch (item.kind) {
      case Item::Kind::kRuleset:
        out += fmt::format("ruleset {}\n", *file.ruleset);
        break;
      case Item::Kind::kInclude:
        out += fmt::format("include \"{}\"\n", file.includes[item.index].path);
        break;
      case Item::Kind::kRule:
        out += format_rule(file.rules[item.index]);
        break;
      case Item::Kind::kAxiom:
        out += format_axiom(file.axioms[item.index]);
        break;
    }
  }
  if (!file.trailing_comments.empty()) {
    if (!out.empty()) out += "\n";
    for (const std::string& comment : file.trailing_comments) out += comment + "\n";
  }
  return out;
}

}  // namespace mctsat::dsl
