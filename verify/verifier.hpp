// Verifying rule libraries: every rule (and axiom) through the three checks — shape soundness,
// proof from the axioms, numeric testing — in parallel with oneTBB (each check builds its own Z3
// context, so no context is shared between threads), with results cached on disk by a hash of
// the rule's text, the axioms and the options.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "dsl/verification_level.hpp"
#include "verify/axiom_check.hpp"
#include "verify/numeric_check.hpp"
#include "verify/shape_check.hpp"

namespace mctsat::verify {

struct EquationReport;

struct VerifyOptions {
  ShapeCheckOptions shape;
  AxiomCheckOptions proof;
  NumericCheckOptions numeric;
  // Only the numeric test (shape and proof "not checked"): for testing rules that passed the
  // other checks before with the same text, e.g. with more samples.
  bool numeric_only = false;
  // No numeric test for a rule the shape check refutes (numeric "skipped"): for callers that only
  // need the verdict, e.g. synthesis rejecting candidates.
  bool skip_numeric_after_shape_failure = false;
  std::size_t jobs = 0;                  // threads; 0 = every core
  std::optional<std::string> cache_dir;  // unset: no cache
  // Progress: called once per rule or axiom as soon as its checks finish (in completion order,
  // one call at a time, from a worker thread), with how many are done out of how many.
  std::function<void(const EquationReport&, std::size_t done, std::size_t total)> on_verified;
};

struct EquationReport {
  std::string name;
  bool axiom = false;
  SourceLocation where;
  std::string text;
  CheckResult shape, proof, numeric;
  bool cached = false;
  // A check failed, or (for a rule) nothing showed its sides agree: neither the proof from the
  // axioms nor the numeric test passed. "unknown" is never success: a rule whose right-hand side
  // is never well-formed where its left-hand side is has no numeric sample and no proof.
  bool failed() const;
  bool unverified() const;  // a rule with no failed check that neither proof nor numeric passed
  // The level a rule's checks show (dsl/verification_level.hpp): axioms when the shapes and the
  // proof pass, else shapes when the shapes and the numeric test pass, else samples when the
  // numeric test passes; nullopt for an axiom, a failed rule, or none of these.
  std::optional<dsl::VerificationLevel> level() const;
};

// Why an unverified() rule is not verified, for a person.
std::string unverified_reason(const EquationReport& report);

// `rules` (each proved from all of the library's axioms), then `axioms` (shape and numeric
// checks only: they are the assumptions), in the order given.
std::vector<EquationReport> verify_library(const dsl::RuleLibrary& library,
                                           const std::vector<dsl::CheckedRule>& rules,
                                           const std::vector<dsl::CheckedAxiom>& axioms,
                                           const VerifyOptions& options);

// For commands that run rules (`optimize --verify-rules`, the study library): verifies `rules`
// with default options and the default cache, and throws an Error naming every rule that fails
// a check, with its counterexample.
void require_sound(const dsl::RuleLibrary& library, const std::vector<dsl::CheckedRule>& rules);
void require_sound(const dsl::RuleLibrary& library, const dsl::RuleSet& rules);

// For commands that run rules without --verify-rules: when some of `rules` come from files that
// are not shipped (outside `shipped_dir`, the installed rule library) and have no passing
// verification in the cache (what `mctsat verify FILE` leaves there with default options), a
// warning that says how many, from which files, and how to verify them; nullopt otherwise. Checks
// nothing itself: it only reads the cache.
std::optional<std::string> unverified_rules_warning(const dsl::RuleLibrary& library,
                                                    const std::vector<dsl::CheckedRule>& rules,
                                                    const std::string& shipped_dir,
                                                    const std::optional<std::string>& cache_dir);
std::optional<std::string> unverified_rules_warning(const dsl::RuleLibrary& library,
                                                    const dsl::RuleSet& rules,
                                                    const std::string& shipped_dir,
                                                    const std::optional<std::string>& cache_dir);

// What `verify` checks in a library: every rule and axiom, or only those named in `only` (in the
// order named; a name matching none is an Error, prefixed by `only_option`, e.g. "--only").
// Proofs need axioms: when the library's files declare none, the axioms of `shipped_axioms` (a
// rule file) are loaded into `library` first, and `axioms_source` says where they came from.
struct VerifyTargets {
  std::vector<dsl::CheckedRule> rules;
  std::vector<dsl::CheckedAxiom> axioms;
  std::string axioms_source;  // "the files given" or the shipped axioms' file
};
VerifyTargets verify_targets(dsl::RuleLibrary& library, const std::vector<std::string>& only,
                             const std::string& only_option, const std::string& shipped_axioms);

// $XDG_CACHE_HOME/mctsat/verify, else ~/.cache/mctsat/verify; nullopt without a home.
std::optional<std::string> default_cache_dir();

}  // namespace mctsat::verify
