// The rule synthesis driver (see synthesizer.hpp): synthesize() runs the stages below in order,
// each a function with its contract; they share only the inputs, the report and the progress
// callback (Run) and what one stage hands the next.
#include "synth/synthesizer.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <map>
#include <set>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "dsl/lowering.hpp"
#include "dsl/rule_library.hpp"
#include "synth/candidate_rules.hpp"
#include "synth/candidate_verification.hpp"
#include "synth/merge_rules.hpp"
#include "synth/pair_terms.hpp"
#include "synth/term_enumeration.hpp"
#include "verify/sample_cache.hpp"

namespace mctsat::synth {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Candidates are derived, verified and accepted in windows of this many, in order. Small windows
// waste little verification on candidates that an acceptance in the same window derives; the
// size is fixed, so results do not depend on the thread count.
constexpr std::size_t kWindow = 32;

// The iterations of the first derivation of a window's candidates together.
constexpr std::size_t kFirstIterations = 2;

// A progress line every this many candidates within a size.
constexpr std::size_t kProgressEvery = 10'000;

// What every stage reads or fills in: the inputs, the report, the progress lines.
struct Run {
  const SynthesisVocabulary& vocabulary;
  const SynthesisOptions& options;
  SynthesisReport& report;
  Clock::time_point start = Clock::now();

  void progress(const std::string& line) const {
    if (options.progress) options.progress(line);
  }
};

// --- Stage 1: enumerate and fingerprint -------------------------------------------------------

// The enumerated terms in order of size (the variables first), with their fingerprints.
struct Enumeration {
  std::vector<TermId> all;          // every term enumerated
  std::vector<Fingerprint> prints;  // index for index with `all`
  std::vector<TermId> usable;       // well-formed; one per fingerprint with representatives_only
};

// The variables, then the terms of 1..max_ops operators grown from the usable smaller ones (at
// most max_terms new terms per size, term_enumeration.hpp), each size fingerprinted before the
// next is grown (the values of the kept terms are remembered: larger terms are fingerprinted from
// them). Fills report.stages and the enumeration and fingerprint times; a progress line per size.
Enumeration enumerate_terms(TermPool& pool, Fingerprinter& fingerprinter, FingerprintCache* cache,
                            Run& run) {
  const SynthesisOptions& options = run.options;
  SynthesisReport& report = run.report;
  Enumeration out;
  std::set<std::pair<std::uint64_t, std::uint64_t>> represented;
  auto take = [&](const std::vector<TermId>& ids, SynthesisStage& stage) {
    const auto t0 = Clock::now();
    const auto f = fingerprinter.fingerprint(ids, cache);
    std::vector<TermId> kept;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      if (!f[k].valid()) continue;
      ++stage.well_formed;
      if (!options.representatives_only ||
          represented.insert({f[k].hash, f[k].valid_instances}).second)
        kept.push_back(ids[k]);
    }
    // Larger terms are grown from these: their values make those fingerprints cheap.
    if (stage.ops < options.max_ops) fingerprinter.remember(kept);
    report.fingerprint_seconds += since(t0);
    out.usable.insert(out.usable.end(), kept.begin(), kept.end());
    stage.kept = kept.size();
    out.all.insert(out.all.end(), ids.begin(), ids.end());
    out.prints.insert(out.prints.end(), f.begin(), f.end());
    stage.terms = ids.size();
    report.stages.push_back(stage);
  };
  {
    std::vector<TermId> variables;
    for (std::size_t v = 0; v < run.vocabulary.variables.size(); ++v)
      variables.push_back(static_cast<TermId>(v));
    SynthesisStage stage;
    stage.fitting = variables.size();
    take(variables, stage);
  }
  for (std::size_t ops = 1; ops <= options.max_ops; ++ops) {
    SynthesisStage stage;
    stage.ops = ops;
    const auto t0 = Clock::now();
    const Growth grown = pool.grow(ops, out.usable, options.max_terms);
    stage.truncated = grown.truncated();
    stage.fitting = grown.fitting;
    report.enumerate_seconds += since(t0);
    take(grown.ids, stage);
    run.progress(fmt::format(
        "{} operator{}: {} terms, {} well-formed, {} distinct fingerprints{}", ops,
        ops == 1 ? "" : "s", stage.terms, stage.well_formed, stage.kept,
        stage.truncated
            ? fmt::format(" (truncated: {} of {} terms, evenly spaced)", stage.terms, stage.fitting)
            : ""));
  }
  return out;
}

