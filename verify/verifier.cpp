// Verifying rule libraries in parallel, with the cache (see verifier.hpp).
#include "verify/verifier.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "support/error.hpp"
#include "support/user_cache.hpp"
#include "verify/verify_cache.hpp"

namespace mctsat::verify {
namespace {

// Bump when a change to the checks makes earlier cached results stale.
constexpr const char* kVerifierVersion = "mctsat-verify-4";

std::string options_text(const VerifyOptions& o) {
  return fmt::format(
      "rank {} assignments {} rlimits {}/{}/{} samples {} seed {} dim {} tol {}{}{}{}",
      o.shape.max_rank, o.shape.max_assignments, o.shape.rlimit, o.proof.rlimit, o.numeric.rlimit,
      o.numeric.samples, o.numeric.seed, o.numeric.max_dim, o.numeric.tolerance,
      o.numeric_only ? " numeric only" : "",
      o.skip_numeric_after_shape_failure ? " no numeric after a shape failure" : "",
      o.shape.notes ? "" : " no shape notes");
}

// The cache key of one equation's checks: everything its result depends on.
std::string cache_key(const std::string& settings, const Equation& e, const std::string& text,
                      const std::string& axioms_text) {
  return VerifyCache::key_of(fmt::format("{}\n{}\n{}\n{}\n{}", kVerifierVersion, settings,
                                         e.axiom ? "axiom" : "rule", text,
                                         e.axiom ? "" : axioms_text));
}

}  // namespace

std::string unverified_reason(const EquationReport& report) {
  // A failed numeric test has its own line with the counterexample: not repeated here.
  const bool numeric_failed = report.numeric.verdict == Verdict::kFail;
  return fmt::format(
      "not verified: neither the proof from the axioms ({}) nor the numeric test ({}{}) shows "
      "the sides agree",
      verdict_name(report.proof.verdict), verdict_name(report.numeric.verdict),
      numeric_failed || report.numeric.detail.empty() ? "" : ": " + report.numeric.detail);
}

bool EquationReport::unverified() const {
  return !axiom && proof.verdict != Verdict::kPass && numeric.verdict != Verdict::kPass;
}

std::optional<dsl::VerificationLevel> EquationReport::level() const {
  if (axiom || failed()) return std::nullopt;
  const bool shapes = shape.verdict == Verdict::kPass;
  if (shapes && proof.verdict == Verdict::kPass) return dsl::VerificationLevel::kAxioms;
  if (numeric.verdict != Verdict::kPass) return std::nullopt;
  return shapes ? dsl::VerificationLevel::kShapes : dsl::VerificationLevel::kSamples;
}

bool EquationReport::failed() const {
  return shape.verdict == Verdict::kFail || proof.verdict == Verdict::kFail ||
         numeric.verdict == Verdict::kFail || unverified();
}

std::optional<std::string> default_cache_dir() {
  const std::optional<std::string> base = user_cache_dir();
  if (!base) return std::nullopt;
  return *base + "/verify";
}

std::vector<EquationReport> verify_library(const dsl::RuleLibrary& library,
                                           const std::vector<dsl::CheckedRule>& rules,
                                           const std::vector<dsl::CheckedAxiom>& checked_axioms,
                                           const VerifyOptions& options) {
  std::vector<Equation> axioms;
  std::string axioms_text;
  for (const auto& a : library.axioms) {
    axioms.push_back(equation_of(a));
    axioms_text += equation_text(axioms.back()) + "\n";
  }
  std::vector<Equation> targets;
  for (const auto& r : rules) targets.push_back(equation_of(r));
  for (const auto& a : checked_axioms) targets.push_back(equation_of(a));

  std::optional<VerifyCache> cache;
  if (options.cache_dir) cache.emplace(*options.cache_dir);
  const std::string settings = options_text(options);

  std::vector<EquationReport> reports(targets.size());
  auto verify_one = [&](std::size_t i) {
    const Equation& e = targets[i];
    EquationReport& report = reports[i];
    report.name = e.name;
    report.axiom = e.axiom;
    report.where = e.where;
    report.text = equation_text(e);
    const std::string key = cache_key(settings, e, report.text, axioms_text);
    if (cache) {
      if (const auto hit = cache->load(key)) {
        report.shape = hit->shape;
        report.proof = hit->proof;
        report.numeric = hit->numeric;
        report.cached = true;
        return;
      }
    }
    z3::context z3;  // for this equation's shape and numeric checks
    if (options.numeric_only) {
      report.shape.detail = report.proof.detail = "not checked (numeric test only)";
    } else {
      report.shape = check_shapes(e, options.shape, z3);
      if (e.axiom) {
        report.proof.detail = "an axiom (assumed)";
      } else if (axioms.empty()) {
        report.proof.detail = "no axioms loaded";
      } else {
        report.proof = check_axioms(e, axioms, options.proof);
      }
    }
    if (options.skip_numeric_after_shape_failure && report.shape.verdict == Verdict::kFail)
      report.numeric.detail = "not run: the shape check failed";
    else
      report.numeric = check_numeric(e, options.numeric, z3);
    if (cache) cache->store(key, {report.shape, report.proof, report.numeric});
  };

  std::mutex progress_mutex;
  std::size_t done = 0;
  auto verify_and_report = [&](std::size_t i) {
    verify_one(i);
    if (!options.on_verified) return;
    const std::lock_guard lock(progress_mutex);
    options.on_verified(reports[i], ++done, targets.size());
  };

  const int threads =
      options.jobs == 0 ? tbb::this_task_arena::max_concurrency() : static_cast<int>(options.jobs);
  tbb::task_arena arena(threads);
  arena.execute([&] { tbb::parallel_for(std::size_t{0}, targets.size(), verify_and_report); });
  return reports;
}

void require_sound(const dsl::RuleLibrary& library, const dsl::RuleSet& rules) {
  std::vector<dsl::CheckedRule> selected;
  for (std::size_t i = 0; i < rules.size(); ++i) selected.push_back(rules.rule(i));
  require_sound(library, selected);
}

std::optional<std::string> unverified_rules_warning(const dsl::RuleLibrary& library,
                                                    const std::vector<dsl::CheckedRule>& rules,
                                                    const std::string& shipped_dir,
                                                    const std::optional<std::string>& cache_dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path shipped = fs::weakly_canonical(shipped_dir, ec);
  const auto is_shipped = [&](const std::string& file) {
    std::error_code e;
    const fs::path path = fs::weakly_canonical(file, e);
    if (e || shipped.empty()) return false;
    const auto [end, _] = std::mismatch(shipped.begin(), shipped.end(), path.begin(), path.end());
    return end == shipped.end();
  };
  std::vector<const dsl::CheckedRule*> own;
  for (const auto& r : rules)
    if (!is_shipped(r.where.file)) own.push_back(&r);
  if (own.empty()) return std::nullopt;

  // The cache entries `mctsat verify FILE` leaves: default options, the library's axioms or, when
  // it declares none, the shipped ones.
  std::string axioms_text;
  if (library.axioms.empty()) {
    try {
      for (const auto& a : dsl::load_rules_or_throw({shipped_dir + "/taso/axioms.rules"}).axioms)
        axioms_text += equation_text(equation_of(a)) + "\n";
    } catch (const Error&) {
      // No shipped axioms: no entry can match; every rule counts as unverified.
    }
  } else {
    for (const auto& a : library.axioms) axioms_text += equation_text(equation_of(a)) + "\n";
  }
  const std::string settings = options_text(VerifyOptions{});
  std::optional<VerifyCache> cache;
  if (cache_dir) cache.emplace(*cache_dir);
  std::map<std::string, std::size_t> unverified;  // by file
  for (const dsl::CheckedRule* r : own) {
    const Equation e = equation_of(*r);
    const std::string text = equation_text(e);
    EquationReport report;
    bool passed = false;
    if (cache) {
      if (const auto hit = cache->load(cache_key(settings, e, text, axioms_text))) {
        report.shape = hit->shape;
        report.proof = hit->proof;
        report.numeric = hit->numeric;
        passed = !report.failed();
      }
    }
    if (!passed) ++unverified[r->where.file];
  }
  if (unverified.empty()) return std::nullopt;
  std::vector<std::string> files, counts;
  for (const auto& [file, count] : unverified) {
    files.push_back(file);
    counts.push_back(fmt::format("{} in {}", count, file));
  }
  std::size_t total = 0;
  for (const auto& [_, count] : unverified) total += count;
  return fmt::format(
      "{} rule{} ({}) {} no passing verification in the cache: an unsound rule gives a wrong "
      "graph; verify with `mctsat verify {}`, or run with --verify-rules",
      total, total == 1 ? "" : "s", fmt::join(counts, ", "), total == 1 ? "has" : "have",
      fmt::join(files, " "));
}

std::optional<std::string> unverified_rules_warning(const dsl::RuleLibrary& library,
                                                    const dsl::RuleSet& rules,
                                                    const std::string& shipped_dir,
                                                    const std::optional<std::string>& cache_dir) {
  std::vector<dsl::CheckedRule> selected;
  for (std::size_t i = 0; i < rules.size(); ++i) selected.push_back(rules.rule(i));
  return unverified_rules_warning(library, selected, shipped_dir, cache_dir);
}

VerifyTargets verify_targets(dsl::RuleLibrary& library, const std::vector<std::string>& only,
                             const std::string& only_option, const std::string& shipped_axioms) {
  VerifyTargets targets;
  targets.axioms_source = "the files given";
  if (only.empty()) {
    targets.rules = library.rules;
    targets.axioms = library.axioms;
  }
  if (library.axioms.empty() && !library.rules.empty()) {
    targets.axioms_source = shipped_axioms;
    library.axioms = dsl::load_rules_or_throw({shipped_axioms}).axioms;
  }
  for (const auto& name : only) {
    bool found = false;
    for (const auto& r : library.rules)
      if (r.name == name) targets.rules.push_back(r), found = true;
    for (const auto& a : library.axioms)
      if (a.name == name) targets.axioms.push_back(a), found = true;
    if (!found) throw Error(fmt::format("{}: no rule or axiom is named '{}'", only_option, name));
  }
  return targets;
}

void require_sound(const dsl::RuleLibrary& library, const std::vector<dsl::CheckedRule>& rules) {
  VerifyOptions options;
  options.cache_dir = default_cache_dir();
  std::string failures;
  std::size_t failed = 0;
  for (const auto& r : verify_library(library, rules, {}, options)) {
    if (!r.failed()) continue;
    ++failed;
    for (const auto* check : {&r.shape, &r.proof, &r.numeric})
      if (check->verdict == Verdict::kFail)
        failures += fmt::format("\n{}: rule {}: {}", r.where.to_string(), r.name, check->detail);
    if (r.unverified())
      failures +=
          fmt::format("\n{}: rule {}: {}", r.where.to_string(), r.name, unverified_reason(r));
  }
  if (failed > 0)
    throw Error(fmt::format("--verify-rules: {} of {} rules failed verification:{}", failed,
                            rules.size(), failures));
}

}  // namespace mctsat::verify
