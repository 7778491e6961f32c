// Proposing rule candidates from fingerprints (Ruler's and TASO's idea): terms with equal
// fingerprints are bucketed; inside a bucket, ordered by size then text, every term is paired
// with the first smaller-or-equal term whose variables it contains (it becomes the right-hand
// side, so the rule can instantiate it). Trivial candidates (both sides the same term) cannot
// arise; candidates equal up to renaming variables are proposed once. Variables are renamed in
// order of first occurrence (x, y, z, u, v, w, then x7, x8, ...), and both orientations of a
// candidate whose sides use the same variables are one `<=>` rule, unless the right-hand side is
// a bare variable (it cannot be matched) or part of the left-hand side (read backwards, the rule
// would wrap a term in itself).
//
// Also the `where` conditions a candidate may need, read from the variables' symbolic shapes:
// variables declared with the same shape are same_shape, repeated symbols give dimension
// equalities, literals fix dimensions, and every variable has its declared rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "synth/term_enumeration.hpp"
#include "synth/term_fingerprint.hpp"

namespace mctsat::synth {

struct CandidateRule {
  TermId lhs = 0, rhs = 0;
  std::string lhs_text, rhs_text;      // with the canonical variable names
  std::vector<std::string> variables;  // canonical name of each vocabulary variable ("" unused)
  bool bidirectional = false;          // both sides use the same variables: `<=>`
  Fingerprint fingerprint;
  std::size_t lhs_ops = 0, rhs_ops = 0;
  std::size_t size() const { return lhs_ops + rhs_ops; }
};

// Two terms already known to agree (equal fingerprints): proposed as they are, lhs => rhs.
struct ProposedPair {
  TermId lhs = 0, rhs = 0;
  Fingerprint fingerprint;
};

// Candidates from the fingerprinted terms `ids` (index for index with `fingerprints`; ill-formed
// terms are skipped) and from `pairs` (unless the same candidate came from a bucket, or rhs uses
// a variable lhs does not), ordered by size (both sides' operators), then by more variables
// first, then text: a deterministic order.
std::vector<CandidateRule> propose_candidates(const TermPool& pool, const std::vector<TermId>& ids,
                                              const std::vector<Fingerprint>& fingerprints,
                                              const std::vector<ProposedPair>& pairs = {});

struct ShapeConditions {
  std::vector<std::string> same_shapes;  // same_shape(?x, ?y) atoms
  std::vector<std::string> dims;         // dim(?x, i) == dim(?y, j) and dim(?x, i) == n atoms
  std::vector<std::string> ranks;        // rank(?x) == r atoms
};
ShapeConditions shape_conditions(const CandidateRule& candidate,
                                 const SynthesisVocabulary& vocabulary);

}  // namespace mctsat::synth