// --- Stage 2: pairs of graphs -----------------------------------------------------------------

// The candidates from pairs of the usable one-operator terms of one operator choice
// (pair_terms.hpp): every pair term (concat axis A B) with every joined term of the same pair
// that fingerprints equal to it. Fills report.pair_candidates and the fingerprint time; one
// progress line.
std::vector<ProposedPair> propose_pairs(TermPool& pool, const Fingerprinter& fingerprinter,
                                        const std::vector<TermId>& usable, FingerprintCache* cache,
                                        Run& run) {
  const auto t0 = Clock::now();
  std::vector<TermId> singles;
  for (TermId id : usable)
    if (pool.term(id).ops() == 1) singles.push_back(id);
  const std::vector<TermPair> pairs = pair_terms(pool, singles);
  std::vector<TermId> concats;
  for (const auto& pair : pairs)
    concats.insert(concats.end(), pair.concats.begin(), pair.concats.end());
  const auto concat_prints = fingerprinter.fingerprint(concats, cache);
  std::vector<ProposedPair> out;
  std::size_t next = 0;
  for (const auto& pair : pairs) {
    std::vector<std::size_t> valid;  // indices into concats
    for (std::size_t k = 0; k < pair.concats.size(); ++k, ++next)
      if (concat_prints[next].valid()) valid.push_back(next);
    if (valid.empty()) continue;
    const std::vector<TermId> joined = joined_terms(pool, pair);
    const auto joined_prints = fingerprinter.fingerprint(joined, cache);
    for (std::size_t k : valid)
      for (std::size_t j = 0; j < joined.size(); ++j)
        if (joined_prints[j] == concat_prints[k])
          out.push_back({concats[k], joined[j], concat_prints[k]});
  }
  run.report.pair_candidates = out.size();
  run.report.fingerprint_seconds += since(t0);
  run.progress(
      fmt::format("pairs of graphs: {} concatenations of two graphs computed at once", out.size()));
  return out;
}

// --- Stage 3 (propose candidates) is propose_candidates, candidate_rules.hpp ------------------

// --- Stage 4: derive, verify, accept ----------------------------------------------------------

// The verifier's options for candidates: the caller's, with the synthesis's threads, numeric
// samples selected once per shape constraints into `samples` (many candidates share theirs),
// the numeric test skipped after a shape failure (refuted either way), no notes (not written),
// and the verification cache's answers counted in the report.
verify::VerifyOptions candidate_verify_options(verify::SampleCache& samples, Run& run) {
  verify::VerifyOptions verify_options = run.options.verify;
  verify_options.jobs = run.options.fingerprint.jobs;
  verify_options.numeric.sample_cache = &samples;
  verify_options.skip_numeric_after_shape_failure = true;
  verify_options.shape.notes = false;
  verify_options.on_verified = [&report = run.report](const verify::EquationReport& r, std::size_t,
                                                      std::size_t) {
    report.verify_cache_hits += r.cached ? 1 : 0;  // called one at a time
  };
  return verify_options;
}

// The rules derivations use (the existing ones, then each accepted one) and, by written rule,
// the candidate it comes from.
struct Accepted {
  dsl::RuleSet rules;
  std::map<std::string, std::size_t> candidate_of;
};

// A candidate's derivation is tried at its first shape instance where both sides are well-formed.
std::size_t derivation_instance(const CandidateRule& c) {
  return static_cast<std::size_t>(std::countr_zero(c.fingerprint.valid_instances));
}

