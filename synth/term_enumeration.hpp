// Enumerating candidate graphs for rule synthesis, bottom-up by size: a term is a variable or an
// operator choice (operator with its attribute values, synthesis_vocabulary.hpp) applied to
// smaller terms. Terms are hash-consed (each argument tuple is built once per operator choice),
// so a term may share subterms and its size is the number of distinct operator subterms — the
// operator count of the graph it stands for: (ewadd (relu ?x) (relu ?x)) has two.
//
// Terms are trees of ids into the pool; the pool turns them into DSL pattern terms (for printing
// and for the verifier) and into concrete graphs under one shape instance (for fingerprinting).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dsl/ast.hpp"
#include "synth/synthesis_vocabulary.hpp"
#include "tensor/graph.hpp"

namespace mctsat::synth {

using TermId = std::uint32_t;

struct GraphTerm {
  static constexpr std::size_t kVariable = std::numeric_limits<std::size_t>::max();
  std::size_t choice = kVariable;  // index into SynthesisVocabulary::choices
  std::size_t variable = 0;        // a variable term: index into SynthesisVocabulary::variables
  std::vector<TermId> args;
  std::vector<TermId> operators;  // the distinct operator subterms, itself included, sorted
  std::uint64_t variables = 0;    // bit v: variable v occurs
  bool parameter = false;         // a parameter term (roles_fit in synthesis_vocabulary.hpp)
  std::size_t ops() const { return operators.size(); }
};

struct Growth {
  std::vector<TermId> ids;  // the terms made
  std::size_t fitting = 0;  // the terms the arguments allow: more than ids.size() when truncated
  bool truncated() const { return ids.size() < fitting; }
};

class TermPool {
 public:
  // A pool holding one term per variable (ids 0..variables-1). At most 64 variables.
  explicit TermPool(const SynthesisVocabulary& vocabulary);

  const SynthesisVocabulary& vocabulary() const { return vocabulary_; }
  const GraphTerm& term(TermId id) const { return terms_.at(id); }
  std::size_t size() const { return terms_.size(); }

  // Adds the terms of exactly `ops` operators whose arguments are among `usable` (terms of
  // fewer operators, with every subterm of each among them too; the caller keeps those
  // that are well-formed somewhere), with the vocabulary's roles and distinct arguments where it
  // asks for them, in a fixed order (operator choice, then the arguments'
  // positions in `usable`); returns their ids. When more than `limit` fit, `limit` of them,
  // evenly spaced in that order (a deterministic sample over every operator choice). Cost:
  // about twice the argument tuples that fit `ops` (an argument that shares operators with the
  // ones before it is looked up, not searched for); throws mctsat::Error when an operator
  // subterm of a usable term is not usable.
  Growth grow(std::size_t ops, const std::vector<TermId>& usable, std::size_t limit);

  // Adds the one term applying operator choice `choice` to `args` (terms of the pool, as many as
  // the choice's arity) and returns its id; not hash-consed with the terms grow() made.
  TermId apply(std::size_t choice, const std::vector<TermId>& args);

  // The DSL pattern term: variables as ?name, attributes as literals, arguments in the catalog's
  // positional order.
  dsl::Term dsl_term(TermId id) const;
  std::string text(TermId id) const;  // format_term of dsl_term

  // The term's graph under shape instance `instance`: an input per variable it uses (named after
  // it), one node per operator subterm, one output. Throws mctsat::Error when an operator rejects
  // its inputs there.
  tensor::Graph graph(TermId id, std::size_t instance) const;

 private:
  const SynthesisVocabulary& vocabulary_;
  std::vector<GraphTerm> terms_;
};

}  // namespace mctsat::synth
