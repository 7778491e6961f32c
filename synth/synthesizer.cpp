// The rule synthesis driver (see synthesizer.hpp).
#include "synth/synthesizer.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "dsl/lowering.hpp"
#include "support/error.hpp"
#include "synth/candidate_rules.hpp"
#include "synth/merge_rules.hpp"
#include "synth/pair_terms.hpp"
#include "verify/sample_cache.hpp"
#include "synth/term_enumeration.hpp"

namespace mctsat::synth {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void collect_ops(const TermPool& pool, TermId id, std::set<std::string>& names) {
  const GraphTerm& t = pool.term(id);
  if (t.choice == GraphTerm::kVariable) return;
  names.insert(std::string(tensor::op_name(pool.vocabulary().choices[t.choice].op)));
  for (TermId a : t.args) collect_ops(pool, a, names);
}

// A candidate's derivation is tried at its first shape instance where both sides are well-formed.
std::size_t derivation_instance(const CandidateRule& c) {
  return static_cast<std::size_t>(std::countr_zero(c.fingerprint.valid_instances));
}

// The iterations of the first derivation of a window's candidates together.
constexpr std::size_t kFirstIterations = 2;

// A progress line every this many candidates within a size.
constexpr std::size_t kProgressEvery = 10'000;

std::string failure_reason(const verify::EquationReport& r) {
  std::vector<std::string> parts;
  if (r.shape.verdict == verify::Verdict::kFail) parts.push_back("shape check: " + r.shape.detail);
  if (r.numeric.verdict == verify::Verdict::kFail) parts.push_back("numeric test: " + r.numeric.detail);
  if (parts.empty() && r.unverified()) parts.push_back(verify::unverified_reason(r));
  return fmt::format("{}", fmt::join(parts, "; "));
}

struct Verified {
  bool pass = false;
  std::string reason;  // why not, or the verdicts
  verify::EquationReport report;
};

// Verifies rules (read one way) in parallel; by rule, in order.
std::vector<Verified> verify_rules(const std::vector<WrittenRule>& rules,
                                   const verify::VerifyOptions& options) {
  std::vector<Verified> out(rules.size());
  if (rules.empty()) return out;
  std::string text = "ruleset synthesis-candidates\n";
  for (const auto& r : rules) text += rule_text(r, true);
  dsl::Diagnostics diagnostics;
  const dsl::RuleLibrary library = dsl::load_rule_text(text, "<candidates>", diagnostics);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    index[rules[i].name] = i;
    out[i].reason = "the rule checker rejected it:\n" + diagnostics.render();
  }
  const auto reports = verify::verify_library(library, library.rules, {}, options);
  for (const auto& report : reports) {
    Verified& v = out.at(index.at(report.name));
    v.pass = !report.failed();
    v.reason = v.pass ? "" : failure_reason(report);
    v.report = report;
  }
  return out;
}

// Verifies rules as verify_rules does, each together with the merge rule read off it (if any,
// merge_rules.hpp): the merge follows from the rule and the laws of split, so a counterexample
// to the merge refutes the rule (the two tests sample different shapes).
std::vector<Verified> verify_with_merges(const std::vector<WrittenRule>& rules,
                                         const verify::VerifyOptions& options) {
  std::vector<WrittenRule> all = rules;
  std::vector<std::size_t> merge_of;  // index into `rules`
  for (std::size_t k = 0; k < rules.size(); ++k)
    for (auto& merge : merge_candidates({rules[k]})) {
      all.push_back(std::move(merge));
      merge_of.push_back(k);
    }
  auto results = verify_rules(all, options);
  for (std::size_t m = 0; m < merge_of.size(); ++m) {
    Verified& rule = results[merge_of[m]];
    const Verified& merge = results[rules.size() + m];
    if (rule.pass && !merge.pass) {
      rule.pass = false;
      rule.reason = "its merge rule failed verification: " + merge.reason;
    }
  }
  results.resize(rules.size());
  return results;
}

// The rules of `rule` read both ways where it is `<=>`, checked.
std::vector<dsl::CheckedRule> checked(const WrittenRule& rule) {
  dsl::Diagnostics diagnostics;
  auto library = dsl::load_rule_text("ruleset synthesized\n" + rule_text(rule, false), "<accepted>",
                                     diagnostics);
  diagnostics.throw_if_errors();
  return std::move(library.rules);
}

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

