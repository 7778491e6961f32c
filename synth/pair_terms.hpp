// Terms for two-output rules from pairs of graphs (TASO's `(relu ?x), (relu ?y)` merges, beyond
// the concat rules that bounded enumeration happens to find): for two different one-operator
// terms A and B of the same operator choice,
//   - the pair terms (concat axis A B), one per concat choice of the vocabulary, and
//   - the joined terms computing both at once: the same choice applied to arguments that are A's
//     where A's and B's are the same term and otherwise concatenated, on any concat choice's
//     axis; with enlarge in the vocabulary, also with either argument first enlarged to the
//     other's size (two convolutions with kernels of different sizes), unless the two are
//     variables of the same shape in every instance.
// The synthesizer fingerprints them with the enumerated terms: a pair term and a joined term in
// one bucket are a candidate concat rule, verified like any other, and merge_rules.hpp reads the
// two-output rule off it.
#pragma once

#include <vector>

#include "synth/term_enumeration.hpp"

namespace mctsat::synth {

struct TermPair {
  TermId a = 0, b = 0;
  std::vector<TermId> concats;  // (concat axis a b), one per concat choice
};

// The pairs of `singles` (one-operator terms) with the same operator choice, a before b in the
// order given, with their pair terms added to `pool`; none without concat in the vocabulary.
std::vector<TermPair> pair_terms(TermPool& pool, const std::vector<TermId>& singles);

// The joined terms of a pair, added to `pool`.
std::vector<TermId> joined_terms(TermPool& pool, const TermPair& pair);

}  // namespace mctsat::synth