// Both sides of candidates [begin, end) as graphs at their derivation instance: lhs, rhs of each.
std::vector<tensor::Graph> window_graphs(const TermPool& pool,
                                         const std::vector<CandidateRule>& candidates,
                                         std::size_t begin, std::size_t end,
                                         tbb::task_arena& arena) {
  std::vector<tensor::Graph> sides(2 * (end - begin));
  arena.execute([&] {
    tbb::parallel_for(begin, end, [&](std::size_t i) {
      const CandidateRule& c = candidates[i];
      const std::size_t k = 2 * (i - begin);
      sides[k] = pool.graph(c.lhs, derivation_instance(c));
      sides[k + 1] = pool.graph(c.rhs, derivation_instance(c));
    });
  });
  return sides;
}

// Stage 4a, the derivable dropped: which of `equations` (one window's candidates) the rules so
// far derive within kFirstIterations, all in one e-graph with each candidate's share of the node
// limit (most proofs need one or two iterations, and one e-graph pays for searching every rule
// once instead of once per candidate). The full derivation, each candidate on its own, waits for
// the verified ones (stage 4c; most others fail verification).
std::vector<bool> derived_briefly(std::span<const verify::GraphEquation> equations,
                                  const dsl::RuleSet& rules, const SynthesisOptions& options,
                                  tbb::task_arena& arena) {
  verify::DerivationLimits briefly = options.derivation;
  briefly.iterations = std::min(briefly.iterations, kFirstIterations);
  briefly.nodes *= equations.size();  // each candidate's share as it would have alone
  return verify::derivable_together(equations, rules, briefly,
                                    static_cast<std::size_t>(arena.max_concurrency()));
}

// The rules of `rule` read both ways where it is `<=>`, checked: what derivations use.
std::vector<dsl::CheckedRule> checked_rules(const WrittenRule& rule) {
  dsl::Diagnostics diagnostics;
  auto library = dsl::load_rule_text("ruleset synthesized\n" + rule_text(rule, false), "<accepted>",
                                     diagnostics);
  diagnostics.throw_if_errors();
  return std::move(library.rules);
}

// A candidate written as a rule named `name` under `condition` (empty: none).
WrittenRule as_written(const CandidateRule& c, std::string name, std::string condition) {
  WrittenRule r;
  r.name = std::move(name);
  r.lhs = c.lhs_text;
  r.rhs = c.rhs_text;
  r.bidirectional = c.bidirectional;
  r.condition = std::move(condition);
  return r;
}

// The verdicts on one window's open candidates: each as found, then under the declared shapes'
// conditions, weakest first, a stronger variant only where the weaker ones failed (a stronger one
// would pass too, and go unused).
struct WindowVerdicts {
  std::vector<WrittenRule> plain;  // by open candidate, without a condition
  std::vector<Verified> first;     // by open candidate
  std::vector<WrittenRule> conditioned;
  std::vector<std::size_t> conditioned_of;  // index into `open`, weaker variants first
  std::vector<std::vector<std::string>> conditioned_atoms;
  std::vector<Verified> second;  // by conditioned variant
  std::vector<char> passed;      // by open candidate: a conditioned variant passed

  // The verdict accepted for open candidate k, its rule and (when conditioned) its atoms: the
  // plain rule if it passed, else the weakest variant that passed; a null verdict when none did.
  struct Choice {
    const Verified* verdict = nullptr;
    const WrittenRule* rule = nullptr;
    const std::vector<std::string>* atoms = nullptr;
  };
  Choice choice(std::size_t k) const {
    if (first[k].pass) return {&first[k], &plain[k], nullptr};
    for (std::size_t j = 0; j < conditioned.size(); ++j)
      if (conditioned_of[j] == k && second[j].pass)
        return {&second[j], &conditioned[j], &conditioned_atoms[j]};
    return {};
  }
};

