// Parsing rule files: PEGTL parse trees of one top-level item at a time, turned into the AST.
// After a syntax error the parser reports it and resumes at the next line that starts an item,
// so one run shows every syntax error of a file. Nesting is limited (kMaxNesting) so that no input
// can overflow the stack of the recursive parser or of the passes over the tree after it.
#include "dsl/parser.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "dsl/grammar.hpp"

namespace mctsat::dsl {
namespace {

namespace pegtl = tao::pegtl;
namespace pt = tao::pegtl::parse_tree;
namespace g = grammar;
using Node = pt::node;

template <class Rule>
using Selector = pt::selector<
    Rule,
    pt::store_content::on<g::var_name, g::int_literal, g::float_literal, g::list_literal,
                          g::application, g::op_name, g::call, g::call_name, g::negate_op,
                          g::not_op, g::mul_op, g::add_op, g::compare_op, g::and_op, g::or_op,
                          g::lhs, g::rhs, g::forward_arrow, g::both_arrow, g::where_clause,
                          g::rule_name, g::tag, g::tags, g::verified, g::verified_level,
                          g::rule_decl, g::forall, g::axiom_decl, g::ruleset_decl, g::ruleset_name,
                          g::include_decl, g::path_text, g::variable, g::negation>,
    pt::fold_one::on<g::expression, g::conjunction, g::comparison, g::sum, g::product>>;

// Raises parse errors with the grammar's messages.
template <class Rule>
struct Control : pegtl::normal<Rule> {
  template <class Input, class... States>
  [[noreturn]] static void raise(const Input& in, States&&...) {
    throw pegtl::parse_error(std::string(g::expected_message<Rule>()), in);
  }
};

// The deepest nesting of terms and conditions (parentheses, applications, negations, calls, and
// operator chains, which nest to the left): far beyond any real rule, far below a stack overflow.
constexpr std::size_t kMaxNesting = 256;
// Operator chains (a and b and c ...) fold into a tree as deep as the chain is long, which the
// checker, lowering and verification walk recursively: a flat chain may be longer than the
// syntactic nesting, but no expression is deeper than kMaxHeight.
constexpr std::size_t kMaxHeight = 1024;
std::string too_deep(std::size_t levels = kMaxNesting) {
  return fmt::format("nested too deeply (more than {} levels)", levels);
}

// An action that counts how deeply its rule is nested in itself and the other recursive rules,
// and fails the parse beyond kMaxNesting.
struct LimitNesting : pegtl::maybe_nothing {
  template <class Rule, pegtl::apply_mode A, pegtl::rewind_mode M, template <class...> class Action,
            template <class...> class Control, class Input, class... States>
  static bool match(Input& in, States&&... states) {
    if (in.private_depth >= kMaxNesting) throw pegtl::parse_error(too_deep(), in);
    ++in.private_depth;
    struct Leave {
      std::size_t& depth;
      ~Leave() { --depth; }
    } leave{in.private_depth};
    return pegtl::match<Rule, A, M, Action, Control>(in, states...);
  }
};
template <class Rule>
struct Actions : pegtl::nothing<Rule> {};
template <>
struct Actions<g::application> : LimitNesting {};
template <>
struct Actions<g::parenthesized> : LimitNesting {};
template <>
struct Actions<g::negation> : LimitNesting {};
template <>
struct Actions<g::call> : LimitNesting {};

class Builder {
 public:
  Builder(RuleFile& file, Diagnostics& diagnostics) : file_(file), diagnostics_(diagnostics) {}

  Term term_of(const Node& root) { return term(*root.children.at(0)); }

  // Adds one parsed item; `comments` are the comment lines just before it.
  void item(const Node& root, std::vector<std::string> comments) {
    comments_ = std::move(comments);
    too_deep_ = false;
    for (const auto& child : root.children) top_level(*child);
  }

 private:
  SourceLocation where(const Node& node) const {
    const auto position = node.begin();
    return SourceLocation::at(file_.path, static_cast<std::uint32_t>(position.line),
                              static_cast<std::uint32_t>(position.column));
  }

