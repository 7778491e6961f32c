// Rule synthesis (`mctsat rules synthesize`), the driver. synthesize() runs these stages in
// order, each a function of synthesizer.cpp:
//  1. enumerate_terms: terms of up to `max_ops` operators, bottom-up (term_enumeration.hpp), each
//     size fingerprinted (term_fingerprint.hpp) before the next is grown from its
//     representatives.
//  2. propose_pairs: concat rules from pairs of one-operator terms (pair_terms.hpp).
//  3. propose_candidates: equalities inside fingerprint buckets (candidate_rules.hpp), ordered
//     by size (both sides' operators).
//  4. accept_candidates: in small windows, in order: (a) drop candidates that the rules accepted
//     so far (and the existing rules given) derive within two iterations of equality saturation
//     (a window's candidates in one e-graph; verify/rule_derivation.hpp); (b) verify the rest in
//     parallel (candidate_verification.hpp: shape soundness with Z3, numeric tests) - first
//     without a condition, then under the shape conditions read from the variables'
//     declarations, weakest first (a stronger one only where the weaker ones fail); (c) accept
//     the verified ones in order unless those rules or an earlier acceptance derive them (the
//     full bounded derivation, each candidate on its own).
//  5. add_merge_rules: merge rules read off the accepted concat rules (merge_rules.hpp), verified
//     the same way; a merge that fails refutes (and removes) its concat rule.
//  6. final_test (final_samples > 0): a numeric test with more samples drops what it refutes
//     (numeric only: the rules passed the shape check as written); a refuted rule written
//     without a condition (and without a merge rule) is first tested under the declared shapes'
//     conditions, weakest first, and kept with the first that passes.
//  7. rule_file: the rule file's text (rule_writing.hpp).
// Verdicts can be kept on disk (verify.cache_dir) for a larger run to reuse. Only verified rules
// are accepted; every rejected candidate keeps its counterexample.
//
// Deterministic: the same vocabulary, options and seed give the same rules for every thread
// count and on any machine load (fingerprints and verification run in parallel into fixed slots;
// acceptance is serial; the verifier's Z3 queries are bounded by steps, not time:
// verify/z3_limit.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dsl/rule_library.hpp"
#include "synth/rule_writing.hpp"
#include "synth/synthesis_vocabulary.hpp"
#include "synth/term_fingerprint.hpp"
#include "verify/rule_derivation.hpp"
#include "verify/verifier.hpp"

namespace mctsat::synth {

struct SynthesisOptions {
  std::size_t max_ops = 2;            // operators per side at most
  std::size_t max_terms = 1'000'000;  // new terms per size at most (then an evenly spaced
                                      // sample of them, term_enumeration.hpp)
  bool representatives_only = true;   // grow terms from one term per fingerprint (Ruler)
  bool merges = true;                 // two-output merge rules from concat rules (merge_rules.hpp)
  std::size_t final_samples = 0;      // > 0: written rules are tested again with this many
                                      // numeric samples (another seed); failures are dropped
  bool minimize_conditions = false;   // drop the atoms of a `where` a rule verifies without
  bool pairs = true;  // also propose concat rules from pairs of graphs (pair_terms.hpp)
  FingerprintOptions fingerprint;
  mctsat::verify::VerifyOptions verify;  // jobs are taken from fingerprint.jobs
  mctsat::verify::DerivationLimits derivation;
  std::string ruleset = "synthesized";
  std::optional<std::string> cache_path;             // fingerprint cache file
  std::function<void(const std::string&)> progress;  // one line per stage, for a person
};

struct RejectedCandidate {
  std::string rule;    // "LHS => RHS"
  std::string reason;  // the failing check and its counterexample
};

struct SynthesisStage {
  std::size_t ops = 0;  // terms of this many operators
  std::size_t terms = 0, well_formed = 0, kept = 0;
  std::size_t fitting = 0;  // the terms of this size the smaller ones allow (more when truncated)
  bool truncated = false;
};

struct SynthesisReport {
  std::vector<WrittenRule> rules;  // verified and not derivable from one another, in order, then
                                   // the verified merge rules
  std::size_t merges = 0;          // merge rules among them
  std::vector<RejectedCandidate> rejected;
  std::vector<SynthesisStage> stages;
  std::size_t candidates = 0;  // proposed equalities
  std::size_t derivable = 0;   // dropped: derived from accepted or existing rules
  std::size_t verified = 0;    // passed verification (some later found derivable)
  std::size_t cache_hits = 0;
  // Numeric samples selected by an earlier check (sample_cache.hpp); checks answered by the
  // verification cache (verify.cache_dir).
  std::size_t sample_cache_hits = 0, verify_cache_hits = 0;
  std::size_t dropped_atoms = 0;    // condition atoms dropped by minimize_conditions
  std::size_t pair_candidates = 0;  // concat rules proposed from pairs of graphs (pair_terms.hpp)
  double enumerate_seconds = 0, fingerprint_seconds = 0, verify_seconds = 0, derive_seconds = 0,
         seconds = 0;
  std::string text;  // the rule file
};

// `existing`: rules whose consequences are not proposed (may be empty).
SynthesisReport synthesize(const SynthesisVocabulary& vocabulary,
                           const std::vector<dsl::CheckedRule>& existing,
                           const SynthesisOptions& options);

}  // namespace mctsat::synth
