// The PEGTL grammar of rule files, one small named rule per construct. The parse tree keeps the
// rules listed in parser.cpp's selector; `must<>` points errors at the construct that was
// expected, with the messages in `expected_message` below.
//
//   ruleset taso
//   include "conv.rules"
//   @tags(matmul, assoc)
//   @verified(axioms)
//   rule matmul-assoc: (matmul ?act (matmul 0 ?a ?b) ?c) => (matmul ?act ?a (matmul 0 ?b ?c))
//   rule ewadd-comm: (ewadd ?x ?y) <=> (ewadd ?y ?x)
//   rule share: (matmul 0 ?x ?w1), (matmul 0 ?x ?w2) => A, B where rank(?w1) == 2
//   axiom ewadd-assoc: forall ?x ?y ?z. (ewadd ?x (ewadd ?y ?z)) == (ewadd (ewadd ?x ?y) ?z)
#pragma once

#include <string_view>

#include <tao/pegtl.hpp>

namespace mctsat::dsl::grammar {

namespace pegtl = tao::pegtl;
using pegtl::alnum;
using pegtl::alpha;
using pegtl::at;
using pegtl::digit;
using pegtl::eof;
using pegtl::eolf;
using pegtl::if_must;
using pegtl::list;
using pegtl::must;
using pegtl::not_at;
using pegtl::one;
using pegtl::opt;
using pegtl::plus;
using pegtl::ranges;
using pegtl::seq;
using pegtl::sor;
using pegtl::star;
using pegtl::until;

// Blanks and comments (# to the end of the line).
struct comment : seq<one<'#'>, until<eolf>> {};
struct blank : sor<pegtl::space, comment> {};
struct sp : star<blank> {};

struct ident_first : ranges<'a', 'z', 'A', 'Z', '_'> {};
struct ident_rest : ranges<'a', 'z', 'A', 'Z', '0', '9', '_', '_', '-', '-', '.', '.'> {};
struct name : seq<ident_first, star<ident_rest>> {};
template <class Word>
struct keyword : seq<Word, not_at<ident_rest>> {};

// Terms.
struct var_name : seq<ident_first, star<ranges<'a', 'z', 'A', 'Z', '0', '9', '_'>>> {};
struct variable : seq<one<'?'>, must<var_name>> {};
struct digits : plus<digit> {};
struct exponent : seq<one<'e', 'E'>, opt<one<'+', '-'>>, must<digits>> {};
struct float_literal
    : seq<opt<one<'-'>>, digits, sor<seq<one<'.'>, digits, opt<exponent>>, exponent>> {};
struct int_literal : seq<opt<one<'-'>>, digits, not_at<ident_first>> {};
struct number : sor<float_literal, int_literal> {};
struct list_literal
    : if_must<one<'['>, sp, opt<list<int_literal, seq<sp, one<','>, sp>>>, sp, one<']'>> {};
struct op_name : name {};
struct term;
struct application : if_must<one<'('>, sp, op_name, star<sp, term>, sp, one<')'>> {};
struct term : sor<variable, application, number, list_literal> {};

// Conditions.
struct expression;
struct call_name
    : sor<keyword<TAO_PEGTL_STRING("rank")>, keyword<TAO_PEGTL_STRING("dim")>,
          keyword<TAO_PEGTL_STRING("numel")>, keyword<TAO_PEGTL_STRING("same_shape")>> {};
struct call : seq<call_name, sp, must<one<'('>>, sp, must<list<expression, seq<sp, one<','>, sp>>>,
                  sp, must<one<')'>>> {};
struct parenthesized : if_must<one<'('>, sp, expression, sp, one<')'>> {};
struct primary : sor<call, variable, int_literal, parenthesized> {};
struct negate_op : one<'-'> {};
struct not_op : keyword<TAO_PEGTL_STRING("not")> {};
struct unary;
struct negation : if_must<sor<negate_op, not_op>, sp, unary> {};
struct unary : sor<negation, primary> {};
struct mul_op : one<'*', '/', '%'> {};
struct product : seq<unary, star<sp, mul_op, sp, must<unary>>> {};
struct add_op : one<'+', '-'> {};
struct sum : seq<product, star<sp, add_op, sp, must<product>>> {};
struct compare_op : sor<TAO_PEGTL_STRING("=="), TAO_PEGTL_STRING("!="), TAO_PEGTL_STRING("<="),
                        TAO_PEGTL_STRING(">="), one<'<'>, one<'>'>> {};
struct comparison : seq<sum, opt<sp, compare_op, sp, must<sum>>> {};
struct and_op : keyword<TAO_PEGTL_STRING("and")> {};
struct conjunction : seq<comparison, star<sp, and_op, sp, must<comparison>>> {};
struct or_op : keyword<TAO_PEGTL_STRING("or")> {};
struct expression : seq<conjunction, star<sp, or_op, sp, must<conjunction>>> {};

// Declarations.
struct terms : list<term, seq<sp, one<','>, sp>> {};
struct lhs : terms {};
struct rhs : terms {};
struct forward_arrow : TAO_PEGTL_STRING("=>") {};
struct both_arrow : TAO_PEGTL_STRING("<=>") {};
struct arrow : sor<both_arrow, forward_arrow> {};
struct where_clause : if_must<keyword<TAO_PEGTL_STRING("where")>, sp, expression> {};
struct rule_name : name {};
struct tag : name {};
struct tags : if_must<TAO_PEGTL_STRING("@tags"), sp, one<'('>, sp, list<tag, seq<sp, one<','>, sp>>,
                      sp, one<')'>> {};
struct verified_level : name {};
struct verified
    : if_must<TAO_PEGTL_STRING("@verified"), sp, one<'('>, sp, verified_level, sp, one<')'>> {};
struct rule_body : seq<must<lhs>, sp, must<arrow>, sp, must<rhs>, opt<sp, where_clause>> {};
struct rule_decl
    : if_must<keyword<TAO_PEGTL_STRING("rule")>, sp, rule_name, sp, one<':'>, sp, rule_body> {};
struct forall : if_must<keyword<TAO_PEGTL_STRING("forall")>, star<sp, variable>, sp, one<'.'>> {};
struct axiom_body : seq<opt<forall, sp>, must<lhs>, sp, must<TAO_PEGTL_STRING("==")>, sp, must<rhs>,
                        opt<sp, where_clause>> {};
struct axiom_decl
    : if_must<keyword<TAO_PEGTL_STRING("axiom")>, sp, rule_name, sp, one<':'>, sp, axiom_body> {};
struct annotated : seq<star<sor<tags, verified>, sp>, sor<rule_decl, axiom_decl>> {};
struct ruleset_name : name {};
struct ruleset_decl : if_must<keyword<TAO_PEGTL_STRING("ruleset")>, sp, ruleset_name> {};
struct path_text : star<pegtl::not_one<'"', '\n'>> {};
struct include_decl
    : if_must<keyword<TAO_PEGTL_STRING("include")>, sp, one<'"'>, path_text, one<'"'>> {};
// One top-level item; the parser parses items one at a time so that it can report an error and
// resume at the next item.
struct item : sor<ruleset_decl, include_decl, annotated> {};
struct item_start : sor<keyword<TAO_PEGTL_STRING("ruleset")>, keyword<TAO_PEGTL_STRING("include")>,
                        keyword<TAO_PEGTL_STRING("rule")>, keyword<TAO_PEGTL_STRING("axiom")>,
                        TAO_PEGTL_STRING("@tags"), TAO_PEGTL_STRING("@verified")> {};

template <class Rule>
constexpr std::string_view expected_message() {
  if constexpr (std::is_same_v<Rule, var_name>)
    return "expected a variable name after '?'";
  else if constexpr (std::is_same_v<Rule, digits>)
    return "expected digits";
  else if constexpr (std::is_same_v<Rule, op_name>)
    return "expected an operator name after '('";
  else if constexpr (std::is_same_v<Rule, lhs>)
    return "expected a pattern: (op ...), ?var, a number or [list]";
  else if constexpr (std::is_same_v<Rule, rhs>)
    return "expected a pattern: (op ...), ?var, a number or [list]";
  else if constexpr (std::is_same_v<Rule, arrow>)
    return "expected '=>' or '<=>' after the left-hand side";
  else if constexpr (std::is_same_v<Rule, rule_name>)
    return "expected a rule name";
  else if constexpr (std::is_same_v<Rule, ruleset_name>)
    return "expected a ruleset name";
  else if constexpr (std::is_same_v<Rule, tag>)
    return "expected a tag name";
  else if constexpr (std::is_same_v<Rule, verified_level>)
    return "expected a verification level: samples, shapes or axioms";
  else if constexpr (std::is_same_v<Rule, expression>)
    return "expected a condition";
  else if constexpr (std::is_same_v<Rule, unary>)
    return "expected an operand";
  else if constexpr (std::is_same_v<Rule, product>)
    return "expected an operand";
  else if constexpr (std::is_same_v<Rule, sum>)
    return "expected an operand";
  else if constexpr (std::is_same_v<Rule, comparison>)
    return "expected a comparison";
  else if constexpr (std::is_same_v<Rule, conjunction>)
    return "expected a condition";
  else if constexpr (std::is_same_v<Rule, TAO_PEGTL_STRING("==")>)
    return "expected '==' between the sides of an axiom";
  else if constexpr (std::is_same_v<Rule, one<')'>>)
    return "expected ')'";
  else if constexpr (std::is_same_v<Rule, one<'('>>)
    return "expected '('";
  else if constexpr (std::is_same_v<Rule, one<']'>>)
    return "expected ']' or ', <integer>'";
  else if constexpr (std::is_same_v<Rule, one<':'>>)
    return "expected ':' after the name";
  else if constexpr (std::is_same_v<Rule, one<'.'>>)
    return "expected '.' after the forall variables";
  else if constexpr (std::is_same_v<Rule, one<'"'>>)
    return "expected a quoted path";
  else if constexpr (std::is_same_v<Rule, rule_body>)
    return "expected the rule's patterns";
  else if constexpr (std::is_same_v<Rule, axiom_body>)
    return "expected the axiom's sides";
  else if constexpr (std::is_same_v<Rule, sp>)
    return "unexpected input";
  else
    return "syntax error";
}

}  // namespace mctsat::dsl::grammar
