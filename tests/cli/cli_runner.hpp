// Runs the mctsat executable (path given by the build as MCTSAT_BINARY) and captures what it
// prints and its exit status, for the CLI integration tests.
#pragma once

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

struct CliResult {
  int status = -1;     // exit status
  std::string output;  // stdout and stderr, interleaved
};

inline CliResult run_mctsat(const std::string& arguments) {
  const std::string command = std::string(MCTSAT_BINARY) + " " + arguments + " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}
