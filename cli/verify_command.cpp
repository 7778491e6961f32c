// `mctsat verify FILE_OR_DIR...`: checks every rule (and axiom) of rule files for soundness —
// shapes with Z3, a proof from the axioms with Z3, numeric tests with the interpreter — and
// prints a per-rule table and a summary (or JSON). Exits non-zero when any check fails. While it
// runs, each rule's verdicts go to stderr as it finishes (a live line on a terminal).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "cli/rule_library_location.hpp"
#include "dsl/rule_library.hpp"
#include "support/allocator_reuse.hpp"
#include "support/error.hpp"
#include "verify/verifier.hpp"
#include "verify/verify_cache.hpp"

namespace mctsat::cli {
namespace {

struct VerifyCliOptions {
  std::vector<std::string> paths;
  std::vector<std::string> only;
  verify::VerifyOptions verify;
  unsigned rlimit = verify::kDefaultZ3Rlimit;
  std::string cache_dir;
  std::string axioms;  // --axioms: the axioms proofs use instead of the shipped ones
  bool no_cache = false, json = false, verbose = false;
};

nlohmann::json to_json(const verify::CheckResult& r) {
  return {
      {"verdict", verify::verdict_name(r.verdict)}, {"detail", r.detail}, {"seconds", r.seconds}};
}

struct Tally {
  std::size_t pass = 0, fail = 0, unknown = 0, skipped = 0;
  void add(const verify::CheckResult& r) {
    switch (r.verdict) {
      case verify::Verdict::kPass:
        ++pass;
        break;
      case verify::Verdict::kFail:
        ++fail;
        break;
      case verify::Verdict::kUnknown:
        ++unknown;
        break;
      case verify::Verdict::kSkipped:
        ++skipped;
        break;
    }
  }
  std::string text() const {
    return fmt::format("{} pass, {} fail, {} unknown", pass, fail, unknown);
  }
  nlohmann::json json() const {
    return {{"pass", pass}, {"fail", fail}, {"unknown", unknown}, {"skipped", skipped}};
  }
};

void run(const VerifyCliOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  dsl::RuleLibrary library = dsl::load_rules_or_throw(o.paths);
  if (!o.axioms.empty() && !library.axioms.empty())
    throw Error(
        fmt::format("--axioms {}: the files given already declare {} axioms (proofs use "
                    "one set: name the axioms file either way, not both)",
                    o.axioms, library.axioms.size()));
  const verify::VerifyTargets targets =
      verify::verify_targets(library, o.only, "--only",
                             o.axioms.empty() ? default_rule_path() + "/axioms.rules" : o.axioms);
  const std::vector<dsl::CheckedRule>& rules = targets.rules;
  const std::vector<dsl::CheckedAxiom>& axioms = targets.axioms;
  const std::string axioms_note =
      fmt::format("proofs use {} axiom{} from {}", library.axioms.size(),
                  library.axioms.size() == 1 ? "" : "s", targets.axioms_source);
  verify::VerifyOptions options = o.verify;
  options.shape.rlimit = options.proof.rlimit = options.numeric.rlimit = o.rlimit;
  options.shape.max_rank = options.numeric.max_rank;
  if (!o.no_cache)
    options.cache_dir =
        o.cache_dir.empty() ? verify::default_cache_dir() : std::optional<std::string>(o.cache_dir);
  if (options.cache_dir)
    if (const auto why = verify::VerifyCache(*options.cache_dir).unwritable())
      fmt::print(
          stderr,
          "warning: the verification cache {} cannot be written ({}): results are not cached\n",
          *options.cache_dir, *why);
  const bool live = isatty(STDERR_FILENO) == 1;
  if (!o.json)
    options.on_verified = [live](const verify::EquationReport& r, std::size_t done,
                                 std::size_t total) {
      const std::string line =
          fmt::format("[{}/{}] {}: shape {}, axioms {}, numeric {}{}", done, total, r.name,
                      verify::verdict_name(r.shape.verdict),
                      r.axiom ? "(axiom)" : verify::verdict_name(r.proof.verdict),
                      verify::verdict_name(r.numeric.verdict), r.cached ? " (cached)" : "");
      std::fputs((live ? "\r\033[K" + line : line + "\n").c_str(), stderr);
      std::fflush(stderr);
    };
  const auto reports = verify::verify_library(library, rules, axioms, options);
  if (live && !o.json && !reports.empty()) std::fputs("\r\033[K", stderr);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Tally shape[2], proof, numeric[2];
  std::size_t failed = 0, cached = 0;
  for (const auto& r : reports) {
    shape[r.axiom].add(r.shape);
    numeric[r.axiom].add(r.numeric);
    if (!r.axiom) proof.add(r.proof);
    failed += r.failed();
    cached += r.cached;
  }
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : reports)
      list.push_back({{"name", r.name},
                      {"kind", r.axiom ? "axiom" : "rule"},
                      {"file", r.where.file},
                      {"line", r.where.line},
                      {"column", r.where.column},
                      {"text", r.text},
                      {"shape", to_json(r.shape)},
                      {"proof", to_json(r.proof)},
                      {"numeric", to_json(r.numeric)},
                      {"cached", r.cached},
                      {"unverified", r.unverified()},
                      {"failed", r.failed()}});
    std::cout << nlohmann::json(
                     {{"results", list},
                      {"summary",
                       {{"rules", rules.size()},
                        {"axioms", axioms.size()},
                        {"failed", failed},
                        {"cached", cached},
                        {"rule_shape", shape[0].json()},
                        {"rule_proof", proof.json()},
                        {"rule_numeric", numeric[0].json()},
                        {"axiom_shape", shape[1].json()},
                        {"axiom_numeric", numeric[1].json()},
                        {"proof_axioms",
                         {{"count", library.axioms.size()}, {"from", targets.axioms_source}}},
                        {"seconds", seconds}}}})
                     .dump(2)
              << '\n';
  } else {
    std::cout << fmt::format("{:<28} {:<8} {:<8} {:<8} {:>8}\n", "rule", "shape", "axioms",
                             "numeric", "seconds");
    for (const auto& r : reports) {
      const double t = r.shape.seconds + r.proof.seconds + r.numeric.seconds;
      const char* proof_text = r.axiom ? "axiom" : verify::verdict_name(r.proof.verdict);
      std::cout << fmt::format(
          "{:<28} {:<8} {:<8} {:<8} {:>8.3f}{}\n", r.name, verify::verdict_name(r.shape.verdict),
          proof_text, verify::verdict_name(r.numeric.verdict), t, r.cached ? " (cached)" : "");
      auto detail = [&](const char* what, const verify::CheckResult& c) {
        if (c.verdict == verify::Verdict::kFail ||
            (o.verbose && c.verdict != verify::Verdict::kSkipped))
          std::cout << fmt::format("  {}: {} {}: {}\n", r.where.to_string(), what,
                                   verify::verdict_name(c.verdict), c.detail);
      };
      detail("shape", r.shape);
      if (!r.axiom) detail("axioms", r.proof);
      detail("numeric", r.numeric);
      if (r.unverified())
        std::cout << fmt::format("  {}: {}\n", r.where.to_string(), verify::unverified_reason(r));
    }
    std::cout << fmt::format("\n{} rules: shape {}; axioms: {} proved, {} not proved; numeric {}\n",
                             rules.size(), shape[0].text(), proof.pass, proof.unknown + proof.fail,
                             numeric[0].text());
    if (!axioms.empty())
      std::cout << fmt::format("{} axioms: shape {}; numeric {}\n", axioms.size(), shape[1].text(),
                               numeric[1].text());
    std::cout << axioms_note << '\n';
    std::cout << fmt::format("{:.1f} s ({} from the cache)\n", seconds, cached);
  }
  std::cout.flush();  // the table before the error message
  if (failed > 0)
    throw Error(
        fmt::format("{} of {} rules and axioms failed verification", failed, reports.size()));
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyCliOptions>();
  CLI::App* command = app.add_subcommand(
      "verify",
      "Check rules for soundness: Z3 shape proofs, Z3 proofs from the axioms, numeric "
      "tests");
  command->add_option("paths", o->paths, "Rule files or directories")->required();
  command->add_option("--only", o->only, "Verify only these rules or axioms");
  command->add_flag("--json", o->json, "Print JSON");
  command->add_flag("--verbose,-v", o->verbose, "Print every check's detail");
  command
      ->add_option("--z3-rlimit", o->rlimit,
                   "Z3 resource limit per query: Z3's own step count, not time, so verdicts do "
                   "not depend on the machine's speed or load")
      ->capture_default_str()
      ->check(CLI::Range(1u, 4000000000u));
  command->add_option("--jobs,-j", o->verify.jobs, "Threads (0: every core)")
      ->check(thread_count(0))
      ->capture_default_str();
  command->add_option("--seed", o->verify.numeric.seed, "Seed of the numeric tests")
      ->check(non_negative_integer)
      ->capture_default_str();
  command
      ->add_option("--samples", o->verify.numeric.samples, "Concrete assignments tested per rule")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  command->add_option("--max-rank", o->verify.numeric.max_rank, "Tensor ranks enumerated: 1..N")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{6}));
  command
      ->add_option("--tolerance", o->verify.numeric.tolerance,
                   "Relative tolerance of the real-valued numeric test")
      ->check(non_negative_number)
      ->capture_default_str();
  command->add_option("--cache-dir", o->cache_dir,
                      "Cache directory (default: $XDG_CACHE_HOME/mctsat/verify)");
  command->add_flag("--no-cache", o->no_cache, "Neither read nor write the cache");
  command->add_option("--axioms", o->axioms,
                      "Axioms file the proofs use (default: the shipped rules/taso/axioms.rules, "
                      "when the files given declare no axioms)");
  command->callback([o] {
    keep_freed_memory_for_reuse();  // a Z3 context per numeric sample
    run(*o);
  });
}

}  // namespace mctsat::cli
