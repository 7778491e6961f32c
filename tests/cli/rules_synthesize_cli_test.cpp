// `mctsat rules synthesize` end to end: it writes verified rules that `rules check` accepts, its
// JSON counts them, a second run given the first run's rules (`--rules`) proposes nothing new
// and reuses the fingerprint cache, the output is the same for one and two threads and with
// verification results reused (`--verify-cache`), and bad
// specifications are errors that name what is wrong; `rules derivable` finds what the rules imply.
#include <fstream>

#include <doctest/doctest.h>

#include "support/files.hpp"
#include "tests/cli/cli_runner.hpp"

TEST_CASE("rules synthesize writes verified rules; given them back it finds nothing new") {
  const Scratch scratch("mctsat-synthesize-cli");
  const std::string out = scratch.file("laws.rules");
  const std::string common =
      "rules synthesize --ops relu,transpose --shapes x:n,n --dims n=2,3 "
      "--max-ops 2 --json --cache " +
      scratch.file("prints.cache");
  const auto first = run_json(common + " -o " + out + " -j 2");
  CHECK(first["rules"].get<int>() >= 3);  // involution, idempotence, relu and transpose commute
  CHECK(first["rejected"].empty());
  const std::string text = mctsat::read_text_file(out);
  CHECK(text.find("(transpose (transpose ?x [1, 0]) [1, 0])") != std::string::npos);
  CHECK(text.find("@tags(synthesized, relu)") != std::string::npos);
  const CliResult check = run_mctsat("rules check " + out);
  CHECK_MESSAGE(check.status == 0, check.output);

  const auto again =
      run_json(common + " -o " + scratch.file("again.rules") + " -j 1 --rules " + out);
  CHECK(again["rules"] == 0);
  CHECK(again["derivable"] == first["candidates"]);
  CHECK(again["cache_hits"].get<int>() > 0);

  run_json(common + " -o " + scratch.file("one-thread.rules") + " -j 1");
  CHECK(mctsat::read_text_file(scratch.file("one-thread.rules")) == text);

  // Verification results kept in a directory: a second run reuses them, with the same output.
  const std::string verified = " --verify-cache " + scratch.file("verified");
  const auto cold = run_json(common + verified + " -o " + scratch.file("cold.rules") + " -j 2");
  CHECK(cold["verify_cache_hits"] == 0);
  const auto warm = run_json(common + verified + " -o " + scratch.file("warm.rules") + " -j 1");
  CHECK(warm["verify_cache_hits"].get<int>() > 0);
  CHECK(warm["sample_cache_hits"] == 0);  // no numeric test ran: every verdict came from the cache
  CHECK(mctsat::read_text_file(scratch.file("cold.rules")) == text);
  CHECK(mctsat::read_text_file(scratch.file("warm.rules")) == text);
}

TEST_CASE("rules derivable tells which rules follow from others by saturation") {
  const Scratch scratch("mctsat-derivable-cli");
  const std::string laws = scratch.file("laws.rules");
  run_json("rules synthesize --ops relu,transpose --shapes x:n,n --dims n=2,3 --json -j 2 -o " +
           laws);
  std::ofstream(scratch.file("targets.rules")) << R"(
rule relu-thrice: (relu (relu (relu ?a))) => (relu ?a)
rule transpose-relu-transpose: (transpose (relu (transpose ?a [1, 0])) [1, 0]) => (relu ?a)
rule wrong: (relu ?a) => ?a
)";
  const auto out =
      run_json("rules derivable " + scratch.file("targets.rules") + " --from " + laws + " --json");
  CHECK(out["total"] == 3);
  CHECK(out["derivable"] == 2);
  CHECK(out["rules"][2]["name"] == "wrong");
  CHECK(out["rules"][2]["verdict"] == "not derived");
}

TEST_CASE("rules synthesize rejects bad operator and shape specifications") {
  const Scratch scratch("mctsat-synthesize-cli-bad");
  const std::string out = " -o " + scratch.file("x.rules");
  for (const auto& [arguments, message] : std::vector<std::pair<std::string, std::string>>{
           {"--ops relu,bogus", "unknown operator 'bogus'"},
           {"--ops relu --shapes x:n,m", "no values for shape symbol 'm'"},
           {"--ops relu --shapes x:n --dims n=0", "'0' is not a positive dimension"},
           {"--ops split", "does not enumerate 'split'"}}) {
    const CliResult r = run_mctsat("rules synthesize " + arguments + out);
    CAPTURE(arguments);
    CHECK(r.status != 0);
    CHECK_MESSAGE(r.output.find(message) != std::string::npos, r.output);
  }
}