// Stage 4b, verify: the `open` candidates in parallel, as WindowVerdicts says. Rules are named by
// candidate ("c<i>", "c<i>-<n>"), so verdicts do not depend on the window.
WindowVerdicts verify_window(const std::vector<CandidateRule>& candidates,
                             const std::vector<std::size_t>& open,
                             const verify::VerifyOptions& verify_options, const Run& run) {
  WindowVerdicts v;
  for (std::size_t i : open)
    v.plain.push_back(as_written(candidates[i], fmt::format("c{}", i), ""));
  v.first = verify_with_merges(v.plain, verify_options);
  std::vector<std::vector<std::vector<std::string>>> variants_of(open.size());
  for (std::size_t k = 0; k < open.size(); ++k)
    if (!v.first[k].pass) variants_of[k] = condition_variants(candidates[open[k]], run.vocabulary);
  v.passed.assign(open.size(), 0);
  for (std::size_t level = 0; level < 3; ++level) {
    const std::size_t round_begin = v.conditioned.size();
    for (std::size_t k = 0; k < open.size(); ++k) {
      if (v.passed[k] || level >= variants_of[k].size()) continue;
      const auto& atoms = variants_of[k][level];
      v.conditioned.push_back(as_written(candidates[open[k]],
                                         fmt::format("c{}-{}", open[k], v.conditioned.size()),
                                         fmt::format("{}", fmt::join(atoms, " and "))));
      v.conditioned_of.push_back(k);
      v.conditioned_atoms.push_back(atoms);
    }
    const std::vector<WrittenRule> round(v.conditioned.begin() + round_begin, v.conditioned.end());
    for (auto& result : verify_with_merges(round, verify_options)) {
      v.passed[v.conditioned_of[v.second.size()]] |= result.pass;
      v.second.push_back(std::move(result));
    }
  }
  return v;
}

void collect_ops(const TermPool& pool, TermId id, std::set<std::string>& names) {
  const GraphTerm& t = pool.term(id);
  if (t.choice == GraphTerm::kVariable) return;
  names.insert(std::string(tensor::op_name(pool.vocabulary().choices[t.choice].op)));
  for (TermId a : t.args) collect_ops(pool, a, names);
}

// An accepted candidate's rule as written: named <ruleset>-<NNN> after the rules before it,
// tagged `synthesized` and its operators, with comments on its sizes, fingerprint, verdicts and
// (when conditioned) where its condition comes from. `dropped` atoms of `atoms` were minimised
// away; `without` is why it failed without a condition.
WrittenRule accepted_rule(WrittenRule rule, const CandidateRule& c, const TermPool& pool,
                          const Verified& verdict, const std::vector<std::string>* atoms,
                          std::size_t dropped, const std::string& without, const Run& run) {
  rule.name = fmt::format("{}-{:03}", run.options.ruleset, run.report.rules.size() + 1);
  std::set<std::string> ops;
  collect_ops(pool, c.lhs, ops);
  collect_ops(pool, c.rhs, ops);
  rule.tags = {"synthesized"};
  rule.tags.insert(rule.tags.end(), ops.begin(), ops.end());
  rule.comments.push_back(fmt::format("{} => {} operators; fingerprint {:016x}", c.lhs_ops,
                                      c.rhs_ops, c.fingerprint.hash));
  rule.comments.push_back(fmt::format(
      "verified: shapes {}, numeric {} ({})", verify::verdict_name(verdict.report.shape.verdict),
      verify::verdict_name(verdict.report.numeric.verdict), verdict.report.numeric.detail));
  if (atoms)
    rule.comments.push_back(
        fmt::format("condition from the declared shapes{}; without it: {}",
                    dropped > 0 ? fmt::format(" ({} of {} atoms dropped: it verifies without them)",
                                              dropped, atoms->size())
                                : "",
                    without));
  return rule;
}