// The candidates from pairs of one-operator graphs of one operator choice (pair_terms.hpp):
// every pair term (concat axis A B) with every joined term that fingerprints equal to it.
std::vector<ProposedPair> pair_candidates(TermPool& pool, const Fingerprinter& fingerprinter,
                                          const std::vector<TermId>& singles,
                                          FingerprintCache* cache) {
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
  return out;
}

// The `where` conditions a candidate may take, read from the declared shapes, weakest first:
// same shapes; then equal dimensions too; then ranks too (the empty and repeated ones left out).
std::vector<std::vector<std::string>> condition_variants(const CandidateRule& candidate,
                                                         const SynthesisVocabulary& vocabulary) {
  const ShapeConditions conditions = shape_conditions(candidate, vocabulary);
  std::vector<std::vector<std::string>> variants(3, conditions.same_shapes);
  variants[1].insert(variants[1].end(), conditions.dims.begin(), conditions.dims.end());
  variants[2] = variants[1];
  variants[2].insert(variants[2].end(), conditions.ranks.begin(), conditions.ranks.end());
  std::vector<std::vector<std::string>> out;
  for (std::size_t v = 0; v < variants.size(); ++v)
    if (!variants[v].empty() && (v == 0 || variants[v] != variants[v - 1]))
      out.push_back(variants[v]);
  return out;
}

}  // namespace

std::vector<std::string> minimal_condition(const WrittenRule& rule, std::vector<std::string> atoms,
                                           const verify::VerifyOptions& options) {
  auto without = [&](const std::vector<std::size_t>& drop, std::string name) {
    WrittenRule r = rule;
    r.name = std::move(name);
    std::vector<std::string> kept;
    for (std::size_t a = 0; a < atoms.size(); ++a)
      if (std::find(drop.begin(), drop.end(), a) == drop.end()) kept.push_back(atoms[a]);
    r.condition = fmt::format("{}", fmt::join(kept, " and "));
    return std::make_pair(r, kept);
  };
  while (atoms.size() > 1) {
    std::vector<WrittenRule> tries;
    for (std::size_t a = 0; a < atoms.size(); ++a)
      tries.push_back(without({a}, fmt::format("m{}", a)).first);
    const auto results = verify_with_merges(tries, options);
    std::vector<std::size_t> droppable;
    for (std::size_t a = 0; a < atoms.size(); ++a)
      if (results[a].pass) droppable.push_back(a);
    if (droppable.empty()) break;
    if (droppable.size() > 1) {
      auto [together, kept] = without(droppable, "m");
      if (verify_with_merges({together}, options)[0].pass) return kept;
    }
    atoms = without({droppable.front()}, "m").second;
  }
  return atoms;
}

