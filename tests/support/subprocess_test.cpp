// run_program's limits: a program past its time or printing past the output limit is killed and
// the result says which; within them, its exit status and both outputs come back whole.
#include <doctest/doctest.h>

#include "support/subprocess.hpp"

using namespace mctsat;

TEST_CASE("run_program returns the exit status and both outputs") {
  const auto ran = run_program({"sh", "-c", "echo out; echo err >&2; exit 3"});
  REQUIRE(ran);
  CHECK(ran->exit_code == 3);
  CHECK(ran->out == "out\n");
  CHECK(ran->err == "err\n");
  CHECK_FALSE(ran->timed_out);
  CHECK_FALSE(ran->output_too_large);
  CHECK_FALSE(run_program({"mctsat-no-such-program"}));
}

TEST_CASE("a program that does not end within its time is killed") {
  // A fake onnxruntime-node whose loading never returned made the guard wait forever.
  const auto ran = run_program({"sh", "-c", "exec sleep 1000"}, {}, ProgramLimits{0.2});
  REQUIRE(ran);
  CHECK(ran->timed_out);
  CHECK(ran->exit_code == 128 + 9);
}

TEST_CASE("a program that prints more than the limit is killed, its output cut at the limit") {
  // One that printed gigabytes grew mctsat's memory as much.
  const auto ran = run_program({"sh", "-c", "exec yes"}, {}, ProgramLimits{0, 1 << 16});
  REQUIRE(ran);
  CHECK(ran->output_too_large);
  CHECK(ran->out.size() == std::size_t{1} << 16);
  CHECK(ran->err.empty());
  CHECK(ran->exit_code == 128 + 9);
}