  void top_level(const Node& node) {
    if (node.is_type<g::ruleset_decl>()) {
      if (file_.ruleset) diagnostics_.error(where(node), "a file declares its ruleset once");
      file_.ruleset = node.children.at(0)->string();
      file_.ruleset_where = where(node);
      file_.items.push_back({Item::Kind::kRuleset, 0, std::move(comments_)});
    } else if (node.is_type<g::include_decl>()) {
      file_.items.push_back({Item::Kind::kInclude, file_.includes.size(), std::move(comments_)});
      file_.includes.push_back({where(node), node.children.at(0)->string()});
    } else {
      annotated(node);
    }
  }

  // Tags and a verification level (zero or more annotations) followed by a rule or an axiom; the
  // selector flattens them into siblings.
  std::vector<std::string> pending_tags_;
  std::optional<VerificationLevel> pending_level_;
  std::optional<SourceLocation> pending_level_where_;
  void annotated(const Node& node) {
    if (node.is_type<g::tags>()) {
      for (const auto& tag : node.children) pending_tags_.push_back(tag->string());
      return;
    }
    if (node.is_type<g::verified>()) {
      const Node& level = *node.children.at(0);
      if (pending_level_where_)
        diagnostics_.error(where(node), "a rule states its verification level once");
      pending_level_where_ = where(node);
      pending_level_ = find_name(kVerificationLevelNames, level.string());
      if (!pending_level_)
        diagnostics_.error(
            where(level),
            fmt::format("unknown verification level '{}' (levels: {})", level.string(),
                        fmt::join(names_of(kVerificationLevelNames), ", ")));
      return;
    }
    if (node.is_type<g::rule_decl>()) {
      file_.items.push_back({Item::Kind::kRule, file_.rules.size(), std::move(comments_)});
      file_.rules.push_back(rule(node));
    } else if (node.is_type<g::axiom_decl>()) {
      file_.items.push_back({Item::Kind::kAxiom, file_.axioms.size(), std::move(comments_)});
      if (pending_level_where_)
        diagnostics_.error(*pending_level_where_,
                           "an axiom is assumed, not verified: @verified belongs to rules");
      file_.axioms.push_back(axiom(node));
    }
    pending_tags_.clear();
    pending_level_.reset();
    pending_level_where_.reset();
  }

  RuleDecl rule(const Node& node) {
    RuleDecl decl;
    decl.where = where(node);
    decl.tags = pending_tags_;
    decl.verified = pending_level_;
    for (const auto& child : node.children) {
      if (child->is_type<g::rule_name>()) decl.name = child->string();
      if (child->is_type<g::lhs>()) decl.lhs = terms(*child);
      if (child->is_type<g::rhs>()) decl.rhs = terms(*child);
      if (child->is_type<g::both_arrow>()) decl.bidirectional = true;
      if (child->is_type<g::where_clause>()) decl.condition = condition(*child);
    }
    return decl;
  }

  AxiomDecl axiom(const Node& node) {
    AxiomDecl decl;
    decl.where = where(node);
    decl.tags = pending_tags_;
    for (const auto& child : node.children) {
      if (child->is_type<g::rule_name>()) decl.name = child->string();
      if (child->is_type<g::forall>())
        for (const auto& v : child->children) decl.forall.push_back(v->children.at(0)->string());
      if (child->is_type<g::lhs>())
        decl.lhs = single_term(*child, "an axiom has one left-hand side");
      if (child->is_type<g::rhs>())
        decl.rhs = single_term(*child, "an axiom has one right-hand side");
      if (child->is_type<g::where_clause>()) decl.condition = condition(*child);
    }
    return decl;
  }

  Expr condition(const Node& where_clause) {
    std::size_t height = 0;
    return expr(*where_clause.children.at(0), height);
  }

  std::vector<Term> terms(const Node& node) {
    std::vector<Term> out;
    for (const auto& child : node.children) out.push_back(term(*child));
    return out;
  }

  Term single_term(const Node& node, const char* message) {
    std::vector<Term> all = terms(node);
    if (all.size() != 1) diagnostics_.error(where(node), message);
    return all.empty() ? Term{} : std::move(all.front());
  }