SynthesisReport synthesize(const SynthesisVocabulary& vocabulary,
                           const std::vector<dsl::CheckedRule>& existing,
                           const SynthesisOptions& options) {
  const auto start = Clock::now();
  auto progress = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  SynthesisReport report;
  TermPool pool(vocabulary);
  Fingerprinter fingerprinter(pool, options.fingerprint);
  std::optional<FingerprintCache> cache;
  if (options.cache_path) cache.emplace(*options.cache_path, fingerprinter.settings());
  FingerprintCache* cache_ptr = cache ? &*cache : nullptr;

  // Enumerate and fingerprint, size by size.
  std::vector<TermId> all, usable;
  std::vector<Fingerprint> prints;
  std::set<std::pair<std::uint64_t, std::uint64_t>> represented;
  auto take = [&](const std::vector<TermId>& ids, SynthesisStage& stage) {
    const auto t0 = Clock::now();
    const auto f = fingerprinter.fingerprint(ids, cache_ptr);
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
    usable.insert(usable.end(), kept.begin(), kept.end());
    stage.kept = kept.size();
    all.insert(all.end(), ids.begin(), ids.end());
    prints.insert(prints.end(), f.begin(), f.end());
    stage.terms = ids.size();
    report.stages.push_back(stage);
  };
  {
    std::vector<TermId> variables;
    for (std::size_t v = 0; v < vocabulary.variables.size(); ++v)
      variables.push_back(static_cast<TermId>(v));
    SynthesisStage stage;
    stage.fitting = variables.size();
    take(variables, stage);
  }
  for (std::size_t ops = 1; ops <= options.max_ops; ++ops) {
    SynthesisStage stage;
    stage.ops = ops;
    const auto t0 = Clock::now();
    const Growth grown = pool.grow(ops, usable, options.max_terms);
    stage.truncated = grown.truncated();
    stage.fitting = grown.fitting;
    report.enumerate_seconds += since(t0);
    take(grown.ids, stage);
    progress(fmt::format(
        "{} operator{}: {} terms, {} well-formed, {} distinct fingerprints{}", ops,
        ops == 1 ? "" : "s", stage.terms, stage.well_formed, stage.kept,
        stage.truncated
            ? fmt::format(" (truncated: {} of {} terms, evenly spaced)", stage.terms, stage.fitting)
            : ""));
  }
  std::vector<ProposedPair> pairs;
  if (options.pairs) {
    const auto t0 = Clock::now();
    std::vector<TermId> singles;
    for (TermId id : usable)
      if (pool.term(id).ops() == 1) singles.push_back(id);
    pairs = pair_candidates(pool, fingerprinter, singles, cache_ptr);
    report.pair_candidates = pairs.size();
    report.fingerprint_seconds += since(t0);
    progress(fmt::format("pairs of graphs: {} concatenations of two graphs computed at once",
                         pairs.size()));
  }
  if (cache) {
    cache->save();
    report.cache_hits = cache->hits();
  }

  std::vector<CandidateRule> candidates = propose_candidates(pool, all, prints, pairs);
  report.candidates = candidates.size();
  progress(fmt::format("{} candidate equalities", candidates.size()));

  dsl::RuleSet rule_set(existing);                  // grows by each accepted rule
  std::map<std::string, std::size_t> candidate_of;  // written rule -> its candidate
  const std::size_t jobs = options.fingerprint.jobs;
  tbb::task_arena arena(jobs == 0 ? tbb::this_task_arena::max_concurrency()
                                  : static_cast<int>(jobs));
  verify::VerifyOptions verify_options = options.verify;
  verify_options.jobs = jobs;
  // Many candidates share their shape constraints: Z3's numeric samples are selected once.
  verify::SampleCache samples;
  verify_options.numeric.sample_cache = &samples;
  verify_options.skip_numeric_after_shape_failure = true;  // refuted either way
  verify_options.shape.notes = false;                      // not written
  verify_options.on_verified = [&](const verify::EquationReport& r, std::size_t, std::size_t) {
    report.verify_cache_hits += r.cached ? 1 : 0;  // called one at a time
  };

  auto written = [&](const CandidateRule& c, std::string name, std::string condition) {
    WrittenRule r;
    r.name = std::move(name);
    r.lhs = c.lhs_text;
    r.rhs = c.rhs_text;
    r.bidirectional = c.bidirectional;
    r.condition = std::move(condition);
    return r;
  };

  // Windows of candidates in order: derivable ones dropped, the others verified in parallel,
  // then accepted one by one. Small windows waste little verification on candidates that an
  // acceptance in the same window derives; their size is fixed, so results do not depend on the
  // thread count.
  constexpr std::size_t kWindow = 32;
  for (std::size_t begin = 0; begin < candidates.size();) {
    const std::size_t end = std::min(candidates.size(), begin + kWindow);

    // Drop what the rules so far derive within a few iterations: the window's candidates
    // together, in one e-graph (most proofs need one or two iterations, and one e-graph pays for
    // searching every rule once instead of once per candidate). The full derivation, each
    // candidate on its own, waits for the verified ones (most others fail verification).
    auto t0 = Clock::now();
    const std::size_t rules_derived_with = rule_set.size();
    std::vector<tensor::Graph> sides(2 * (end - begin));
    arena.execute([&] {
      tbb::parallel_for(begin, end, [&](std::size_t i) {
        const CandidateRule& c = candidates[i];
        const std::size_t k = 2 * (i - begin);
        sides[k] = pool.graph(c.lhs, derivation_instance(c));
        sides[k + 1] = pool.graph(c.rhs, derivation_instance(c));
      });
    });
    std::vector<verify::GraphEquation> equations;
    for (std::size_t k = 0; k < sides.size(); k += 2)
      equations.push_back({&sides[k], &sides[k + 1]});
    verify::DerivationLimits briefly = options.derivation;
    briefly.iterations = std::min(briefly.iterations, kFirstIterations);
    briefly.nodes *= equations.size();  // each candidate's share as it would have alone
    const std::vector<bool> proved = verify::derivable_together(
        equations, rule_set, briefly, static_cast<std::size_t>(arena.max_concurrency()));
    report.derive_seconds += since(t0);
    std::vector<std::size_t> open;
    for (std::size_t i = begin; i < end; ++i) {
      if (proved[i - begin])
        ++report.derivable;
      else
        open.push_back(i);
    }

    // Verify: first as found, then under the declared shapes' conditions.
    t0 = Clock::now();
    std::vector<WrittenRule> plain;
    for (std::size_t i : open) plain.push_back(written(candidates[i], fmt::format("c{}", i), ""));
    const auto first = verify_with_merges(plain, verify_options);
    // Weakest first: same shapes; then equal dimensions; then ranks too. A variant is verified
    // only where the weaker ones failed (a stronger one would pass too, and go unused).
    std::vector<std::vector<std::vector<std::string>>> variants_of(open.size());
    for (std::size_t k = 0; k < open.size(); ++k)
      if (!first[k].pass) variants_of[k] = condition_variants(candidates[open[k]], vocabulary);
    std::vector<WrittenRule> conditioned;
    std::vector<std::size_t> conditioned_of;  // index into `open`, weaker variants first
    std::vector<std::vector<std::string>> conditioned_atoms;
    std::vector<Verified> second;
    std::vector<char> passed(open.size(), 0);
    for (std::size_t level = 0; level < 3; ++level) {
      const std::size_t round_begin = conditioned.size();
      for (std::size_t k = 0; k < open.size(); ++k) {
        if (passed[k] || level >= variants_of[k].size()) continue;
        const auto& atoms = variants_of[k][level];
        conditioned.push_back(written(candidates[open[k]],
                                      fmt::format("c{}-{}", open[k], conditioned.size()),
                                      fmt::format("{}", fmt::join(atoms, " and "))));
        conditioned_of.push_back(k);
        conditioned_atoms.push_back(atoms);
      }
      const std::vector<WrittenRule> round(conditioned.begin() + round_begin, conditioned.end());
      for (auto& result : verify_with_merges(round, verify_options)) {
        passed[conditioned_of[second.size()]] |= result.pass;
        second.push_back(std::move(result));
      }
    }
    report.verify_seconds += since(t0);

    // The full derivation, each candidate on its own, from the rules so far: for the verified
    // candidates first from the rules at the window's start, in parallel.
    t0 = Clock::now();
    auto derivable_in_full = [&](std::size_t k) {
      const verify::GraphEquation& e = equations[open[k] - begin];
      return verify::derivable(*e.lhs, *e.rhs, rule_set, options.derivation);
    };
    std::vector<char> derived_in_full(open.size(), 0);
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, open.size(), [&](std::size_t k) {
        if (first[k].pass || passed[k]) derived_in_full[k] = derivable_in_full(k);
      });
    });

    // Accept in order, unless derivable from what was accepted before.
    for (std::size_t k = 0; k < open.size(); ++k) {
      const CandidateRule& c = candidates[open[k]];
      const Verified* chosen = first[k].pass ? &first[k] : nullptr;
      const WrittenRule* chosen_rule = chosen ? &plain[k] : nullptr;
      const std::vector<std::string>* chosen_atoms = nullptr;
      for (std::size_t j = 0; j < conditioned.size() && !chosen; ++j)
        if (conditioned_of[j] == k && second[j].pass) {
          chosen = &second[j];
          chosen_rule = &conditioned[j];
          chosen_atoms = &conditioned_atoms[j];
        }
      if (!chosen) {
        report.rejected.push_back({c.lhs_text + " => " + c.rhs_text, first[k].reason});
        continue;
      }
      ++report.verified;
      // Derivable from the rules before the window, or with those accepted earlier in it.
      if (derived_in_full[k] || (rule_set.size() != rules_derived_with && derivable_in_full(k))) {
        ++report.derivable;
        continue;
      }
      WrittenRule rule = *chosen_rule;
      std::size_t dropped = 0;
      if (chosen_atoms && options.minimize_conditions) {
        const auto t1 = Clock::now();
        const auto atoms = minimal_condition(rule, *chosen_atoms, verify_options);
        report.verify_seconds += since(t1);
        t0 += Clock::now() - t1;  // not derivation time
        dropped = chosen_atoms->size() - atoms.size();
        rule.condition = fmt::format("{}", fmt::join(atoms, " and "));
        report.dropped_atoms += dropped;
      }
      rule.name = fmt::format("{}-{:03}", options.ruleset, report.rules.size() + 1);
      std::set<std::string> ops;
      collect_ops(pool, c.lhs, ops);
      collect_ops(pool, c.rhs, ops);
      rule.tags = {"synthesized"};
      rule.tags.insert(rule.tags.end(), ops.begin(), ops.end());
      rule.comments.push_back(fmt::format("{} => {} operators; fingerprint {:016x}", c.lhs_ops,
                                          c.rhs_ops, c.fingerprint.hash));
      rule.comments.push_back(fmt::format(
          "verified: shapes {}, numeric {} ({})", verify::verdict_name(chosen->report.shape.verdict),
          verify::verdict_name(chosen->report.numeric.verdict), chosen->report.numeric.detail));
      if (chosen_atoms)
        rule.comments.push_back(
            fmt::format("condition from the declared shapes{}; without it: {}",
                        dropped > 0 ? fmt::format(" ({} of {} atoms dropped: it verifies without "
                                                  "them)",
                                                  dropped, chosen_atoms->size())
                                    : "",
                        first[k].reason));
      for (auto& r : checked(rule)) rule_set.add(std::move(r));
      candidate_of[rule.name] = open[k];
      report.rules.push_back(std::move(rule));
    }
    report.derive_seconds += since(t0);
    // Reported once per size (both sides' operators) finished, at the window that finishes it,
    // and every kProgressEvery candidates in between.
    const std::size_t done_size =
        end == candidates.size() ? candidates[end - 1].size() : candidates[end].size() - 1;
    if (done_size >= candidates[begin].size())
      progress(
          fmt::format("candidates of up to {} operators done ({} of {}): {} derivable, {} "
                      "verified, {} rules so far; {:.0f} s",
                      done_size, end, candidates.size(), report.derivable, report.verified,
                      report.rules.size(), since(start)));
    else if (end / kProgressEvery != begin / kProgressEvery)
      progress(
          fmt::format("{} of {} candidates done: {} derivable, {} verified, {} rules so far; "
                      "{:.0f} s",
                      end, candidates.size(), report.derivable, report.verified,
                      report.rules.size(), since(start)));
    begin = end;
  }

  std::map<std::string, std::string> merge_source;  // merge rule -> the concat rule it comes from
  if (options.merges) {
    const auto t0 = Clock::now();
    const std::vector<WrittenRule> merges = merge_candidates(report.rules);
    const auto results = verify_rules(merges, verify_options);
    report.verify_seconds += since(t0);
    // A merge rule follows from its concat rule and the laws of split, so a counterexample to
    // the merge refutes the concat rule too (its own numeric samples missed it): both go.
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
      rule.name = fmt::format("{}-merge-{:03}", options.ruleset, report.merges + 1);
      for (std::size_t i = 0; i < singles; ++i)
        if (report.rules[i].name == source) rule.tags = report.rules[i].tags;
      rule.tags.insert(rule.tags.begin() + 1, "multi");
      if (std::find(rule.tags.begin(), rule.tags.end(), "split") == rule.tags.end())
        rule.tags.push_back("split");
      rule.comments.push_back(fmt::format("merge of the two concatenated graphs of {}", source));
      merge_source[rule.name] = source;
      rule.comments.push_back(fmt::format(
          "verified: shapes {}, numeric {} ({})", verify::verdict_name(results[k].report.shape.verdict),
          verify::verdict_name(results[k].report.numeric.verdict), results[k].report.numeric.detail));
      report.rules.push_back(std::move(rule));
      ++report.merges;
    }
    progress(fmt::format("{} merge candidates, {} verified", merges.size(), report.merges));
  }

  if (options.final_samples > 0) {
    // A stricter numeric test of what is written, on other samples: the candidates' few
    // samples can miss the shapes that refute a rule (grouped convolutions, for one).
    const auto t0 = Clock::now();
    verify::VerifyOptions strict = verify_options;
    strict.numeric.samples = options.final_samples;
    strict.numeric.seed = verify_options.numeric.seed + 1;
    strict.numeric_only = true;  // every rule passed the shape check with this text
    const auto results = verify_rules(report.rules, strict);
    // A rule written without a condition (and without a merge rule) that the final test refutes
    // gets the declared shapes' conditions, weakest first, as a candidate does: tested with the
    // final samples, the first that passes is kept.
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
      for (auto& atoms : condition_variants(candidates[candidate->second], vocabulary)) {
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
    // A merge rule and its concat rule say the same (up to the laws of split): a counterexample
    // to one refutes the other.
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
    progress(fmt::format("final test with {} samples: {} rules dropped, {} kept with a condition",
                         options.final_samples, failed.size(), rescued.size()));
  }

  std::vector<std::string> header = {
      fmt::format(
          "Synthesized by `mctsat rules synthesize`: {} rules of up to {} operators per side.",
          report.rules.size(), options.max_ops),
      vocabulary_text(vocabulary),
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
  report.text = synthesized_rule_file(report.rules, options.ruleset, header);
  report.sample_cache_hits = samples.hits();
  report.seconds = since(start);
  return report;
}

}  // namespace mctsat::synth
