// TASO's equation set converts into checked mctsat rules: operator forms, orientation by bound
// variables, and reasons for the equations mctsat cannot express; on TENSAT's taso_rules.txt the
// counts are exact.
#include <doctest/doctest.h>

#include <map>

#include "dsl/printer.hpp"
#include "dsl/rule_library.hpp"
#include "dsl/taso_equation_import.hpp"
#include "support/files.hpp"

using namespace mctsat;
using namespace mctsat::dsl;

TEST_CASE("equations become rules in mctsat's operator forms") {
  const auto imported = import_taso_equations(
      "matmul(input_1,transpose(input_2))==transpose(matmul(input_2,transpose(input_1)))\n"
      "relu(input_8)==conv2d(1,1,0,2,input_8,Iconv(3,3))\n"
      "poolavg(3,3,1,1,0,relu(input_7))==relu(poolavg(3,3,1,1,0,input_7))\n"
      "input_1==concat(0,input_1,input_2)\n"
      "matmul(input_1,input_2)=>oops\n",
      "eq.txt");
  REQUIRE(imported.rules.size() == 3);
  CHECK(format_rule(imported.rules[0]).find("(matmul 0 ?input_1 (transpose ?input_2 [1, 0]))") !=
        std::string::npos);
  CHECK(format_rule(imported.rules[1]).find("(poolavg (relu ?input_7) 3 3 1 1 0 0)") !=
        std::string::npos);
  // Oriented so that the right-hand side's variables are bound: concat(...) => input_1.
  CHECK(format_rule(imported.rules[2]).find("(concat 0 2 ?input_1 ?input_2)\n  => ?input_1") !=
        std::string::npos);
  REQUIRE(imported.skipped.size() == 2);
  CHECK(imported.skipped[0].line == 2);
  CHECK(imported.skipped[0].reason.find("Iconv") != std::string::npos);
  CHECK(imported.skipped[1].line == 5);
  CHECK(imported.skipped[1].reason == "expected 'lhs==rhs'");
  // The output is a loadable rule file.
  Diagnostics diagnostics;
  const auto library =
      load_rule_text(taso_equations_to_dsl(imported.rules, "taso-eq"), "out.rules", diagnostics);
  CHECK_FALSE(diagnostics.has_errors());
  CHECK(library.rules.size() == 3);
}

TEST_CASE("TENSAT's taso_rules.txt: 629 of 931 equations convert") {
  const std::string path = std::string(MCTSAT_TENSAT_DATA_DIR) + "/taso_rules.txt";
  const auto imported = import_taso_equations(read_text_file(path), path);
  CHECK(imported.rules.size() == 629);
  CHECK(imported.skipped.size() == 302);
  std::map<std::string, std::size_t> reasons;
  for (const auto& s : imported.skipped) ++reasons[s.reason];
  CHECK(reasons["split_k(axis, x) with a split point only TASO's verifier knows"] == 54);
  CHECK(reasons["enlarge to a literal size (mctsat's enlarge takes a reference kernel)"] == 139);
}
