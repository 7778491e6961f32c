// `mctsat verify FILE_OR_DIR...`: checks every rule (and axiom) of rule files for soundness —
// shapes with Z3, a proof from the axioms with Z3, numeric tests with the interpreter — and
// prints a per-rule table and a summary (or JSON). Exits non-zero when any check fails. While it
// runs, each rule's verdicts go to stderr as it finishes (a live line on a terminal).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/number_checks.hpp"
#include "cli/rule_library_location.hpp"
#include "cli/verification_level_writer.hpp"
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
  bool write_levels = false;  // --write-levels: each rule's level into its file as @verified
};

nlohmann::json to_json(const verify::CheckResult& r) {
  return {
      {"verdict", verify::verdict_name(r.verdict)}, {"detail", r.detail}, {"seconds", r.seconds}};
}

std::string level_name(std::optional<dsl::VerificationLevel> level) {
  return level ? std::string(name_of(dsl::kVerificationLevelNames, *level)) : "none";
}
nlohmann::json level_json(std::optional<dsl::VerificationLevel> level) {
  return level ? nlohmann::json(level_name(level)) : nlohmann::json();
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
  dsl::RuleLibrary library = dsl::load_rules_or_throw(rule_source_paths(o.paths));
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
  std::size_t failed = 0, cached = 0, claims_unmet = 0;
  // Rules' reports come first, in the order of `rules` (verify_library). A declaration's level is
  // the weaker of its directions' (a `<=>` rule's two share one @verified); its claim is met when
  // the checks show exactly that level.
  using DeclarationKey = std::tuple<std::string, std::uint32_t, std::uint32_t>;
  const auto key_of = [&](std::size_t i) {
    const SourceLocation& where = rules[i].where;
    return DeclarationKey(where.file, where.line, where.column);
  };
  std::map<DeclarationKey, DeclaredLevel> declarations;
  std::map<DeclarationKey, std::size_t> first_direction;  // the first of a declaration's rules
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const auto level = reports[i].level();
    const DeclarationKey key = key_of(i);
    first_direction.try_emplace(key, i);
    const auto inserted = declarations.try_emplace(key, DeclaredLevel{rules[i].where, level});
    DeclaredLevel& declared = inserted.first->second;
    if (!inserted.second && (!level || (declared.level && *level < *declared.level)))
      declared.level = level;
  }
  const auto claim = [&](std::size_t i) {
    return i < rules.size() ? rules[i].verified : std::nullopt;
  };
  const auto declared_level = [&](std::size_t i) { return declarations.at(key_of(i)).level; };
  // Once per declaration, at its first direction.
  const auto claim_unmet = [&](std::size_t i) {
    return !o.write_levels && claim(i) && first_direction.at(key_of(i)) == i &&
           claim(i) != declared_level(i);
  };
  std::size_t levels_written = 0;
  if (o.write_levels) {
    std::vector<DeclaredLevel> list;
    for (const auto& entry : declarations) list.push_back(entry.second);
    levels_written = write_verification_levels(list);
  }
  std::map<std::string, std::size_t> levels{{"none", 0}};
  for (std::string_view name : names_of(dsl::kVerificationLevelNames)) levels[std::string(name)];
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const verify::EquationReport& r = reports[i];
    shape[r.axiom].add(r.shape);
    numeric[r.axiom].add(r.numeric);
    if (!r.axiom) {
      proof.add(r.proof);
      ++levels[level_name(r.level())];
    }
    failed += r.failed();
    cached += r.cached;
    claims_unmet += claim_unmet(i);
  }
  if (o.json) {
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const verify::EquationReport& r = reports[i];
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
                      {"failed", r.failed()},
                      {"level", level_json(r.level())},
                      {"claimed_level", level_json(claim(i))}});
    }
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
                        {"rule_levels", levels},
                        {"claims_unmet", claims_unmet},
                        {"levels_written", levels_written},
                        {"axiom_shape", shape[1].json()},
                        {"axiom_numeric", numeric[1].json()},
                        {"proof_axioms",
                         {{"count", library.axioms.size()}, {"from", targets.axioms_source}}},
                        {"seconds", seconds}}}})
                     .dump(2)
              << '\n';
  } else {
    std::cout << fmt::format("{:<28} {:<8} {:<8} {:<8} {:<8} {:>8}\n", "rule", "shape", "axioms",
                             "numeric", "level", "seconds");
    for (std::size_t i = 0; i < reports.size(); ++i) {
      const verify::EquationReport& r = reports[i];
      const double t = r.shape.seconds + r.proof.seconds + r.numeric.seconds;
      const char* proof_text = r.axiom ? "axiom" : verify::verdict_name(r.proof.verdict);
      std::cout << fmt::format("{:<28} {:<8} {:<8} {:<8} {:<8} {:>8.3f}{}\n", r.name,
                               verify::verdict_name(r.shape.verdict), proof_text,
                               verify::verdict_name(r.numeric.verdict),
                               r.axiom ? "-" : level_name(r.level()), t,
                               r.cached ? " (cached)" : "");
      if (claim_unmet(i))
        std::cout << fmt::format("  {}: @verified({}), but the checks show {}\n",
                                 r.where.to_string(), level_name(claim(i)),
                                 level_name(declared_level(i)));
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
    std::cout << fmt::format(
        "rule levels: {} axioms, {} shapes, {} samples, {} none{}\n", levels["axioms"],
        levels["shapes"], levels["samples"], levels["none"],
        claims_unmet ? fmt::format("; {} @verified claims unmet", claims_unmet) : std::string());
    if (o.write_levels)
      std::cout << fmt::format("wrote {} @verified annotation{}\n", levels_written,
                               levels_written == 1 ? "" : "s");
    std::cout << axioms_note << '\n';
    std::cout << fmt::format("{:.1f} s ({} from the cache)\n", seconds, cached);
  }
  std::cout.flush();  // the table before the error message
  if (failed > 0)
    throw Error(
        fmt::format("{} of {} rules and axioms failed verification", failed, reports.size()));
  if (claims_unmet > 0)
    throw Error(
        fmt::format("{} of {} rule declarations are not at the level their @verified states",
                    claims_unmet, declarations.size()));
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyCliOptions>();
  CLI::App* command = app.add_subcommand(
      "verify",
      "Check rules for soundness: Z3 shape proofs, Z3 proofs from the axioms, numeric "
      "tests");
  command
      ->add_option("paths", o->paths,
                   "Rule libraries by name (taso, extended), rule files or directories")
      ->required();
  command->add_option("--only", o->only, "Verify only these rules or axioms");
  command->add_flag("--write-levels", o->write_levels,
                    "Write each rule's verification level into its file as @verified(LEVEL) "
                    "(samples, shapes or axioms)");
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
