// SIGINT/SIGTERM handling: the registered child processes are killed (a CBC solver must not
// outlive mctsat), the registered temporary files removed, and the process exits with 128 + the
// signal; a deferred interrupt waits for the end of its scope; an isolated child dies with a caller
// killed outright; a program run_program runs is killed and a scratch directory removed. Each case
// runs in a forked process.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include <doctest/doctest.h>

#include "support/interrupt.hpp"
#include "support/isolated_call.hpp"
#include "support/scratch_directory.hpp"
#include "support/subprocess.hpp"

using namespace mctsat;
namespace fs = std::filesystem;

namespace {

int exit_status_of(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

}  // namespace

TEST_CASE("SIGTERM kills the isolated child, removes temporaries and exits with 143") {
  // Orphaned grandchildren come back to this process, so that their end can be observed.
  REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
  const fs::path temporary = fs::temp_directory_path() / "mctsat-interrupt-test.tmp";
  fs::remove(temporary);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    install_interrupt_handlers();
    std::ofstream(temporary) << "half a file";
    const InterruptRemovesFile removed(temporary.string());
    run_isolated([&] {
      const pid_t self = ::getpid();
      const ssize_t ignored = ::write(fds[1], &self, sizeof self);
      (void)ignored;
      for (;;) ::pause();
      return std::vector<double>{};
    });
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t solver = 0;
  REQUIRE(::read(fds[0], &solver, sizeof solver) == static_cast<ssize_t>(sizeof solver));
  ::close(fds[0]);
  REQUIRE(fs::exists(temporary));
  ::kill(pid, SIGTERM);
  CHECK(exit_status_of(pid) == 143);
  CHECK(exit_status_of(solver) == -SIGKILL);  // killed, not left running
  CHECK_FALSE(fs::exists(temporary));
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

TEST_CASE("an interrupt during a deferred step acts at its end, with 130 for SIGINT") {
  const fs::path marker = fs::temp_directory_path() / "mctsat-interrupt-test.marker";
  fs::remove(marker);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    install_interrupt_handlers();
    {
      const DeferInterrupts deferred;
      ::raise(SIGINT);
      std::ofstream(marker) << "finished the deferred step";
    }
    ::_exit(0);  // not reached: the pending SIGINT ends the process
  }
  CHECK(exit_status_of(pid) == 130);
  CHECK(fs::exists(marker));
  fs::remove(marker);
}

TEST_CASE("the isolated child dies with a caller killed outright (SIGKILL)") {
  REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    run_isolated([&] {
      const pid_t self = ::getpid();
      const ssize_t ignored = ::write(fds[1], &self, sizeof self);
      (void)ignored;
      for (;;) ::pause();
      return std::vector<double>{};
    });
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t solver = 0;
  REQUIRE(::read(fds[0], &solver, sizeof solver) == static_cast<ssize_t>(sizeof solver));
  ::close(fds[0]);
  ::kill(pid, SIGKILL);  // no handler runs: the kernel must end the child
  CHECK(exit_status_of(pid) == -SIGKILL);
  CHECK(exit_status_of(solver) == -SIGKILL);
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

TEST_CASE("SIGTERM kills a program run_program waits for and removes scratch directories") {
  // The never-slower guard waits for node in a scratch directory: a SIGTERM left node running and
  // the directory behind.
  REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
  const fs::path pid_file = fs::temp_directory_path() / "mctsat-interrupt-test.pid";
  fs::remove(pid_file);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    install_interrupt_handlers();
    const ScratchDirectory scratch("mctsat-interrupt-test");
    std::ofstream(scratch.file("model.onnx")) << "a model handed to another program";
    const std::string path = scratch.path();
    const ssize_t ignored = ::write(fds[1], path.c_str(), path.size());
    (void)ignored;
    ::close(fds[1]);
    run_program({"sh", "-c", "echo $$ > " + pid_file.string() + "; exec sleep 1000"});
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string scratch(4096, '\0');
  const ssize_t length = ::read(fds[0], scratch.data(), scratch.size());
  REQUIRE(length > 0);
  scratch.resize(static_cast<std::size_t>(length));
  ::close(fds[0]);
  pid_t program = 0;
  while (program == 0) {  // until the shell has written its pid
    std::ifstream(pid_file) >> program;
    if (program == 0) ::usleep(10000);
  }
  REQUIRE(fs::exists(fs::path(scratch) / "model.onnx"));
  ::kill(pid, SIGTERM);
  CHECK(exit_status_of(pid) == 143);
  CHECK(exit_status_of(program) == -SIGKILL);  // killed, not left running
  CHECK_FALSE(fs::exists(scratch));
  fs::remove(pid_file);
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}
