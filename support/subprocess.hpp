// Running another program (git, sbatch, squeue, sacct, node) and capturing what it prints. The
// program is found on PATH and gets its arguments as they are, never through a shell; its standard
// output and standard error are captured separately, and the call waits for it to end, within
// limits: what it prints is captured up to a size and it may be given a time; beyond either it is
// killed. SIGINT and SIGTERM (support/interrupt.hpp) kill it too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mctsat {

struct ProgramOutput {
  int exit_code = -1;  // the program's exit status; 128 + N when signal N ended it
  std::string out, err;
  bool timed_out = false;         // killed (SIGKILL) when its time was up
  bool output_too_large = false;  // killed (SIGKILL) when it printed more than the limit
};

struct ProgramLimits {
  double seconds = 0;  // wall-clock time before it is killed; 0: none
  // Bytes captured of each of its two outputs; the program is killed when it prints more.
  std::size_t output_bytes = std::size_t{256} << 20;
};

// Runs argv[0] (looked up on PATH) with the arguments argv[1..], with `environment` added to this
// process's environment. Returns nullopt when the program cannot be started (not installed).
std::optional<ProgramOutput> run_program(
    const std::vector<std::string>& argv,
    const std::vector<std::pair<std::string, std::string>>& environment = {},
    const ProgramLimits& limits = {});

// `text` quoted for a POSIX shell: a script written for another program to run reads it back as
// exactly one word.
std::string shell_quote(const std::string& text);

}  // namespace mctsat
