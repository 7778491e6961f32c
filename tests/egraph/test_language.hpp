// A small language for the e-graph engine's unit tests, written as s-expressions so that terms,
// patterns and rules read like egg's: leaves a b c d e x y z (operator kLeaf, told apart by their
// payload), integer literals such as 0 or -3 (operator kNum, the value as payload), operators f g h
// k p q r + * / of any arity, an explicit payload as `f/7`, and pattern variables ?0, ?1, ...
// Also rule sets owning their rewrites (with the span of pointers the Runner takes).
#pragma once

#include <cctype>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/pattern.hpp"
#include "egraph/rewrite.hpp"

namespace eglang {

using mctsat::egraph::EGraph;
using mctsat::egraph::Id;
using mctsat::egraph::OpCode;
using mctsat::egraph::Pattern;
using mctsat::egraph::Rewrite;
using mctsat::egraph::VarId;

inline constexpr OpCode kLeaf = 0, kNum = 1, kF = 2, kG = 3, kH = 4, kK = 5, kP = 6, kQ = 7, kR = 8,
                        kAdd = 9, kMul = 10, kDiv = 11;

// Leaf names and their payloads.
inline const std::map<std::string, std::int64_t>& leaves() {
  static const std::map<std::string, std::int64_t> table{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4},
                                                         {"e", 5}, {"x", 6}, {"y", 7}, {"z", 8}};
  return table;
}
inline const std::map<std::string, OpCode>& operators() {
  static const std::map<std::string, OpCode> table{{"f", kF},   {"g", kG},  {"h", kH}, {"k", kK},
                                                   {"p", kP},   {"q", kQ},  {"r", kR}, {"+", kAdd},
                                                   {"*", kMul}, {"/", kDiv}};
  return table;
}

struct Term {
  bool is_var = false;
  VarId var = 0;
  OpCode op = 0;
  std::int64_t payload = 0;
  std::vector<Term> children;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Term parse() {
    Term term = parse_term();
    skip_space();
    if (pos_ != text_.size()) fail("trailing input");
    return term;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("test s-expression '" + std::string(text_) + "': " + what);
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string token() {
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
           text_[pos_] != '(' && text_[pos_] != ')')
      ++pos_;
    if (start == pos_) fail("expected a token");
    return std::string(text_.substr(start, pos_ - start));
  }

