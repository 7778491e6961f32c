// Running another program (git, sbatch, squeue, sacct) and capturing what it prints. The program
// is found on PATH and gets its arguments as they are, never through a shell; its standard output
// and standard error are captured separately, and the call waits for it to end.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mctsat {

struct ProgramOutput {
  int exit_code = -1;  // the program's exit status; 128 + N when signal N ended it
  std::string out, err;
};

// Runs argv[0] (looked up on PATH) with the arguments argv[1..], with `environment` added to this
// process's environment. Returns nullopt when the program cannot be started (not installed).
std::optional<ProgramOutput> run_program(
    const std::vector<std::string>& argv,
    const std::vector<std::pair<std::string, std::string>>& environment = {});

// `text` quoted for a POSIX shell: a script written for another program to run reads it back as
// exactly one word.
std::string shell_quote(const std::string& text);

}  // namespace mctsat
