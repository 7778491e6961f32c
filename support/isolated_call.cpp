// run_isolated: fork, RLIMIT_AS in the child, a pipe carrying {count, values...} as doubles
// (polled until the deadline), waitpid.
#include "support/isolated_call.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <optional>

#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "support/error.hpp"
#include "support/interrupt.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define MCTSAT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MCTSAT_ASAN 1
#endif
#endif

namespace mctsat {
namespace {

// The exit status of a child whose work ran out of its memory budget (std::bad_alloc).
constexpr int kOutOfMemoryStatus = 3;

// Limits this (child) process's address space to what it has now plus `bytes`.
void limit_address_space_growth(std::size_t bytes) {
  if (bytes == std::numeric_limits<std::size_t>::max() || !memory_limits_enforced()) return;
  std::uint64_t pages = 0;
  if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%" SCNu64, &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  const auto now = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  rlimit limit{};
  limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(now + bytes);
  ::setrlimit(RLIMIT_AS, &limit);
}

// The child's side: computes, writes the answer, and leaves without unwinding the parent's stack
// (which it shares a copy of) or running exit handlers.
[[noreturn]] void answer_and_exit(int fd, const std::function<std::vector<double>()>& work) {
  std::vector<double> message;
  try {
    const std::vector<double> values = work();
    message.reserve(values.size() + 1);
    message.push_back(static_cast<double>(values.size()));
    message.insert(message.end(), values.begin(), values.end());
  } catch (const std::bad_alloc&) {
    ::_exit(kOutOfMemoryStatus);
  } catch (...) {
    ::_exit(2);
  }
  const auto* bytes = reinterpret_cast<const char*>(message.data());
  std::size_t left = message.size() * sizeof(double);
  while (left > 0) {
    const ssize_t written = ::write(fd, bytes, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) ::_exit(1);
    bytes += written;
    left -= static_cast<std::size_t>(written);
  }
  ::_exit(0);
}

}  // namespace

bool memory_limits_enforced() {
#ifdef MCTSAT_ASAN
  return false;
#else
  return true;
#endif
}

IsolatedOutcome run_isolated(const std::function<std::vector<double>()>& work, double seconds,
                             std::size_t memory_bytes) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(std::min(seconds, 1e9)));
  static std::mutex fork_mutex;
  std::unique_lock<std::mutex> forking(fork_mutex);
  int fds[2];
  if (::pipe(fds) != 0) throw Error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  std::optional<InterruptKillsChild> killed_on_interrupt;
  pid_t pid = 0;
  {
    // No interrupt between the fork and the registration: the child must not outlive us.
    const DeferInterrupts registering;
    const pid_t parent = ::getpid();
    pid = ::fork();
    if (pid == 0) {
      reset_interrupts_after_fork();
      // Nor when we are killed outright (SIGKILL, e.g. a bench run stopped by its harness).
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(1);
      ::close(fds[0]);
      limit_address_space_growth(memory_bytes);
      answer_and_exit(fds[1], work);
    }
    if (pid > 0) killed_on_interrupt.emplace(pid);
  }
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw Error(fmt::format("cannot fork a child process: {}", std::strerror(error)));
  }
  ::close(fds[1]);
  forking.unlock();
  std::vector<char> received;
  char buffer[1 << 16];
  bool timed_out = false;
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd readable{fds[0], POLLIN, 0};
    // At most 50 ms between checks of the host's interrupt (Python's Ctrl-C).
    const int ready =
        ::poll(&readable, 1, static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 50)));
    try {
      poll_host_interrupt();
    } catch (...) {
      ::kill(pid, SIGKILL);
      ::close(fds[0]);
      int ignored = 0;
      while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
      }
      throw;
    }
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      if (std::chrono::steady_clock::now() < deadline) continue;
      timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    received.insert(received.end(), buffer, buffer + got);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  IsolatedOutcome outcome;
  if (timed_out) {
    outcome.timed_out = true;
    return outcome;
  }
  if (WIFSIGNALED(status)) {
    outcome.crash_signal = WTERMSIG(status);
    return outcome;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kOutOfMemoryStatus && received.empty()) {
    outcome.out_of_memory = true;
    return outcome;
  }
  std::vector<double> message(received.size() / sizeof(double));
  // memcpy from an empty vector's null data() is undefined behaviour, even for 0 bytes.
  if (!message.empty())
    std::memcpy(message.data(), received.data(), message.size() * sizeof(double));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || message.empty() ||
      message.size() != 1 + static_cast<std::size_t>(message[0]))
    throw Error(fmt::format("a child process ended without a complete answer (exit status {})",
                            WIFEXITED(status) ? WEXITSTATUS(status) : -1));
  outcome.values.assign(message.begin() + 1, message.end());
  return outcome;
}

}  // namespace mctsat
