// Every deliberately unsound rule in tests/verify/unsound/ is refuted: the check named on its
// `# expect:` line fails (at least one of them, when several are named) and prints a
// counterexample — the variables' shapes, and for numeric tests the seed and the difference.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dsl/rule_library.hpp"
#include "verify/numeric_check.hpp"
#include "verify/shape_check.hpp"

using namespace mctsat;
using namespace mctsat::verify;

namespace {

std::vector<std::string> expected_checks(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# expect:", 0) != 0) continue;
    std::istringstream words(line.substr(9));
    std::vector<std::string> checks;
    for (std::string w; words >> w;) checks.push_back(w);
    return checks;
  }
  return {};
}

}  // namespace

TEST_CASE("every rule of the unsound corpus is refuted with a counterexample") {
  const std::filesystem::path dir =
      std::filesystem::path(MCTSAT_SOURCE_DIR) / "tests/verify/unsound";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".rules") continue;
    ++files;
    const std::string path = entry.path().string();
    CAPTURE(path);
    const auto library = dsl::load_rules_or_throw({path});
    REQUIRE(library.rules.size() == 1);
    const Equation e = equation_of(library.rules[0]);
    const auto expected = expected_checks(path);
    REQUIRE_FALSE(expected.empty());

    const CheckResult shape = check_shapes(e, {});
    const CheckResult numeric = check_numeric(e, {});
    CAPTURE(shape.detail);
    CAPTURE(numeric.detail);
    bool refuted = false;
    for (const auto& check : expected) {
      REQUIRE((check == "shape" || check == "numeric"));
      const CheckResult& r = check == "shape" ? shape : numeric;
      if (r.verdict != Verdict::kFail) continue;
      refuted = true;
      // The counterexample names the variables with their shapes.
      CHECK(r.detail.find("?") != std::string::npos);
      CHECK(r.detail.find("[") != std::string::npos);
      if (check == "shape")
        CHECK(r.detail.find("different shapes") != std::string::npos);
      else
        CHECK((r.detail.find("seed") != std::string::npos ||
               r.detail.find("shape") != std::string::npos));
    }
    CHECK_MESSAGE(refuted, "not refuted by the expected check(s)");
  }
  CHECK(files >= 25);
}
