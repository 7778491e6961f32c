// Fork-per-job execution with deadlines (poll + SIGKILL), RLIMIT_AS memory limits, wait4()
// resource usage and a deferred interrupt's early stop.
#include "study/isolated_runs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <vector>

#include <fmt/format.h>

#include "support/error.hpp"
#include "support/interrupt.hpp"
#include "support/isolated_call.hpp"

namespace mctsat::study {
namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  std::size_t index = 0;
  pid_t pid = -1;
  int fd = -1;  // read end of the result pipe
  Clock::time_point start, deadline;
  std::string buffer;
  bool timed_out = false;
  std::unique_ptr<InterruptKillsChild> killed_on_interrupt;  // SIGINT/SIGTERM kill the run
};

void write_all(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void child_main(const IsolatedJob& job, int fd, pid_t parent) {
  // A child never outlives the harness (killed with it, e.g. by a test timeout or a job scheduler).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  // Output of the run (progress lines, warnings) goes to the log, never to the parent's terminal.
  const int log = job.log_path.empty()
                      ? ::open("/dev/null", O_WRONLY)
                      : ::open(job.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (log >= 0) {
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::close(log);
  }
  if (job.memory_mb > 0 && memory_limits_enforced()) {
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(job.memory_mb) << 20;
    ::setrlimit(RLIMIT_AS, &limit);
  }
  int code = 0;
  try {
    const nlohmann::json result = job.work();
    write_all(fd, nlohmann::json{{"status", "ok"}, {"result", result}}.dump());
  } catch (const std::bad_alloc&) {
    // Nothing may be allocated here: the limit was just hit.
    write_all(fd, R"j({"status":"memory","message":"out of memory (memory limit reached)"})j");
    code = 3;
  } catch (const Error& e) {
    write_all(fd, nlohmann::json{{"status", "error"}, {"message", e.what()}}.dump());
    code = 1;
  } catch (const std::exception& e) {
    write_all(fd, nlohmann::json{{"status", "error"}, {"message", e.what()}}.dump());
    code = 2;
  }
  std::fflush(nullptr);
  ::close(fd);
  ::_exit(code);
}

std::string tail_of_file(const std::string& path, std::size_t max_chars) {
  if (path.empty()) return "";
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > max_chars) text = "..." + text.substr(text.size() - max_chars);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

double cpu_seconds_of(const rusage& usage) {
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

IsolatedOutcome finish(Child& child, const IsolatedJob& job) {
  ::close(child.fd);
  int status = 0;
  rusage usage{};
  while (::wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  IsolatedOutcome outcome;
  outcome.wall_seconds = std::chrono::duration<double>(Clock::now() - child.start).count();
  outcome.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
  outcome.cpu_seconds = cpu_seconds_of(usage);
  if (child.timed_out) {
    outcome.status = "timeout";
    outcome.message = fmt::format("killed at the time limit of {} s", job.seconds);
    return outcome;
  }
  const auto reply = nlohmann::json::parse(child.buffer, nullptr, false);
  if (!reply.is_discarded() && reply.is_object() && reply.contains("status")) {
    outcome.status = reply["status"].get<std::string>();
    if (reply.contains("result")) outcome.result = reply["result"];
    if (reply.contains("message")) outcome.message = reply["message"].get<std::string>();
    return outcome;
  }
  outcome.status = "crashed";
  if (WIFSIGNALED(status))
    outcome.message =
        fmt::format("killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  else
    outcome.message = fmt::format("exited with status {} without a result",
                                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  const std::string log = tail_of_file(job.log_path, 2000);
  if (!log.empty()) outcome.message += ": " + log;
  return outcome;
}

// A running job stopped because the harness was interrupted: killed and reaped.
IsolatedOutcome interrupted(Child& child, int signal) {
  ::kill(child.pid, SIGKILL);
  ::close(child.fd);
  int status = 0;
  rusage usage{};
  while (::wait4(child.pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  IsolatedOutcome outcome;
  outcome.status = "interrupted";
  outcome.message = fmt::format("stopped by {}", signal == SIGINT ? "SIGINT" : "SIGTERM");
  outcome.wall_seconds = std::chrono::duration<double>(Clock::now() - child.start).count();
  outcome.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
  outcome.cpu_seconds = cpu_seconds_of(usage);
  return outcome;
}

}  // namespace

double current_rss_mb() {
  std::ifstream in("/proc/self/statm");
  long pages_total = 0, pages_resident = 0;
  in >> pages_total >> pages_resident;
  return static_cast<double>(pages_resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

void run_isolated(std::size_t count, std::size_t parallel,
                  const std::function<IsolatedJob(std::size_t)>& job,
                  const std::function<void(std::size_t, const IsolatedOutcome&)>& done,
                  const std::function<void()>& tick) {
  parallel = std::max<std::size_t>(parallel, 1);
  std::vector<Child> running;
  std::vector<IsolatedJob> jobs(count);
  std::size_t next = 0;
  auto last_tick = Clock::now();
  while (next < count || !running.empty()) {
    if (const int signal = deferred_interrupt(); signal != 0) {
      for (Child& child : running) done(child.index, interrupted(child, signal));
      return;
    }
    while (next < count && running.size() < parallel) {
      jobs[next] = job(next);
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0)
        throw Error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      const pid_t parent = ::getpid();
      Child child;
      pid_t pid = 0;
      {
        // No interrupt between the fork and the registration: no run may outlive the harness.
        const DeferInterrupts registering;
        pid = ::fork();
        if (pid == 0) {
          reset_interrupts_after_fork();
          ::close(fds[0]);
          child_main(jobs[next], fds[1], parent);
        }
        if (pid > 0) child.killed_on_interrupt = std::make_unique<InterruptKillsChild>(pid);
      }
      if (pid < 0) throw Error(fmt::format("cannot fork: {}", std::strerror(errno)));
      ::close(fds[1]);
      child.index = next;
      child.pid = pid;
      child.fd = fds[0];
      child.start = Clock::now();
      child.deadline = child.start + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(jobs[next].seconds));
      running.push_back(std::move(child));
      ++next;
    }
    // Wait for output, an exit (EOF) or the nearest deadline, at most half a second.
    auto wait_until = Clock::now() + std::chrono::milliseconds(500);
    for (const Child& c : running) wait_until = std::min(wait_until, c.deadline);
    std::vector<pollfd> fds;
    for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});
    const auto timeout_ms = std::max<long>(
        0,
        std::chrono::duration_cast<std::chrono::milliseconds>(wait_until - Clock::now()).count());
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(timeout_ms));
    if (ready < 0 && errno != EINTR)
      throw Error(fmt::format("poll failed: {}", std::strerror(errno)));
    // A Ctrl-C reaches the runs too: their ends are the interrupt's, not crashes.
    if (deferred_interrupt() != 0) continue;
    std::vector<std::size_t> ended;
    for (std::size_t i = 0; i < running.size(); ++i) {
      Child& c = running[i];
      if (ready > 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        char buffer[65536];
        const ssize_t n = ::read(c.fd, buffer, sizeof buffer);
        if (n > 0) {
          c.buffer.append(buffer, static_cast<std::size_t>(n));
          continue;
        }
        if (n == 0 || errno != EINTR) {
          ended.push_back(i);
          continue;
        }
      }
      if (Clock::now() >= c.deadline) {
        ::kill(c.pid, SIGKILL);
        c.timed_out = true;
        ended.push_back(i);
      }
    }
    for (auto it = ended.rbegin(); it != ended.rend(); ++it) {
      Child child = std::move(running[*it]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(*it));
      const IsolatedOutcome outcome = finish(child, jobs[child.index]);
      done(child.index, outcome);
    }
    if (tick && Clock::now() - last_tick >= std::chrono::milliseconds(500)) {
      tick();
      last_tick = Clock::now();
    }
  }
}

}  // namespace mctsat::study