  Term parse_term() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    if (text_[pos_] != '(') return atom(token());
    ++pos_;
    Term term = operator_of(token());
    for (;;) {
      skip_space();
      if (pos_ >= text_.size()) fail("missing ')'");
      if (text_[pos_] == ')') break;
      term.children.push_back(parse_term());
    }
    ++pos_;
    return term;
  }

  Term atom(const std::string& word) const {
    Term term;
    if (word[0] == '?') {
      term.is_var = true;
      term.var = static_cast<VarId>(std::stoul(word.substr(1)));
    } else if (std::isdigit(static_cast<unsigned char>(word.back()))) {
      term.op = kNum;
      term.payload = std::stoll(word);
    } else if (const auto leaf = leaves().find(word); leaf != leaves().end()) {
      term.op = kLeaf;
      term.payload = leaf->second;
    } else {
      fail("unknown atom '" + word + "'");
    }
    return term;
  }

  Term operator_of(const std::string& word) const {
    const std::size_t slash = word.find('/', 1);
    const std::string name = word.substr(0, slash);
    const auto found = operators().find(name);
    if (found == operators().end()) fail("unknown operator '" + name + "'");
    Term term;
    term.op = found->second;
    if (slash != std::string::npos) term.payload = std::stoll(word.substr(slash + 1));
    return term;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

inline Term parse(std::string_view text) {
  return Parser(text).parse();
}

namespace detail {
inline std::uint32_t to_pattern(const Term& term, Pattern& out) {
  if (term.is_var) return out.var(term.var);
  std::vector<std::uint32_t> children;
  for (const Term& child : term.children) children.push_back(to_pattern(child, out));
  return out.node(term.op, term.payload, std::move(children));
}
inline void max_var(const Term& term, std::int64_t& best) {
  if (term.is_var) best = std::max<std::int64_t>(best, term.var);
  for (const Term& child : term.children) max_var(child, best);
}
template <class Analysis>
Id add_term(EGraph<Analysis>& egraph, const Term& term) {
  if (term.is_var) throw std::invalid_argument("a variable in a ground term");
  typename EGraph<Analysis>::ChildIds children;
  for (const Term& child : term.children) children.push_back(add_term(egraph, child));
  return egraph.add(term.op, term.payload, mctsat::egraph::id_span(children));
}
template <class Analysis>
std::optional<Id> lookup_term(const EGraph<Analysis>& egraph, const Term& term) {
  typename EGraph<Analysis>::ChildIds children;
  for (const Term& child : term.children) {
    const auto id = lookup_term(egraph, child);
    if (!id) return std::nullopt;
    children.push_back(*id);
  }
  return egraph.lookup(term.op, term.payload, mctsat::egraph::id_span(children));
}
}  // namespace detail

inline Pattern pattern(std::string_view text) {
  Pattern out;
  detail::to_pattern(parse(text), out);
  return out;
}

// Adds a ground term bottom-up and returns its class.
template <class Analysis>
Id add(EGraph<Analysis>& egraph, std::string_view text) {
  return detail::add_term(egraph, parse(text));
}
// The class of a ground term, if the e-graph holds it (canonical when the e-graph is clean).
template <class Analysis>
std::optional<Id> lookup(const EGraph<Analysis>& egraph, std::string_view text) {
  return detail::lookup_term(egraph, parse(text));
}

// The class of a ground term the e-graph must hold (throws, failing the test, when it does not).
template <class Analysis>
Id id_of(const EGraph<Analysis>& egraph, std::string_view text) {
  const std::optional<Id> id = lookup(egraph, text);
  if (!id) throw std::runtime_error("the e-graph lacks the term " + std::string(text));
  return *id;
}

// A rewrite from s-expressions; variables are numbered by the texts, num_vars is one more than the
// largest.
template <class Analysis>
std::unique_ptr<Rewrite<Analysis>> rewrite(
    std::string name, const std::vector<std::string_view>& lhs,
    const std::vector<std::string_view>& rhs,
    std::vector<mctsat::egraph::Condition<Analysis>> conditions = {}) {
  std::vector<Pattern> lhs_patterns, rhs_patterns;
  std::int64_t top = -1;
  for (std::string_view text : lhs) {
    detail::max_var(parse(text), top);
    lhs_patterns.push_back(pattern(text));
  }
  for (std::string_view text : rhs) {
    detail::max_var(parse(text), top);
    rhs_patterns.push_back(pattern(text));
  }
  return std::make_unique<Rewrite<Analysis>>(
      std::move(name), std::move(lhs_patterns), std::move(rhs_patterns),
      static_cast<std::uint32_t>(top + 1), std::move(conditions));
}

// Rewrites owned together, with the pointer list the Runner takes.
template <class Analysis>
struct RuleSet {
  std::vector<std::unique_ptr<Rewrite<Analysis>>> owned;
  std::vector<const Rewrite<Analysis>*> pointers;

  RuleSet& add(std::unique_ptr<Rewrite<Analysis>> rule) {
    pointers.push_back(rule.get());
    owned.push_back(std::move(rule));
    return *this;
  }
  RuleSet& add(std::string name, std::string_view lhs, std::string_view rhs,
               std::vector<mctsat::egraph::Condition<Analysis>> conditions = {}) {
    return add(rewrite<Analysis>(std::move(name), {lhs}, {rhs}, std::move(conditions)));
  }
  std::span<const Rewrite<Analysis>* const> span() const { return pointers; }
  std::size_t size() const { return pointers.size(); }
  const Rewrite<Analysis>& operator[](std::size_t i) const { return *pointers[i]; }
};

}  // namespace eglang
