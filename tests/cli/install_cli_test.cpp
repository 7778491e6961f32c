// `mctsat --version` and `cmake --install`: the version and git commit recorded at build time
// ("unknown" outside a git work tree), an installed mctsat that finds its installed rule library
// and never the build tree's, and the README's tour run unchanged by the installed binary from an
// empty directory.
#include <filesystem>
#include <fstream>
#include <regex>

#include <doctest/doctest.h>

#include "tests/cli/cli_runner.hpp"
#include "tests/cli/doc_commands.hpp"

namespace fs = std::filesystem;

TEST_CASE("--version prints the project version, the git commit and the rule library") {
  const CliResult r = run_mctsat("--version");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK_MESSAGE(std::regex_search(r.output, std::regex(R"(^mctsat \d+\.\d+\.\d+ \(git commit )")),
                r.output);
  CHECK_MESSAGE(
      std::regex_search(r.output, std::regex(R"(commit ([0-9a-f]{40}(\+dirty)?|unknown)\))")),
      r.output);
  // The binary in the build tree reads the checkout's rules.
  CHECK(r.output.find("rule library: " + (fs::path(MCTSAT_SOURCE_DIR) / "rules").string()) !=
        std::string::npos);
}

TEST_CASE("the version source says 'unknown' outside a git work tree (a tarball)") {
  Scratch scratch("mctsat-version");
  const std::string output = scratch.file("version.cpp");
  const CliResult r =
      run_shell(std::string("'") + MCTSAT_CMAKE_COMMAND + "' -DSOURCE_DIR='" +
                scratch.dir.string() + "' -DVERSION=9.8.7 -DOUTPUT='" + output + "' -P '" +
                MCTSAT_SOURCE_DIR + "/cmake/write_version_source.cmake'");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  std::ifstream in(output);
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  CHECK(text.find("return \"9.8.7\";") != std::string::npos);
  CHECK(text.find("return \"unknown\";") != std::string::npos);
}

TEST_CASE("an installed mctsat finds its installed rule library, not the build tree's") {
  Scratch prefix("mctsat-install");
  const CliResult install =
      run_shell(std::string("'") + MCTSAT_CMAKE_COMMAND + "' --install '" + MCTSAT_BUILD_DIR +
                "' --prefix '" + prefix.dir.string() + "'");
  REQUIRE_MESSAGE(install.status == 0, install.output);
  const fs::path binary = prefix.dir / "bin" / "mctsat";
  const fs::path rules = prefix.dir / "share" / "mctsat" / "rules";
  REQUIRE(fs::exists(binary));
  REQUIRE(fs::exists(rules / "taso" / "multi.rules"));

  const CliResult version = run_shell("'" + binary.string() + "' --version");
  REQUIRE_MESSAGE(version.status == 0, version.output);
  CHECK_MESSAGE(version.output.find("rule library: " + rules.string() + "\n") != std::string::npos,
                version.output);
  const CliResult demo =
      run_shell("cd / && '" + binary.string() + "' optimize demo --simulations 16 --json");
  REQUIRE_MESSAGE(demo.status == 0, demo.output);
  CHECK(demo.output.find("\"speedup_percent\"") != std::string::npos);
  REQUIRE(fs::exists(prefix.dir / "share" / "mctsat" / "examples" / "study.json"));

  // The README's tour, unchanged, from an empty directory with only the installed binary.
  {
    Scratch empty("mctsat-install-tour");
    DocSession session(empty.dir, empty.dir, (prefix.dir / "bin").string());
    const auto commands = runnable_commands(fs::path(MCTSAT_SOURCE_DIR) / "README.md");
    CHECK(check_commands("README.md", commands, session) >= 10);
  }

  // Without the installed library the installed binary fails, naming where it looked: it does
  // not fall back to the build tree's rules.
  fs::remove_all(rules);
  const CliResult missing =
      run_shell("cd / && '" + binary.string() + "' optimize demo --simulations 16");
  CHECK(missing.status != 0);
  CHECK_MESSAGE(missing.output.find(rules.string()) != std::string::npos, missing.output);
}
