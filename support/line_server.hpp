// Another program kept running to answer requests a line at a time (node timing operators in
// ONNX Runtime): started once, asked many times, so its start-up is paid once. A request is one
// line written to its standard input; the answer is the next line it prints. Its standard error
// is kept (the last 64 KiB) for the message when it fails. Writing to a program that has ended is
// an error, not a SIGPIPE. SIGINT and SIGTERM (support/interrupt.hpp) kill it; so does the
// destructor, after closing its input and giving it a second to end.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace mctsat {

class InterruptKillsChild;

class LineServer {
 public:
  // Starts argv[0] (looked up on PATH). Throws mctsat::Error when it cannot be started.
  explicit LineServer(const std::vector<std::string>& argv);
  ~LineServer();
  LineServer(const LineServer&) = delete;
  LineServer& operator=(const LineServer&) = delete;

  // Writes `request` (one line, no newline in it) and returns the next line the program prints,
  // without its newline. Throws mctsat::Error, with what it wrote to standard error, when it ends
  // or prints no line within `seconds` (then it is killed).
  std::string ask(const std::string& request, double seconds);

 private:
  [[noreturn]] void fail(const std::string& what);
  // Reads what is waiting on its standard error; false (the pipe closed) at its end.
  bool read_errors();

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1, child_errors_ = -1;
  std::string pending_, errors_;
  std::unique_ptr<InterruptKillsChild> kill_on_interrupt_;
};

}  // namespace mctsat