// Stage 4c, accept: the window's open candidates in order. A candidate no verdict passed is
// rejected with its counterexample; a verified one is dropped when the rules derive it in full
// (each candidate on its own: from the rules at the window's start in parallel, then, if rules
// were accepted since, again), else accepted (its condition minimised with minimize_conditions)
// into report.rules and `accepted`. `equations` are the window's, from candidate `begin` on;
// `rules_derived_with` is the number of rules stage 4a used.
void accept_window(const TermPool& pool, const std::vector<CandidateRule>& candidates,
                   std::size_t begin, std::span<const verify::GraphEquation> equations,
                   const std::vector<std::size_t>& open, const WindowVerdicts& verdicts,
                   std::size_t rules_derived_with, const verify::VerifyOptions& verify_options,
                   tbb::task_arena& arena, Accepted& accepted, Run& run) {
  SynthesisReport& report = run.report;
  auto t0 = Clock::now();
  auto derivable_in_full = [&](std::size_t k) {
    const verify::GraphEquation& e = equations[open[k] - begin];
    return verify::derivable(*e.lhs, *e.rhs, accepted.rules, run.options.derivation);
  };
  std::vector<char> derived_in_full(open.size(), 0);
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, open.size(), [&](std::size_t k) {
      if (verdicts.first[k].pass || verdicts.passed[k]) derived_in_full[k] = derivable_in_full(k);
    });
  });
  for (std::size_t k = 0; k < open.size(); ++k) {
    const CandidateRule& c = candidates[open[k]];
    const WindowVerdicts::Choice chosen = verdicts.choice(k);
    if (!chosen.verdict) {
      report.rejected.push_back({c.lhs_text + " => " + c.rhs_text, verdicts.first[k].reason});
      continue;
    }
    ++report.verified;
    // Derivable from the rules before the window, or with those accepted earlier in it.
    if (derived_in_full[k] ||
        (accepted.rules.size() != rules_derived_with && derivable_in_full(k))) {
      ++report.derivable;
      continue;
    }
    WrittenRule rule = *chosen.rule;
    std::size_t dropped = 0;
    if (chosen.atoms && run.options.minimize_conditions) {
      const auto t1 = Clock::now();
      const auto atoms = minimal_condition(rule, *chosen.atoms, verify_options);
      report.verify_seconds += since(t1);
      t0 += Clock::now() - t1;  // not derivation time
      dropped = chosen.atoms->size() - atoms.size();
      rule.condition = fmt::format("{}", fmt::join(atoms, " and "));
      report.dropped_atoms += dropped;
    }
    rule = accepted_rule(std::move(rule), c, pool, *chosen.verdict, chosen.atoms, dropped,
                         verdicts.first[k].reason, run);
    for (auto& r : checked_rules(rule)) accepted.rules.add(std::move(r));
    accepted.candidate_of[rule.name] = open[k];
    report.rules.push_back(std::move(rule));
  }
  report.derive_seconds += since(t0);
}

// A progress line once per size (both sides' operators) finished, at the window [begin, end)
// that finishes it, and every kProgressEvery candidates in between.
void window_progress(const std::vector<CandidateRule>& candidates, std::size_t begin,
                     std::size_t end, const Run& run) {
  const SynthesisReport& report = run.report;
  const std::size_t done_size =
      end == candidates.size() ? candidates[end - 1].size() : candidates[end].size() - 1;
  if (done_size >= candidates[begin].size())
    run.progress(
        fmt::format("candidates of up to {} operators done ({} of {}): {} derivable, {} "
                    "verified, {} rules so far; {:.0f} s",
                    done_size, end, candidates.size(), report.derivable, report.verified,
                    report.rules.size(), since(run.start)));
  else if (end / kProgressEvery != begin / kProgressEvery)
    run.progress(fmt::format(
        "{} of {} candidates done: {} derivable, {} verified, {} rules so far; {:.0f} s", end,
        candidates.size(), report.derivable, report.verified, report.rules.size(),
        since(run.start)));
}

// Stage 4: the candidates in order, in windows of kWindow: per window 4a (drop what the rules so
// far derive briefly), 4b (verify the rest), 4c (accept in order). Serial acceptance over
// parallel verdicts in fixed slots: the accepted rules do not depend on the thread count.
void accept_candidates(const TermPool& pool, const std::vector<CandidateRule>& candidates,
                       const verify::VerifyOptions& verify_options, tbb::task_arena& arena,
                       Accepted& accepted, Run& run) {
  SynthesisReport& report = run.report;
  for (std::size_t begin = 0; begin < candidates.size();) {
    const std::size_t end = std::min(candidates.size(), begin + kWindow);

    auto t0 = Clock::now();
    const std::size_t rules_derived_with = accepted.rules.size();
    const std::vector<tensor::Graph> sides = window_graphs(pool, candidates, begin, end, arena);
    std::vector<verify::GraphEquation> equations;
    for (std::size_t k = 0; k < sides.size(); k += 2)
      equations.push_back({&sides[k], &sides[k + 1]});
    const std::vector<bool> proved = derived_briefly(equations, accepted.rules, run.options, arena);
    report.derive_seconds += since(t0);
    std::vector<std::size_t> open;
    for (std::size_t i = begin; i < end; ++i) {
      if (proved[i - begin])
        ++report.derivable;
      else
        open.push_back(i);
    }

    t0 = Clock::now();
    const WindowVerdicts verdicts = verify_window(candidates, open, verify_options, run);
    report.verify_seconds += since(t0);

    accept_window(pool, candidates, begin, equations, open, verdicts, rules_derived_with,
                  verify_options, arena, accepted, run);
    window_progress(candidates, begin, end, run);
    begin = end;
  }
}

