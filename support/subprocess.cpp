// Running another program with posix_spawnp, reading its two output pipes with poll.
#include "support/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>

#include "support/error.hpp"
#include "support/interrupt.hpp"

extern char** environ;

namespace mctsat {
namespace {

// A pipe whose ends close themselves.
struct Pipe {
  std::array<int, 2> fd{-1, -1};
  Pipe() {
    if (pipe2(fd.data(), O_CLOEXEC) != 0)
      throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  ~Pipe() {
    for (int end : fd)
      if (end >= 0) close(end);
  }
  void close_end(int which) {
    close(fd[which]);
    fd[which] = -1;
  }
};

std::vector<std::string> environment_with(
    const std::vector<std::pair<std::string, std::string>>& added) {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const auto equals = text.find('=');
    if (equals != std::string::npos) variables[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : added) variables[name] = value;
  std::vector<std::string> out;
  for (const auto& [name, value] : variables) out.push_back(name + "=" + value);
  return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::optional<ProgramOutput> run_program(
    const std::vector<std::string>& argv,
    const std::vector<std::pair<std::string, std::string>>& environment,
    const ProgramLimits& limits) {
  if (argv.empty()) throw Error("run_program: no program given");
  Pipe out, err;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err.fd[1], STDERR_FILENO);
  std::vector<std::string> arguments = argv;
  std::vector<std::string> variables = environment_with(environment);
  std::vector<char*> c_argv = c_strings(arguments), c_env = c_strings(variables);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, c_argv[0], &actions, nullptr, c_argv.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return std::nullopt;
  const InterruptKillsChild kill_on_interrupt(pid);
  out.close_end(1);
  err.close_end(1);

  ProgramOutput result;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(limits.seconds > 0 ? limits.seconds : 0));
  std::array<pollfd, 2> fds{{{out.fd[0], POLLIN, 0}, {err.fd[0], POLLIN, 0}}};
  std::array<std::string*, 2> sinks{&result.out, &result.err};
  std::array<char, 4096> buffer{};
  int open_ends = 2;
  // Killed, and no more is read (a process it started may hold the pipes open).
  auto stop = [&](bool& reason) {
    ::kill(pid, SIGKILL);
    reason = true;
    open_ends = 0;
  };
  while (open_ends > 0) {
    int wait_ms = -1;
    if (limits.seconds > 0 && !result.timed_out) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0) {
        stop(result.timed_out);
        continue;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, 1000));
    }
    if (poll(fds.data(), fds.size(), wait_ms) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer.data(), buffer.size());
      if (n > 0) {
        const auto room = limits.output_bytes - std::min(limits.output_bytes, sinks[i]->size());
        sinks[i]->append(buffer.data(), std::min(room, static_cast<std::size_t>(n)));
        if (static_cast<std::size_t>(n) > room) {
          stop(result.output_too_large);
          break;
        }
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_ends;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  // A program that cannot be executed after the spawn (posix_spawnp reports it as exit 127).
  if (result.exit_code == 127 && result.out.empty() && result.err.empty()) return std::nullopt;
  return result;
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace mctsat
