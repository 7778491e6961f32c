// "Did you mean": edit distances with swaps, the closest plausible name, nothing for an exact
// match or a word far from every candidate.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/suggest.hpp"

using namespace mctsat;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("optimize", "optimze") == 1);
  CHECK(edit_distance("conv2d", "cnov2d") == 1);  // a swap is one edit
  CHECK(edit_distance("matmul", "matadd") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
}

TEST_CASE("the closest plausible name is suggested") {
  const std::vector<std::string> commands = {"optimize", "extract", "show", "ops", "options"};
  CHECK(closest_name("optimze", commands) == "optimize");
  CHECK(closest_name("optimi", commands) == "optimize");  // a prefix
  CHECK(closest_name("shwo", commands) == "show");
  CHECK(closest_name("op", commands) == "ops");
  CHECK_FALSE(closest_name("optimize", commands).has_value());  // exact: nothing to suggest
  CHECK_FALSE(closest_name("benchmark", commands).has_value());
  CHECK_FALSE(closest_name("", commands).has_value());
  CHECK(did_you_mean("extarct", commands) == " (did you mean 'extract'?)");
  CHECK(did_you_mean("zzz", commands).empty());
}