// --- Stage 5: merge rules ---------------------------------------------------------------------

// The merge rules read off the accepted concat rules (merge_rules.hpp), verified. A merge rule
// follows from its concat rule and the laws of split, so a counterexample to the merge refutes
// the concat rule too (its own numeric samples missed it): both are rejected and the concat rule
// removed. A verified merge is written after the single rules as <ruleset>-merge-<NNN>, with its
// concat rule's tags plus `multi` and `split`. Returns merge rule -> the concat rule it comes
// from; one progress line.
std::map<std::string, std::string> add_merge_rules(const verify::VerifyOptions& verify_options,
                                                   Run& run) {
  SynthesisReport& report = run.report;
  std::map<std::string, std::string> merge_source;
  const auto t0 = Clock::now();
  const std::vector<WrittenRule> merges = merge_candidates(report.rules);
  const auto results = verify_rules(merges, verify_options);
  report.verify_seconds += since(t0);
  // Each merge candidate is named after its concat rule plus "-merge" (merge_rules.hpp).
  std::vector<std::string> sources;
  for (const WrittenRule& merge : merges)
    sources.push_back(merge.name.substr(0, merge.name.size() - std::string("-merge").size()));
  std::set<std::string> refuted;
  for (std::size_t k = 0; k < merges.size(); ++k) {
    if (results[k].pass) continue;
    const std::string& source = sources[k];
    report.rejected.push_back({merges[k].lhs + " => " + merges[k].rhs, results[k].reason});
    for (const auto& rule : report.rules)
      if (rule.name == source) {
        report.rejected.push_back({rule.lhs + " => " + rule.rhs,
                                   "its merge rule failed verification: " + results[k].reason});
        refuted.insert(source);
      }
  }
  std::erase_if(report.rules, [&](const WrittenRule& r) { return refuted.count(r.name) > 0; });
  const std::size_t singles = report.rules.size();
  for (std::size_t k = 0; k < merges.size(); ++k) {
    if (!results[k].pass) continue;
    const std::string& source = sources[k];
    WrittenRule rule = merges[k];
    rule.name = fmt::format("{}-merge-{:03}", run.options.ruleset, report.merges + 1);
    for (std::size_t i = 0; i < singles; ++i)
      if (report.rules[i].name == source) rule.tags = report.rules[i].tags;
    rule.tags.insert(rule.tags.begin() + 1, "multi");
    if (std::find(rule.tags.begin(), rule.tags.end(), "split") == rule.tags.end())
      rule.tags.push_back("split");
    rule.comments.push_back(fmt::format("merge of the two concatenated graphs of {}", source));
    merge_source[rule.name] = source;
    rule.comments.push_back(fmt::format("verified: shapes {}, numeric {} ({})",
                                        verify::verdict_name(results[k].report.shape.verdict),
                                        verify::verdict_name(results[k].report.numeric.verdict),
                                        results[k].report.numeric.detail));
    report.rules.push_back(std::move(rule));
    ++report.merges;
  }
  run.progress(fmt::format("{} merge candidates, {} verified", merges.size(), report.merges));
  return merge_source;
}

// --- Stage 6: the final test ------------------------------------------------------------------

