// Verifying rule libraries in parallel, with the cache (see verifier.hpp).
#include "verify/verifier.hpp"

#include <cstdlib>
#include <mutex>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "support/error.hpp"
#include "verify/verify_cache.hpp"

namespace mctsat::verify {
namespace {

// Bump when a change to the checks makes earlier cached results stale.
constexpr const char* kVerifierVersion = "mctsat-verify-3";

std::string options_text(const VerifyOptions& o) {
  return fmt::format(
      "rank {} assignments {} rlimits {}/{}/{} samples {} seed {} dim {} tol {}{}{}{}",
      o.shape.max_rank, o.shape.max_assignments, o.shape.rlimit, o.proof.rlimit, o.numeric.rlimit,
      o.numeric.samples, o.numeric.seed, o.numeric.max_dim, o.numeric.tolerance,
      o.numeric_only ? " numeric only" : "",
      o.skip_numeric_after_shape_failure ? " no numeric after a shape failure" : "",
      o.shape.notes ? "" : " no shape notes");
}

}  // namespace

std::string unverified_reason(const EquationReport& report) {
  return fmt::format(
      "not verified: neither the proof from the axioms ({}) nor the numeric test ({}: {}) shows "
      "the sides agree",
      verdict_name(report.proof.verdict), verdict_name(report.numeric.verdict),
      report.numeric.detail);
}

bool EquationReport::unverified() const {
  return !axiom && proof.verdict != Verdict::kPass && numeric.verdict != Verdict::kPass;
}

bool EquationReport::failed() const {
  return shape.verdict == Verdict::kFail || proof.verdict == Verdict::kFail ||
         numeric.verdict == Verdict::kFail || unverified();
}

std::optional<std::string> default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/mctsat/verify";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/mctsat/verify";
  return std::nullopt;
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
    const std::string key = VerifyCache::key_of(
        fmt::format("{}\n{}\n{}\n{}\n{}", kVerifierVersion, settings, e.axiom ? "axiom" : "rule",
                    report.text, e.axiom ? "" : axioms_text));
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
        failures +=
            fmt::format("\n{}:{}: rule {}: {}", r.where.file, r.where.line, r.name, check->detail);
    if (r.unverified())
      failures += fmt::format("\n{}:{}: rule {}: {}", r.where.file, r.where.line, r.name,
                              unverified_reason(r));
  }
  if (failed > 0)
    throw Error(fmt::format("--verify-rules: {} of {} rules failed verification:{}", failed,
                            rules.size(), failures));
}

}  // namespace mctsat::verify
