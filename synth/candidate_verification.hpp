// Verifying synthesized rules with verify/'s verifier (shape soundness with Z3, numeric tests):
// a batch of written rules in parallel, each alone or together with the merge rule read off it
// (merge_rules.hpp); the `where` conditions a candidate may be verified under, read from the
// declared shapes; and the atoms of a condition a rule needs. Verdicts are by rule, in the order
// given, and do not depend on the thread count (the verifier fills fixed slots).
#pragma once

#include <string>
#include <vector>

#include "synth/candidate_rules.hpp"
#include "synth/rule_writing.hpp"
#include "synth/synthesis_vocabulary.hpp"
#include "verify/verifier.hpp"

namespace mctsat::synth {

// One rule's verdict.
struct Verified {
  bool pass = false;
  std::string reason;  // why not: the failing check and its counterexample; empty when it passed
  verify::EquationReport report;
};

// Verifies `rules` (each read one way) in one library, in parallel; by rule, in order. A rule the
// rule checker rejects fails with the checker's diagnostics as its reason.
std::vector<Verified> verify_rules(const std::vector<WrittenRule>& rules,
                                   const verify::VerifyOptions& options);

// As verify_rules, each rule together with the merge rule read off it (if any): the merge follows
// from the rule and the laws of split, so a counterexample to the merge refutes the rule (the two
// tests sample different shapes).
std::vector<Verified> verify_with_merges(const std::vector<WrittenRule>& rules,
                                         const verify::VerifyOptions& options);

// The `where` conditions `candidate` may take, read from the declared shapes, weakest first: same
// shapes; then equal dimensions too; then ranks too (empty ones and repeats left out).
std::vector<std::vector<std::string>> condition_variants(const CandidateRule& candidate,
                                                         const SynthesisVocabulary& vocabulary);

// The atoms of `atoms` (the condition of `rule`, which verifies under it) that the rule needs:
// each atom is tried without (in parallel, with the verifier, together with the merge rule read
// off the rule if any); all that may go at once go
// together if the rule still verifies, else the first, and the rest are tried again.
std::vector<std::string> minimal_condition(const WrittenRule& rule, std::vector<std::string> atoms,
                                           const verify::VerifyOptions& options);

}  // namespace mctsat::synth