// A stricter numeric test of the written rules with options.final_samples samples on another seed
// (numeric only: every rule passed the shape check with this text): the candidates' few samples
// can miss the shapes that refute a rule (grouped convolutions, for one). A refuted rule written
// without a condition (and without a merge rule) gets its candidate's conditions, weakest first,
// as a candidate does: tested with the final samples, the first that passes is kept (minimised
// with minimize_conditions). What stays refuted is dropped, a merge rule and its concat rule
// together (they say the same up to the laws of split). One progress line.
void final_test(const std::vector<CandidateRule>& candidates,
                const std::map<std::string, std::size_t>& candidate_of,
                const std::map<std::string, std::string>& merge_source,
                const verify::VerifyOptions& verify_options, Run& run) {
  const SynthesisOptions& options = run.options;
  SynthesisReport& report = run.report;
  const auto t0 = Clock::now();
  verify::VerifyOptions strict = verify_options;
  strict.numeric.samples = options.final_samples;
  strict.numeric.seed = verify_options.numeric.seed + 1;
  strict.numeric_only = true;
  const auto results = verify_rules(report.rules, strict);
  std::set<std::string> with_merge;
  for (const auto& [merge, source] : merge_source) with_merge.insert(source);
  std::vector<WrittenRule> conditioned;
  std::vector<std::size_t> conditioned_of;  // index into report.rules
  std::vector<std::vector<std::string>> conditioned_atoms;
  for (std::size_t k = 0; k < report.rules.size(); ++k) {
    const WrittenRule& r = report.rules[k];
    const auto candidate = candidate_of.find(r.name);
    if (results[k].pass || !r.condition.empty() || candidate == candidate_of.end() ||
        with_merge.count(r.name))
      continue;
    for (auto& atoms : condition_variants(candidates[candidate->second], run.vocabulary)) {
      WrittenRule variant = r;
      variant.name = fmt::format("{}-{}", r.name, conditioned.size());
      variant.condition = fmt::format("{}", fmt::join(atoms, " and "));
      conditioned.push_back(std::move(variant));
      conditioned_of.push_back(k);
      conditioned_atoms.push_back(std::move(atoms));
    }
  }
  const auto conditioned_results = verify_rules(conditioned, strict);
  std::set<std::size_t> rescued;
  for (std::size_t j = 0; j < conditioned.size(); ++j) {
    const std::size_t k = conditioned_of[j];
    if (!conditioned_results[j].pass || rescued.count(k)) continue;
    rescued.insert(k);
    WrittenRule& r = report.rules[k];
    std::vector<std::string> atoms = conditioned_atoms[j];
    if (options.minimize_conditions) atoms = minimal_condition(conditioned[j], atoms, strict);
    r.condition = fmt::format("{}", fmt::join(atoms, " and "));
    r.comments.push_back(fmt::format(
        "condition from the declared shapes after the final test with {} samples: without it: "
        "{}",
        options.final_samples, results[k].reason));
  }
  std::set<std::string> failed;
  for (std::size_t k = 0; k < report.rules.size(); ++k) {
    if (results[k].pass || rescued.count(k)) continue;
    const WrittenRule& r = report.rules[k];
    report.rejected.push_back(
        {r.lhs + " => " + r.rhs, fmt::format("the final test with {} samples: {}",
                                             options.final_samples, results[k].reason)});
    failed.insert(r.name);
  }
  for (const auto& [merge, source] : merge_source)
    if (failed.count(merge) || failed.count(source)) {
      failed.insert(merge);
      failed.insert(source);
    }
  std::erase_if(report.rules, [&](const WrittenRule& r) { return failed.count(r.name) > 0; });
  report.merges = static_cast<std::size_t>(std::count_if(
      report.rules.begin(), report.rules.end(),
      [](const WrittenRule& r) { return r.name.find("-merge-") != std::string::npos; }));
  report.verify_seconds += since(t0);
  run.progress(fmt::format("final test with {} samples: {} rules dropped, {} kept with a condition",
                           options.final_samples, failed.size(), rescued.size()));
}

// --- Stage 7: write ---------------------------------------------------------------------------

