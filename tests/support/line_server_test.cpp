// LineServer's contract: one program started once answers many requests, a line each; a program
// that ends, never answers, or cannot be started gives an Error carrying what it wrote to standard
// error, never a hang or a SIGPIPE.
#include <doctest/doctest.h>

#include "support/error.hpp"
#include "support/line_server.hpp"

using namespace mctsat;

TEST_CASE("one program answers many requests in order") {
  LineServer echo({"sh", "-c", "while read -r line; do echo \"got $line\"; done"});
  CHECK(echo.ask("a", 10) == "got a");
  CHECK(echo.ask("b c", 10) == "got b c");
  for (int i = 0; i < 50; ++i) CHECK(echo.ask(std::to_string(i), 10) == "got " + std::to_string(i));
}

TEST_CASE("a program that ends without answering is an error with its standard error") {
  LineServer quits({"sh", "-c", "read -r line; echo \"cannot serve $line\" >&2; exit 1"});
  try {
    (void)quits.ask("x", 10);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("cannot serve x") != std::string::npos);
  }
  // Asking again after it ended is an error too (no write to a closed socket raises SIGPIPE).
  CHECK_THROWS_AS((void)quits.ask("y", 10), Error);
}

TEST_CASE("a program that never answers is killed at the deadline") {
  LineServer silent({"sh", "-c", "exec sleep 1000"});
  try {
    (void)silent.ask("x", 0.2);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("no answer within") != std::string::npos);
  }
}

TEST_CASE("a program that cannot be started is an error") {
  CHECK_THROWS_AS(LineServer({"mctsat-no-such-program"}), Error);
  CHECK_THROWS_AS(LineServer({}), Error);
}