  std::int64_t integer(const Node& node) {
    std::int64_t value = 0;
    const std::string_view text = node.string_view();
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
      diagnostics_.error(where(node), fmt::format("integer {} is out of range", text));
    return value;
  }

  Term term(const Node& node) {
    Term t;
    t.where = where(node);
    if (node.is_type<g::variable>()) {
      t.kind = Term::Kind::kVar;
      t.name = node.children.at(0)->string();
    } else if (node.is_type<g::int_literal>()) {
      t.kind = Term::Kind::kInt;
      t.int_value = integer(node);
    } else if (node.is_type<g::float_literal>()) {
      t.kind = Term::Kind::kFloat;
      t.float_value = std::strtod(node.string().c_str(), nullptr);
      if (!std::isfinite(t.float_value))
        diagnostics_.error(where(node), fmt::format("number {} is out of range", node.string()));
    } else if (node.is_type<g::list_literal>()) {
      t.kind = Term::Kind::kList;
      for (const auto& element : node.children) t.list.push_back(integer(*element));
    } else {  // application
      t.kind = Term::Kind::kApply;
      t.name = node.children.at(0)->string();
      for (std::size_t i = 1; i < node.children.size(); ++i)
        t.args.push_back(term(*node.children[i]));
    }
    return t;
  }

  // `height` receives the height of the returned tree. The grammar limits how deeply rules nest,
  // but an operator chain (1 + 1 + ... + 1) is flat in the parse tree and nests to the left here.
  Expr expr(const Node& node, std::size_t& height) {
    Expr e;
    e.where = where(node);
    height = 1;
    if (node.is_type<g::int_literal>()) {
      e.kind = Expr::Kind::kInt;
      e.value = integer(node);
    } else if (node.is_type<g::variable>()) {
      e.kind = Expr::Kind::kVar;
      e.name = node.children.at(0)->string();
    } else if (node.is_type<g::call>()) {
      e.kind = Expr::Kind::kCall;
      e.name = node.children.at(0)->string();
      for (std::size_t i = 1; i < node.children.size(); ++i) {
        std::size_t operand = 0;
        e.operands.push_back(expr(*node.children[i], operand));
        height = std::max(height, operand + 1);
      }
    } else if (node.is_type<g::negation>()) {
      e.kind = node.children.at(0)->is_type<g::not_op>() ? Expr::Kind::kNot : Expr::Kind::kNeg;
      std::size_t operand = 0;
      e.operands.push_back(expr(*node.children.at(1), operand));
      height = operand + 1;
    } else {
      // A folded chain: operand (operator operand)*, left-associative.
      e = expr(*node.children.at(0), height);
      for (std::size_t i = 1; i + 1 < node.children.size(); i += 2) {
        std::size_t right = 0;
        Expr binary;
        binary.kind = Expr::Kind::kBinary;
        binary.where = where(*node.children[i]);
        binary.name = node.children[i]->string();
        binary.operands.push_back(std::move(e));
        binary.operands.push_back(expr(*node.children[i + 1], right));
        e = std::move(binary);
        height = std::max(height, right) + 1;
        if (height > kMaxHeight) {  // the rest of the chain is left out
          if (!too_deep_) diagnostics_.error(e.where, too_deep(kMaxHeight));
          too_deep_ = true;
          break;
        }
      }
    }
    return e;
  }