std::string vocabulary_text(const SynthesisVocabulary& v) {
  std::vector<std::string> ops, vars, instances;
  for (auto op : v.ops) ops.emplace_back(tensor::op_name(op));
  for (const auto& var : v.variables) {
    std::vector<std::string> dims;
    for (const auto& d : var.dims)
      dims.push_back(d.symbol.empty() ? std::to_string(d.size) : d.symbol);
    vars.push_back(fmt::format("{}:{}", var.name, fmt::join(dims, ",")));
  }
  for (const auto& instance : v.instances) {
    std::vector<std::string> values;
    for (const auto& [symbol, value] : instance)
      values.push_back(fmt::format("{}={}", symbol, value));
    instances.push_back(fmt::format("{}", fmt::join(values, " ")));
  }
  std::vector<std::string> parameters;
  for (const auto& var : v.variables)
    if (var.parameter) parameters.push_back(var.name);
  return fmt::format("operators {}; variables {}; shape instances {}{}{}", fmt::join(ops, ", "),
                     fmt::join(vars, " "), fmt::join(instances, " | "),
                     parameters.empty() ? ""
                                        : fmt::format("; parameters {} (TASO's roles)",
                                                      fmt::join(parameters, ", ")),
                     v.distinct_arguments ? "; distinct arguments" : "");
}

// The rule file of report.rules (rule_writing.hpp), its header saying how they were made: the
// vocabulary, the fingerprint inputs and the checks every rule passed.
std::string rule_file(const SynthesisReport& report, const Run& run) {
  const SynthesisOptions& options = run.options;
  std::vector<std::string> header = {
      fmt::format(
          "Synthesized by `mctsat rules synthesize`: {} rules of up to {} operators per side.",
          report.rules.size(), options.max_ops),
      vocabulary_text(run.vocabulary),
      fmt::format("fingerprints: {} integer and {} real input sets per instance, seed {}",
                  options.fingerprint.integer_sets, options.fingerprint.real_sets,
                  options.fingerprint.seed),
      options.final_samples > 0
          ? fmt::format("Every rule passed `mctsat verify`'s shape and numeric checks ({} samples, "
                        "then {} more);",
                        options.verify.numeric.samples, options.final_samples)
          : "Every rule passed `mctsat verify`'s shape and numeric checks;",
      "none is derivable from the rules before it (or the existing rules given) by a few",
      "iterations of equality saturation."};
  return synthesized_rule_file(report.rules, options.ruleset, header);
}

}  // namespace

SynthesisReport synthesize(const SynthesisVocabulary& vocabulary,
                           const std::vector<dsl::CheckedRule>& existing,
                           const SynthesisOptions& options) {
  SynthesisReport report;
  Run run{vocabulary, options, report};
  TermPool pool(vocabulary);
  Fingerprinter fingerprinter(pool, options.fingerprint);
  std::optional<FingerprintCache> cache;
  if (options.cache_path) cache.emplace(*options.cache_path, fingerprinter.settings());
  FingerprintCache* cache_ptr = cache ? &*cache : nullptr;

  const Enumeration terms = enumerate_terms(pool, fingerprinter, cache_ptr, run);  // 1
  std::vector<ProposedPair> pairs;
  if (options.pairs) pairs = propose_pairs(pool, fingerprinter, terms.usable, cache_ptr, run);  // 2
  if (cache) {
    cache->save();
    report.cache_hits = cache->hits();
  }

  const std::vector<CandidateRule> candidates =
      propose_candidates(pool, terms.all, terms.prints, pairs);  // 3
  report.candidates = candidates.size();
  run.progress(fmt::format("{} candidate equalities", candidates.size()));

  const std::size_t jobs = options.fingerprint.jobs;
  tbb::task_arena arena(jobs == 0 ? tbb::this_task_arena::max_concurrency()
                                  : static_cast<int>(jobs));
  verify::SampleCache samples;
  const verify::VerifyOptions verify_options = candidate_verify_options(samples, run);
  Accepted accepted{dsl::RuleSet(existing), {}};
  accept_candidates(pool, candidates, verify_options, arena, accepted, run);  // 4

  std::map<std::string, std::string> merge_source;
  if (options.merges) merge_source = add_merge_rules(verify_options, run);  // 5
  if (options.final_samples > 0)
    final_test(candidates, accepted.candidate_of, merge_source, verify_options, run);  // 6

  report.text = rule_file(report, run);  // 7
  report.sample_cache_hits = samples.hits();
  report.seconds = since(run.start);
  return report;
}

}  // namespace mctsat::synth