  RuleFile& file_;
  Diagnostics& diagnostics_;
  std::vector<std::string> comments_;
  bool too_deep_ = false;  // reported for the current item
};

// The comment lines in a stretch of blanks and comments.
std::vector<std::string> comment_lines(std::string_view blanks) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while ((at = blanks.find('#', at)) != std::string_view::npos) {
    const std::size_t end = blanks.find('\n', at);
    std::string_view line =
        blanks.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    lines.emplace_back(line);
    if (end == std::string_view::npos) break;
    at = end;
  }
  return lines;
}

// Where parsing resumes after an error at `error` in an item that began at `item`: the first
// line that begins (after blanks) with an item keyword, from the error's own line on (an item that
// swallowed the next line's keyword is cut there) but after the failed item's first line.
std::size_t next_item(std::string_view text, std::size_t item, std::size_t error) {
  std::size_t line = error == 0 ? std::string_view::npos : text.rfind('\n', error - 1);
  if (line == std::string_view::npos || line < item) line = text.find('\n', item);
  while (line != std::string_view::npos) {
    std::size_t start = line + 1;
    while (start < text.size() && (text[start] == ' ' || text[start] == '\t')) ++start;
    const std::string_view rest = text.substr(start);
    for (std::string_view keyword :
         {"rule ", "rule\t", "axiom ", "axiom\t", "ruleset ", "include ", "@tags", "@verified"}) {
      if (rest.substr(0, keyword.size()) == keyword) return start;
    }
    line = text.find('\n', start);
  }
  return text.size();
}

struct Cursor {
  std::size_t byte = 0, line = 1, column = 1;
};

// Moves the cursor over text[cursor.byte, to).
void advance(std::string_view text, Cursor& cursor, std::size_t to) {
  for (; cursor.byte < to; ++cursor.byte) {
    if (text[cursor.byte] == '\n') {
      ++cursor.line;
      cursor.column = 1;
    } else {
      ++cursor.column;
    }
  }
}

struct whole_term : pegtl::seq<g::sp, g::term, g::sp, pegtl::eof> {};

}  // namespace

std::optional<Term> parse_term_text(std::string_view text, const std::string& path,
                                    std::uint32_t line, Diagnostics& diagnostics) {
  RuleFile scratch;
  scratch.path = path;
  Builder builder(scratch, diagnostics);
  pegtl::memory_input<> in(text.data(), text.data() + text.size(), path, 0, line, 1);
  try {
    const auto root = pt::parse<whole_term, Selector, Actions, Control>(in);
    if (root && !root->children.empty()) return builder.term_of(*root);
    diagnostics.error(SourceLocation::at(path, line, 1), "expected a single pattern term");
  } catch (const pegtl::parse_error& e) {
    const auto& position = e.positions().front();
    diagnostics.error(SourceLocation::at(path, static_cast<std::uint32_t>(position.line),
                                         static_cast<std::uint32_t>(position.column)),
                      std::string(e.message()));
  }
  return std::nullopt;
}

RuleFile parse_rule_text(std::string text, const std::string& path, Diagnostics& diagnostics) {
  RuleFile file;
  file.path = path;
  file.text = std::move(text);
  diagnostics.add_source(path, file.text);
  const std::string_view source = file.text;
  Builder builder(file, diagnostics);
  Cursor cursor;
  while (true) {
    std::vector<std::string> comments;
    {  // skip blanks and comments
      pegtl::memory_input<> in(source.data() + cursor.byte, source.data() + source.size(), path,
                               cursor.byte, cursor.line, cursor.column);
      pegtl::parse<g::sp>(in);
      const auto end = static_cast<std::size_t>(in.current() - source.data());
      comments = comment_lines(source.substr(cursor.byte, end - cursor.byte));
      advance(source, cursor, end);
    }
    if (cursor.byte >= source.size()) {
      file.trailing_comments = std::move(comments);
      break;
    }
    pegtl::memory_input<> in(source.data() + cursor.byte, source.data() + source.size(), path,
                             cursor.byte, cursor.line, cursor.column);
    try {
      const auto root = pt::parse<g::item, Selector, Actions, Control>(in);
      if (root) {
        builder.item(*root, std::move(comments));
        advance(source, cursor, static_cast<std::size_t>(in.current() - source.data()));
        continue;
      }
      diagnostics.error(SourceLocation::at(path, static_cast<std::uint32_t>(cursor.line),
                                           static_cast<std::uint32_t>(cursor.column)),
                        "expected 'rule', 'axiom', 'ruleset', 'include', '@tags' or '@verified'");
      advance(source, cursor, next_item(source, cursor.byte, cursor.byte));
    } catch (const pegtl::parse_error& e) {
      const auto& position = e.positions().front();
      diagnostics.error(SourceLocation::at(path, static_cast<std::uint32_t>(position.line),
                                           static_cast<std::uint32_t>(position.column)),
                        std::string(e.message()));
      advance(source, cursor, next_item(source, cursor.byte, std::max(position.byte, cursor.byte)));
    }
  }
  return file;
}

}  // namespace mctsat::dsl
